import Foundation
import RaonCore

/// How much of a printed page's width a column of names needs, from the names themselves.
///
/// A list prints at 7.5 pt on A4 with 12 mm margins: 527 pt of text, 140 units of
/// ``DisplayWidth`` at 3.75 pt each (a Hangul syllable is two units, 7.5 pt). A Latin letter
/// of a proportional font averages a little more than one unit, so Latin-heavy widths are
/// taken 15 % larger; each cell adds its padding and border (3 units).
public enum PrintedWidth {
  /// The page's text width in display units at the lists' printed size.
  public static let pageUnits = 140.0
  /// The most a column of names may take, in hundredths of the page; wider names wrap.
  public static let widestNameShare = 24

  /// A name column's share of the page (hundredths, at least 5) and whether its names fit
  /// it whole (else the column wraps between words).
  public static func share(header: String, values: some Sequence<String>) -> (share: Int, whole: Bool) {
    // The header wraps between words: its longest word counts, not the whole header.
    let headerWord = header.split(separator: " ").map { units(String($0)) }.max() ?? 0
    let widest = max(headerWord, values.map(units).max() ?? 0)
    let share = Int((Double(widest + 3) / pageUnits * 100).rounded(.up))
    return share > widestNameShare ? (widestNameShare, false) : (max(share, 5), true)
  }

  /// A text's printed width in units: Hangul as two, other letters as 1.15.
  static func units(_ text: String) -> Int {
    var wide = 0
    var narrow = 0
    for scalar in text.unicodeScalars {
      let w = DisplayWidth.of(scalar)
      if w == 2 { wide += 2 } else { narrow += w }
    }
    return wide + Int((Double(narrow) * 1.15).rounded(.up))
  }

  /// `total` hundredths split in the proportion of `weights`, summing to `total` exactly
  /// (the remainder to the first).
  public static func split(_ total: Int, _ weights: [Int]) -> [Int] {
    let sum = weights.reduce(0, +)
    guard sum > 0, total > 0 else { return weights.map { _ in 0 } }
    var parts = weights.map { $0 * total / sum }
    parts[0] += total - parts.reduce(0, +)
    return parts
  }
}
