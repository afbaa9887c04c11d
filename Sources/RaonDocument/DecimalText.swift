/// Numbers as the text data files carry them.
///
/// CSV and JSON share one rule so a median reads the same in both: integral values
/// without `.0` (`3`, not `3.0`), others as the shortest decimal that reads back as the
/// same `Double` (`2.5`, `0.3333333333333333`), never in exponent notation — Excel and
/// people both stumble over `1e-05`.
public enum DecimalText {
  /// The shortest plain decimal text of `value`; `nil` for NaN and infinities.
  public static func shortest(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    if value == value.rounded(), abs(value) < 9e18 {
      // Exact: integral doubles in Int's range convert without loss; Int(-0.0) is 0.
      return String(Int(value))
    }
    let text = "\(value)"
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
    return expand(mantissa: String(text[..<e]), exponent: Int(text[text.index(after: e)...]) ?? 0)
  }

  /// `1.5`, `-7` → `1.5 × 10^exponent` written out in full.
  private static func expand(mantissa: String, exponent: Int) -> String {
    var m = Substring(mantissa)
    let negative = m.hasPrefix("-")
    if negative { m = m.dropFirst() }
    let parts = m.split(separator: ".", omittingEmptySubsequences: false)
    let intPart = parts.first.map(String.init) ?? "0"
    let fracPart = parts.count > 1 ? String(parts[1]) : ""
    let digits = intPart + fracPart
    let point = intPart.count + exponent
    var out: String
    if point <= 0 {
      out = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      out = digits + String(repeating: "0", count: point - digits.count)
    } else {
      let i = digits.index(digits.startIndex, offsetBy: point)
      out = digits[..<i] + "." + digits[i...]
    }
    // Strip leading zeros of the integer part ("00.1" cannot happen, "0012" can).
    while out.count > 1, out.hasPrefix("0"), !out.hasPrefix("0.") { out.removeFirst() }
    if out.contains(".") {
      while out.hasSuffix("0") { out.removeLast() }
      if out.hasSuffix(".") { out.removeLast() }
    }
    return negative ? "-" + out : out
  }

  /// For people: thousands separators and at most `fractionDigits` decimals, trailing
  /// zeros dropped (`12,500`, `2.5`, `1,234.5`). `nil` for NaN and infinities.
  public static func grouped(_ value: Double, fractionDigits: Int = 1) -> String? {
    guard value.isFinite else { return nil }
    var scale = 1.0
    for _ in 0..<max(0, fractionDigits) { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard abs(scaled) < 9e15 else { return shortest(value) }
    let units = Int(scaled)
    let factor = Int(scale)
    let whole = units.magnitude / UInt(factor)
    var frac = String(units.magnitude % UInt(factor))
    if fractionDigits > 0 {
      frac = String(repeating: "0", count: fractionDigits - frac.count) + frac
      while frac.hasSuffix("0") { frac.removeLast() }
    } else {
      frac = ""
    }
    let sign = units < 0 ? "-" : ""
    return sign + Int(whole).formatted() + (frac.isEmpty ? "" : "." + frac)
  }
}
