import Foundation
import RaonErrors

/// The clock of `raon weekly` and `raon runs` for tests: `RAON_NOW` (ISO 8601 with its
/// offset, `2025-08-25T07:00:00+09:00`) sets the time a run starts at, and the clock runs on
/// from there. Honoured by those two commands only, and said on standard error whenever it
/// is, so a stray setting cannot pass unseen. Documented in docs/WEEKLY.md ("Testing a
/// Monday").
public enum WeeklyClock {
  public static let variable = "RAON_NOW"

  /// The clock `RAON_NOW` sets, or `nil` when it is not set.
  ///
  /// - Throws: ``WeeklyError/badClock(_:)`` when it is set but not a time.
  public static func fromEnvironment(_ variables: [String: String]) throws -> (@Sendable () -> Date)? {
    guard let text = variables[variable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    guard let start = formatter.date(from: text) ?? fractional.date(from: text) else {
      throw WeeklyError.badClock(text)
    }
    let began = Date()
    return { start.addingTimeInterval(Date().timeIntervalSince(began)) }
  }
}
