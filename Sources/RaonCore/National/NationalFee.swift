/// The national data's fee columns: 요금정보 (a kind: 무료, 유료, 혼합 …) and 관람요금 (free
/// text, in won even where no unit is written: `10000`, `전석 10000`, `R 90000 + S 70000`).
public enum NationalFee {
  /// What 요금정보 says.
  public enum Kind: String, Sendable, CaseIterable {
    case free = "무료"
    case paid = "유료"
    /// 혼합, 무료+유료: some sessions or seats free, others paid.
    case mixed = "혼합"
    /// Empty or another word.
    case unknown = ""

    /// The kind a 요금정보 value names (`유료+무료` and the like are mixed).
    public init(_ text: String) {
      let folded = TextKey.fold(text)
      let free = folded.contains("무료") || folded == "free"
      let paid = folded.contains("유료") || folded == "paid"
      switch (free, paid) {
      case (true, true): self = .mixed
      case (true, false): self = .free
      case (false, true): self = .paid
      case (false, false): self = folded.contains("혼합") ? .mixed : .unknown
      }
    }

    /// The free flag: `true` free, `false` paid, `nil` mixed or unknown.
    public var isFree: Bool? {
      switch self {
      case .free: return true
      case .paid: return false
      case .mixed, .unknown: return nil
      }
    }
  }

  /// The lowest and highest amount a 관람요금 text quotes: what ``FeeParser`` reads (amounts
  /// with a won unit, `3만원`), together with bare numbers, which this column means in won:
  /// a run of digits (commas between groups allowed) of 100 or more, or a lone `0`, that
  /// no other unit follows at once (`8세`, `2층`, `4매`, `1인`, `3회`, …) and that is not
  /// part of a date or a decimal (`2018.12.31`).
  public static func range(in text: String) -> FeeRange? {
    var low = Int.max
    var high = Int.min
    if let range = FeeParser.range(in: text) {
      low = range.min
      high = range.max
    }
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      guard isDigit(scalars[i]) else {
        i += 1
        continue
      }
      let start = i
      var digits = ""
      while i < scalars.count, isDigit(scalars[i]) || (scalars[i] == "," && i + 1 < scalars.count && isDigit(scalars[i + 1])) {
        if scalars[i] != "," { digits.unicodeScalars.append(scalars[i]) }
        i += 1
      }
      let before = start > 0 ? scalars[start - 1] : nil
      let after = i < scalars.count ? scalars[i] : nil
      if let after, nonMoneyUnits.contains(after) { continue }
      if let after, after == "." || after == "/" || after == ":" || after == "-",
        i + 1 < scalars.count, isDigit(scalars[i + 1])
      {
        continue
      }
      if let before, before == "." || before == "/" || before == ":", start >= 2, isDigit(scalars[start - 2]) {
        continue
      }
      guard digits.count <= 9, let value = Int(digits), value == 0 || value >= 100 else { continue }
      low = Swift.min(low, value)
      high = Swift.max(high, value)
    }
    return low <= high ? FeeRange(min: low, max: high) : nil
  }

  /// Units that make a number something other than money.
  private static let nonMoneyUnits: Set<Unicode.Scalar> = [
    "세", "살", "개", "층", "매", "명", "인", "회", "분", "시", "년", "월", "일", "석", "차", "번",
    "%", "m", "M", "주", "박",
  ]

  private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
}
