import Foundation

/// A calendar day in the proleptic Gregorian calendar, independent of any time zone.
///
/// Dates in the catalog are calendar days in Korea; Raon keeps them as plain days so
/// arithmetic (`end - start + 1`) never goes through a clock or a time zone.
///
/// ```swift
/// let day = CalendarDay(iso: "2024-12-22")   // 2024-12-22
/// day?.dayNumber                              // days since 1970-01-01
/// ```
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before it).
  public let dayNumber: Int

  public init(dayNumber: Int) {
    self.dayNumber = dayNumber
  }

  /// A validated day, or `nil` for impossible dates (2023-02-29, month 13, …).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= CalendarDay.daysIn(month: month, year: year)
    else { return nil }
    self.dayNumber = CalendarDay.daysFromCivil(year: year, month: month, day: day)
  }

  /// Parses `YYYY-MM-DD` (exactly ten characters).
  public init?(iso text: some StringProtocol) {
    let u = Array(text.utf8)
    guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for i in range {
        let d = Int(u[i]) - 48
        guard (0...9).contains(d) else { return nil }
        value = value * 10 + d
      }
      return value
    }
    guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// The calendar day in Korea (UTC+9, no daylight saving since 1988) of an instant.
  public init(koreaDateOf date: Date) {
    let seconds = Int((date.timeIntervalSince1970 + Double(KoreaTime.offsetSeconds)).rounded(.down))
    self.dayNumber = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
  }

  public var year: Int { civil.year }
  public var month: Int { civil.month }
  public var day: Int { civil.day }

  /// Monday = 1 … Sunday = 7 (ISO 8601).
  public var isoWeekday: Int {
    // 1970-01-01 was a Thursday (4).
    let r = (dayNumber + 3) % 7
    return (r < 0 ? r + 7 : r) + 1
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    let c = civil
    guard (0...9999).contains(c.year) else {
      return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }
    // Written by hand: `String(format:)` is slow, and writers print millions of dates.
    let ascii0 = UInt8(ascii: "0")
    let bytes: [UInt8] = [
      ascii0 + UInt8(c.year / 1000), ascii0 + UInt8(c.year / 100 % 10),
      ascii0 + UInt8(c.year / 10 % 10), ascii0 + UInt8(c.year % 10), UInt8(ascii: "-"),
      ascii0 + UInt8(c.month / 10), ascii0 + UInt8(c.month % 10), UInt8(ascii: "-"),
      ascii0 + UInt8(c.day / 10), ascii0 + UInt8(c.day % 10),
    ]
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Midnight of this day in Korea, as an instant.
  public var koreaMidnight: Date {
    Date(timeIntervalSince1970: Double(dayNumber * 86_400 - KoreaTime.offsetSeconds))
  }

  public func adding(days: Int) -> CalendarDay { CalendarDay(dayNumber: dayNumber + days) }

  public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.dayNumber < b.dayNumber }

  /// Number of days from `b` to `a`.
  public static func - (a: CalendarDay, b: CalendarDay) -> Int { a.dayNumber - b.dayNumber }

  // MARK: - Civil calendar arithmetic (Howard Hinnant's algorithms)

  private var civil: (year: Int, month: Int, day: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

extension CalendarDay: Codable {
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let day = CalendarDay(iso: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected YYYY-MM-DD, found \(text)")
    }
    self = day
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// Korea Standard Time: UTC+9 all year.
public enum KoreaTime {
  public static let offsetSeconds = 9 * 3600
  public static var timeZone: TimeZone { TimeZone(secondsFromGMT: offsetSeconds) ?? .current }
}
