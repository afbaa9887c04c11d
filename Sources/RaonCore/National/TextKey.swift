import Foundation

/// Text folded for comparison in a key: the same title written with other spacing,
/// full-width letters or capitals folds to the same key.
///
/// NFKC; then every character that is white space (Unicode `White_Space`) or a control or
/// format character (categories Cc, Cf: zero-width spaces, BOMs) is dropped; then A–Z are
/// lowered (only ASCII: other scripts have no case that matters here, and Python's
/// `lower()` and Swift's agree on ASCII).
///
/// ```swift
/// TextKey.fold(" 2025 토요명품 ")   // "2025토요명품"
/// TextKey.fold("ＡＢＣ Hall")        // "abchall"
/// ```
public enum TextKey {
  public static func fold(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
      if scalar.properties.isWhitespace { continue }
      switch scalar.properties.generalCategory {
      case .control, .format: continue
      default: break
      }
      if scalar.value >= 0x41 && scalar.value <= 0x5A, let lower = Unicode.Scalar(scalar.value + 0x20) {
        out.append(lower)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
