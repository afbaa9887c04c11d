/// An end date no one can mean: `2205-11-23` for an event that starts on 2025-11-23 is a
/// slip of the keyboard, and taken as written it keeps the event "running" for 180 years.
/// Normalisation leaves such an end empty (the original field keeps it) and flags it
/// ``QualityFlags/endDateImplausible``: the event stays current, and is not counted as
/// running, starting to end or by duration.
///
/// The conventional open ends — 31 December of 2099, 2999 or 9999, which catalogs write for
/// a permanent exhibition — are meant, and kept.
///
/// ```swift
/// ImplausibleEnd.isImplausible(start: day("2025-11-23"), end: day("2205-11-23"))  // true
/// ImplausibleEnd.isImplausible(start: day("2023-10-06"), end: day("2099-12-31"))  // false
/// ```
public enum ImplausibleEnd {
  /// The longest a catalog's event runs, start to end, when its end is not an open-end
  /// convention: the real catalogs' longest is under 5 years (the Seoul sample: 2023 to 2026).
  public static let longestYears = 20

  /// Whether `end` cannot be meant, given `start` (an end after 2100 with no start).
  public static func isImplausible(start: CalendarDay?, end: CalendarDay?) -> Bool {
    guard let end, !isOpenEnd(end) else { return false }
    guard let start else { return end.year >= 2100 }
    return end.year - start.year > longestYears
  }

  /// 31 December of 2099, 2999 or 9999: "until further notice".
  public static func isOpenEnd(_ day: CalendarDay) -> Bool {
    day.month == 12 && day.day == 31 && [2099, 2999, 9999].contains(day.year)
  }
}
