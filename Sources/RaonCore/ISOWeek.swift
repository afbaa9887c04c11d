import Foundation

/// An ISO 8601 week (`2024-W37`): Monday to Sunday, week 1 holds the year's first Thursday.
public struct ISOWeek: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let week: Int

  /// A validated week, or `nil` when the year has no such week.
  public init?(year: Int, week: Int) {
    guard (1...9999).contains(year), week >= 1, week <= ISOWeek.weeksIn(year: year) else { return nil }
    self.year = year
    self.week = week
  }

  /// The week containing a day.
  public init(containing day: CalendarDay) {
    // The Thursday of the day's week decides the ISO year.
    let thursday = day.adding(days: 4 - day.isoWeekday)
    let y = thursday.year
    let jan1 = CalendarDay(dayNumber: CalendarDay.daysFromCivil(year: y, month: 1, day: 1))
    self.year = y
    self.week = (thursday - jan1) / 7 + 1
  }

  /// Parses `YYYY-Www` (also accepts `YYYYWww` and a lower-case `w`).
  public init?(_ text: String) {
    let t = text.trimmingCharacters(in: .whitespaces).uppercased().replacingOccurrences(of: "-", with: "")
    guard t.count == 7, let w = t.firstIndex(of: "W"), t.distance(from: t.startIndex, to: w) == 4,
      let y = Int(t[..<w]), let n = Int(t[t.index(after: w)...])
    else { return nil }
    self.init(year: y, week: n)
  }

  /// Monday of the week.
  public var start: CalendarDay {
    let jan4 = CalendarDay(dayNumber: CalendarDay.daysFromCivil(year: year, month: 1, day: 4))
    let week1Monday = jan4.adding(days: 1 - jan4.isoWeekday)
    return week1Monday.adding(days: (week - 1) * 7)
  }

  /// Sunday of the week.
  public var end: CalendarDay { start.adding(days: 6) }

  public var description: String { String(format: "%04d-W%02d", year, week) }

  public static func < (a: ISOWeek, b: ISOWeek) -> Bool { (a.year, a.week) < (b.year, b.week) }

  static func weeksIn(year: Int) -> Int {
    // A year has 53 weeks when it starts on a Thursday, or on a Wednesday in a leap year.
    let jan1 = CalendarDay(dayNumber: CalendarDay.daysFromCivil(year: year, month: 1, day: 1))
    let wd = jan1.isoWeekday
    return wd == 4 || (wd == 3 && CalendarDay.isLeap(year)) ? 53 : 52
  }
}
