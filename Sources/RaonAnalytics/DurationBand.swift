import RaonCore

/// The duration band of a program: a key of `byDuration` in the report.
///
/// Raw values are the contract's keys, and `allCases` is the contract's order.
///
/// ```swift
/// DurationBand(durationDays: 14)   // .from8To30 ("8-30")
/// DurationBand(durationDays: nil)  // .invalid
/// ```
public enum DurationBand: String, NumberBand, Sendable, Codable {
  case oneDay = "1"
  case from2To7 = "2-7"
  case from8To30 = "8-30"
  case from31To90 = "31-90"
  case from91To365 = "91-365"
  case over365 = "366+"
  case invalid = "invalid"

  /// The band of a program's `duration_days` (`invalid` when it has none).
  public init(_ program: Program) {
    self.init(durationDays: program.durationDays)
  }

  /// The band of a duration in days.
  ///
  /// - Parameter durationDays: `end − start + 1`; `nil` (a date missing, or the end before
  ///   the start) and values below 1 give `invalid`.
  public init(durationDays: Int?) {
    guard let days = durationDays, days >= 1 else {
      self = .invalid
      return
    }
    self.init(banding: days)
  }

  static let bounded: [(highest: Int, band: Self)] = [
    (1, .oneDay), (7, .from2To7), (30, .from8To30), (90, .from31To90), (365, .from91To365),
  ]
  static let unbounded = Self.over365
  static let ordered = allCases
}
