/// The one rule for percentages people read, used by every writer so the Markdown, the
/// charts and the workbook cannot disagree: one decimal, always shown (`4.3%`, `7.0%`,
/// `100.0%`), rounded half away from zero on the decimal value (`0.0435` → `4.4%`, as
/// Excel rounds what it displays), never `7%` in one place and `7.0%` in another.
///
/// ```swift
/// Percentage.text(0.07)            // "7.0%"
/// Percentage.rounded(0.04349)      // 0.043, what the workbook stores under "0.0%"
/// Percentage.pointsText(0.012, suffix: "%p")  // "+1.2%p"
/// ```
public enum Percentage {
  /// The smallest count a sentence gives a percentage of: "2건(50.0%) 줄었습니다" says more
  /// than it knows, so on smaller bases a sentence says the counts alone.
  public static let smallestBase = 10

  /// Whether a share of `base` is worth a percentage in a sentence.
  public static func isSayable(base: Int) -> Bool { base >= smallestBase }

  /// The share (0…1) in tenths of a percent, rounded half away from zero; `nil` for NaN,
  /// infinities and values beyond any share.
  public static func tenths(_ fraction: Double) -> Int? {
    guard fraction.isFinite, abs(fraction) < 1e12 else { return nil }
    // Binary doubles hold 0.0435 as 0.04349999…: drop the noise below a millionth of a
    // tenth first, so the decimal value decides, as it does in Excel.
    let scaled = ((fraction * 1000) * 1e6).rounded() / 1e6
    return Int(scaled.rounded())
  }

  /// The share as the workbook stores it: rounded to a tenth of a percent, so the cell
  /// formatted `0.0%` shows exactly the text the Markdown prints.
  public static func rounded(_ fraction: Double) -> Double {
    tenths(fraction).map { Double($0) / 1000 } ?? fraction
  }

  /// `24.7%`, `7.0%`; `—%` for a value that is not a number.
  public static func text(_ fraction: Double) -> String {
    guard let t = tenths(fraction) else { return "—%" }
    return (t < 0 ? "-" : "") + tenthsText(t.magnitude) + "%"
  }

  /// A change of shares in percentage points: `+1.2%p`, `−0.5%p` (U+2212), `0.0%p`.
  public static func pointsText(_ fractionDelta: Double, suffix: String) -> String {
    guard let t = tenths(fractionDelta) else { return "—" + suffix }
    let sign = t > 0 ? "+" : t < 0 ? "−" : ""
    return sign + tenthsText(t.magnitude) + suffix
  }

  /// The size of a change of shares, without its sign: `1.2%p` (the sentence or the
  /// arrow says which way).
  public static func pointsMagnitudeText(_ fractionDelta: Double, suffix: String) -> String {
    guard let t = tenths(fractionDelta) else { return "—" + suffix }
    return tenthsText(t.magnitude) + suffix
  }

  /// `1,234.5` from 12,345 tenths.
  private static func tenthsText(_ t: UInt) -> String {
    Int(t / 10).formatted() + "." + String(t % 10)
  }
}
