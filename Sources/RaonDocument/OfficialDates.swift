import Foundation
import RaonCore

/// Dates as a Korean public document writes them — `2025. 8. 18.(월)`, the period
/// `2025. 8. 18.(월) ~ 8. 24.(일)`, the time of the data `2025. 8. 18.(월) 09:00` — and
/// their English equivalents (`Mon 18 Aug 2025`).
///
/// The spaces inside one date are no-break spaces (U+00A0), so a printed line never
/// breaks inside a date; a period breaks only around its `~`. Computed by arithmetic,
/// never by a locale's formatter, so the text is the same on every machine.
///
/// ```swift
/// OfficialDates.day(CalendarDay(iso: "2025-08-18")!, .ko)   // "2025. 8. 18.(월)"
/// ```
public enum OfficialDates {
  static let nbsp = "\u{00A0}"

  private static let koreanWeekdays = ["월", "화", "수", "목", "금", "토", "일"]
  private static let englishWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let englishMonths = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `2025. 8. 18.(월)` / `Mon 18 Aug 2025`.
  public static func day(_ d: CalendarDay, _ language: ReportLanguage) -> String {
    switch language {
    case .ko: return numeric(d, withYear: true) + "(\(koreanWeekdays[d.isoWeekday - 1]))"
    case .en: return englishWeekdays[d.isoWeekday - 1] + nbsp + english(d, withYear: true)
    }
  }

  /// The week (or any period) with weekdays: `2025. 8. 18.(월) ~ 8. 24.(일)` (the year
  /// repeated only when it changes) / `Mon 18 Aug – Sun 24 Aug 2025`.
  public static func period(_ start: CalendarDay, _ end: CalendarDay, _ language: ReportLanguage)
    -> String
  {
    switch language {
    case .ko:
      let endText =
        numeric(end, withYear: end.year != start.year) + "(\(koreanWeekdays[end.isoWeekday - 1]))"
      return day(start, .ko) + " ~ " + endText
    case .en:
      let startText =
        englishWeekdays[start.isoWeekday - 1] + nbsp + english(start, withYear: start.year != end.year)
      return startText + " – " + day(end, .en)
    }
  }

  /// A program's dates in a list, without weekdays: `2025. 8. 18. ~ 9. 22.`, one day as
  /// `2025. 8. 18.`, an open end as `2025. 8. 18. ~`; `—` when both are missing.
  public static func programDates(_ start: CalendarDay?, _ end: CalendarDay?, _ language: ReportLanguage)
    -> String
  {
    func text(_ d: CalendarDay, withYear: Bool) -> String {
      language == .ko ? numeric(d, withYear: withYear) : english(d, withYear: withYear)
    }
    let dash = language == .ko ? " ~ " : " – "
    switch (start, end) {
    case let (s?, e?) where s == e: return text(s, withYear: true)
    case let (s?, e?) where e < s || e.year != s.year:
      return text(s, withYear: true) + dash + text(e, withYear: true)
    // Korean writes the year once at the start, English once at the end.
    case let (s?, e?) where language == .ko: return text(s, withYear: true) + dash + text(e, withYear: false)
    case let (s?, e?): return text(s, withYear: false) + dash + text(e, withYear: true)
    case let (s?, nil): return text(s, withYear: true) + dash.dropLast()
    case let (nil, e?): return String(dash.dropFirst()) + text(e, withYear: true)
    case (nil, nil): return "—"
    }
  }

  /// The time the data was taken, in Korea: `2025. 8. 18.(월) 09:00` / `Mon 18 Aug 2025 09:00 KST`.
  public static func instant(_ date: Date, _ language: ReportLanguage) -> String {
    let total = Int(date.timeIntervalSince1970.rounded(.down)) + KoreaTime.offsetSeconds
    let dayNumber = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
    let second = total - dayNumber * 86_400
    let clock = two(second / 3600) + ":" + two(second % 3600 / 60)
    let d = day(CalendarDay(dayNumber: dayNumber), language)
    return language == .ko ? d + nbsp + clock : d + nbsp + clock + nbsp + "KST"
  }

  /// `18 Aug`.
  public static func dayMonth(_ d: CalendarDay) -> String { english(d, withYear: false) }

  /// `2025. 8. 18.` or `8. 18.`
  private static func numeric(_ d: CalendarDay, withYear: Bool) -> String {
    (withYear ? "\(d.year).\(nbsp)" : "") + "\(d.month).\(nbsp)\(d.day)."
  }

  /// `18 Aug 2025` or `18 Aug`
  private static func english(_ d: CalendarDay, withYear: Bool) -> String {
    "\(d.day)\(nbsp)\(englishMonths[d.month - 1])" + (withYear ? "\(nbsp)\(d.year)" : "")
  }

  private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
