import Foundation
import RaonCore

/// Instants as the store writes them: ISO 8601 in UTC with a `Z`, to the millisecond.
///
/// `2024-09-09T00:00:00Z`, or `2024-09-09T06:30:12.345Z` when there are milliseconds.
/// Text, not a number, because analysts read the table with Python's `sqlite3`; UTC so it
/// sorts as text. Written by hand so no `DateFormatter` (not thread-safe, locale-dependent)
/// is involved.
package enum ISOTimestamp {
  /// The instant rounded to the millisecond, which is what the store keeps (for
  /// ``representable`` instants).
  package static func rounded(_ date: Date) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
  }

  /// The instants ISO 8601's four-digit years can write: 0001-01-01 to 9999-12-31.
  static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

  /// The text of an instant, or `nil` outside ``representable`` (or not finite).
  package static func format(_ date: Date) -> String? {
    guard representable.contains(date.timeIntervalSince1970) else { return nil }
    let ms = milliseconds(date)
    let dayMs: Int64 = 86_400_000
    let day = ms >= 0 ? ms / dayMs : -((-ms + dayMs - 1) / dayMs)
    let inDay = Int(ms - day * dayMs)
    let calendarDay = CalendarDay(dayNumber: Int(day))
    let seconds = inDay / 1000
    var text = calendarDay.description + "T" + twoDigits(seconds / 3600) + ":"
      + twoDigits(seconds / 60 % 60) + ":" + twoDigits(seconds % 60)
    if inDay % 1000 != 0 {
      let fraction = String(inDay % 1000)
      text += "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
    return text + "Z"
  }

  /// Parses what ``format(_:)`` writes (any number of fraction digits is accepted).
  package static func parse(_ text: String) -> Date? {
    let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, let day = CalendarDay(iso: parts[0]), parts[1].hasSuffix("Z") else {
      return nil
    }
    let time = parts[1].dropLast()
    let clock = time.prefix(8)
    let hms = clock.split(separator: ":", omittingEmptySubsequences: false)
    guard clock.count == 8, hms.count == 3, let h = Int(hms[0]), let m = Int(hms[1]),
      let s = Int(hms[2]), (0..<24).contains(h), (0..<60).contains(m), (0..<61).contains(s)
    else { return nil }
    // Milliseconds as an integer, so a parsed time is bit-for-bit the `rounded` instant.
    var fractionMs: Int64 = 0
    let rest = time.dropFirst(8)
    if !rest.isEmpty {
      let digits = rest.dropFirst()
      guard rest.first == ".", !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber })
      else { return nil }
      let padded = String((digits + "000").prefix(3))
      fractionMs = Int64(padded) ?? 0
    }
    let ms = (Int64(day.dayNumber) * 86_400 + Int64(h * 3600 + m * 60 + s)) * 1000 + fractionMs
    return Date(timeIntervalSince1970: Double(ms) / 1000)
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  private static func twoDigits(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
}
