import Foundation
import RaonCore

/// Parses `--taken-at`: full ISO 8601 with a zone (`2024-09-09T09:00:00+09:00`, `…Z`), a
/// local time without zone (read as Korea time), or a bare date (midnight in Korea).
public enum TakenAtParser {
  public static func parse(_ text: String) throws -> Date {
    let t = text.trimmingCharacters(in: .whitespaces)
    if let day = CalendarDay(iso: t) { return day.koreaMidnight }
    let withZone = ISO8601DateFormatter()
    withZone.formatOptions = [.withInternetDateTime]
    if let date = withZone.date(from: t) { return date }
    withZone.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = withZone.date(from: t) { return date }
    let local = DateFormatter()
    local.locale = Locale(identifier: "en_US_POSIX")
    local.timeZone = KoreaTime.timeZone
    for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
      local.dateFormat = format
      if let date = local.date(from: t) { return date }
    }
    throw WorkflowError.invalidTakenAt(text)
  }
}

extension Date {
  /// `2024-09-08T15:00:00Z`: how Raon writes instants.
  public var iso8601UTC: String { ReportTime.iso8601UTC(self) }

  /// `2024-09-09 00:00 KST`: how Raon shows instants to people.
  public var koreaDisplay: String { ReportTime.korea(self) }
}
