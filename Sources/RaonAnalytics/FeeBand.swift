import RaonCore

/// The fee band of a program: a key of `byFee` in the report.
///
/// Raw values are the contract's keys, and `allCases` is the contract's order.
///
/// ```swift
/// FeeBand(isFree: false, feeMinKRW: 20_000)  // .from10001To30000 ("10001-30000")
/// ```
public enum FeeBand: String, NumberBand, Sendable, Codable {
  case free = "free"
  case upTo10000 = "1-10000"
  case from10001To30000 = "10001-30000"
  case from30001To50000 = "30001-50000"
  case from50001To100000 = "50001-100000"
  case over100000 = "100001+"
  case unknown = "unknown"

  /// The band of a program: `free` when it is free, else by its lowest fee.
  public init(_ program: Program) {
    self.init(isFree: program.isFree, feeMinKRW: program.feeMinKRW)
  }

  /// The band for an `is_free` value and a lowest fee.
  ///
  /// A paid program whose lowest amount reads as 0 (or less) falls in the lowest paid band,
  /// not in `free`: the `free` band then always equals the number of free programs, which
  /// readers check against the `free` column of the other tables.
  ///
  /// - Parameters:
  ///   - isFree: The program's `is_free`.
  ///   - feeMinKRW: The program's `fee_min_krw`; `nil` when no amount could be read.
  public init(isFree: Bool?, feeMinKRW: Int?) {
    if isFree == true {
      self = .free
      return
    }
    guard let fee = feeMinKRW else {
      self = .unknown
      return
    }
    self.init(banding: fee)
  }

  static let bounded: [(highest: Int, band: Self)] = [
    (10_000, .upTo10000), (30_000, .from10001To30000), (50_000, .from30001To50000),
    (100_000, .from50001To100000),
  ]
  static let unbounded = Self.over100000
  static let ordered = allCases
}
