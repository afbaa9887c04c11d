import Foundation

/// Dates as a Korean public document writes them (행정업무운영 편람: 연·월·일 뒤에 마침표,
/// 요일은 괄호), and their English equivalents; computed by arithmetic, so the text never
/// depends on the machine's locale.
///
/// ```swift
/// OfficialDate.day(monday)                       // "2025. 8. 18.(월)"
/// OfficialDate.period(monday, sunday)            // "2025. 8. 18.(월) ~ 8. 24.(일)"
/// OfficialDate.time(takenAt)                     // "2025. 8. 18.(월) 09:00"
/// OfficialDate.day(monday, .english)             // "Mon 18 Aug 2025"
/// OfficialDate.period(monday, sunday, .english)  // "Mon 18 – Sun 24 Aug 2025"
/// ```
///
/// The texts hold ordinary spaces; a writer that must keep a date on one line (HTML, PDF)
/// marks it no-wrap rather than relying on the spaces.
public enum OfficialDate {
  public enum Language: Sendable {
    case korean
    case english
  }

  /// One day: `2025. 8. 18.(월)`, `Mon 18 Aug 2025`.
  public static func day(_ d: CalendarDay, _ language: Language = .korean) -> String {
    switch language {
    case .korean: return "\(d.year). \(d.month). \(d.day).(\(koreanWeekday(d)))"
    case .english: return "\(englishWeekday(d)) \(d.day) \(englishMonth(d)) \(d.year)"
    }
  }

  /// A period: `2025. 8. 18.(월) ~ 8. 24.(일)` (the second date drops what it shares with
  /// the first: the year; in English the month too), `Mon 18 – Sun 24 Aug 2025`.
  /// A period across years writes both years: `2025. 12. 29.(월) ~ 2026. 1. 4.(일)`.
  public static func period(_ first: CalendarDay, _ last: CalendarDay, _ language: Language = .korean)
    -> String
  {
    switch language {
    case .korean:
      let second =
        first.year == last.year
        ? "\(last.month). \(last.day).(\(koreanWeekday(last)))" : day(last, .korean)
      return "\(day(first, .korean)) ~ \(second)"
    case .english:
      if first.year != last.year { return "\(day(first, .english)) – \(day(last, .english))" }
      if first.month != last.month {
        return "\(englishWeekday(first)) \(first.day) \(englishMonth(first)) – \(day(last, .english))"
      }
      return "\(englishWeekday(first)) \(first.day) – \(day(last, .english))"
    }
  }

  /// An instant in Korea time, to the minute: `2025. 8. 18.(월) 09:00`, `Mon 18 Aug 2025 09:00`.
  public static func time(_ date: Date, _ language: Language = .korean) -> String {
    let total = Int(date.timeIntervalSince1970.rounded(.down)) + KoreaTime.offsetSeconds
    let dayNumber = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
    let secondOfDay = total - dayNumber * 86_400
    return day(CalendarDay(dayNumber: dayNumber), language) + " "
      + two(secondOfDay / 3600) + ":" + two(secondOfDay % 3600 / 60)
  }

  private static let koreanWeekdays = ["월", "화", "수", "목", "금", "토", "일"]
  private static let englishWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let englishMonths = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private static func koreanWeekday(_ d: CalendarDay) -> String { koreanWeekdays[d.isoWeekday - 1] }
  private static func englishWeekday(_ d: CalendarDay) -> String { englishWeekdays[d.isoWeekday - 1] }
  private static func englishMonth(_ d: CalendarDay) -> String { englishMonths[d.month - 1] }
  private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
