import Foundation
import RaonCore

/// The `Date:` header (RFC 5322) in Korea time: `Mon, 18 Aug 2025 07:00:05 +0900`. By
/// arithmetic, not a locale's formatter, so it reads the same on every machine.
enum MailDate {
  private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  static func header(_ date: Date) -> String {
    let total = Int(date.timeIntervalSince1970.rounded(.down)) + KoreaTime.offsetSeconds
    let dayNumber = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
    let second = total - dayNumber * 86_400
    let day = CalendarDay(dayNumber: dayNumber)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(weekdays[day.isoWeekday - 1]), \(day.day) \(months[day.month - 1]) \(day.year) "
      + "\(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60)) +0900"
  }
}
