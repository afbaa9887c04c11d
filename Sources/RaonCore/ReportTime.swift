import Foundation


/// Instants as text, computed by arithmetic rather than with a formatter so the output
/// never depends on the machine's locale, calendar or time zone.
public enum ReportTime {
  /// ISO 8601 in UTC with whole seconds and a `Z`: `2024-09-08T15:00:00Z`.
  ///
  /// Fractions of a second are dropped (rounded down): snapshots are identified by id,
  /// and a stable, short form matters more than sub-second precision.
  public static func iso8601UTC(_ date: Date) -> String {
    format(date, offsetSeconds: 0, dateTimeSeparator: "T", seconds: true) + "Z"
  }

  /// Korea time to the minute: `2024-09-09 00:00 KST`.
  public static func korea(_ date: Date) -> String {
    format(date, offsetSeconds: KoreaTime.offsetSeconds, dateTimeSeparator: " ", seconds: false)
      + " KST"
  }

  private static func format(
    _ date: Date, offsetSeconds: Int, dateTimeSeparator: String, seconds: Bool
  ) -> String {
    let total = Int((date.timeIntervalSince1970).rounded(.down)) + offsetSeconds
    let dayNumber = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
    let secondOfDay = total - dayNumber * 86_400
    let day = CalendarDay(dayNumber: dayNumber)
    var text = day.description + dateTimeSeparator + two(secondOfDay / 3600) + ":"
      + two(secondOfDay % 3600 / 60)
    if seconds { text += ":" + two(secondOfDay % 60) }
    return text
  }

  private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
