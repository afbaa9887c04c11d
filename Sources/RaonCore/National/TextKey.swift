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
    foldedPlainly(text) ?? foldedByNFKC(text)
  }

  /// The fold as defined: Foundation's NFKC, then the Unicode properties of each scalar.
  static func foldedByNFKC(_ text: String) -> String {
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

  /// The fold of a text made only of ASCII and precomposed Hangul syllables (most titles,
  /// places and 입장연령 texts), without Foundation's NFKC: NFKC leaves both unchanged (a
  /// syllable composes only with a conjoining jamo, which is neither), so only the ASCII
  /// white space and controls are dropped and A–Z lowered. `nil` for any other text.
  static func foldedPlainly(_ text: String) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09...0x0D, 0x20, 0x00...0x08, 0x0E...0x1F, 0x7F:
        continue  // White_Space or Cc
      case 0x41...0x5A:
        bytes.append(UInt8(scalar.value + 0x20))
      case 0x21...0x7E:
        bytes.append(UInt8(scalar.value))
      case 0xAC00...0xD7A3:  // three bytes in UTF-8
        let v = scalar.value
        bytes.append(UInt8(0xE0 | (v >> 12)))
        bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        bytes.append(UInt8(0x80 | (v & 0x3F)))
      default:
        return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
