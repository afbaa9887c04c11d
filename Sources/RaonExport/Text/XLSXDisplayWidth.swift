/// How many terminal/spreadsheet columns text occupies when East Asian wide characters
/// (Hangul, CJK ideographs, full-width forms, most emoji) count as two.
///
/// libxlsxwriter has no autofit, so the XLSX writer sizes columns from this. It follows
/// Unicode's East Asian Width property closely enough for column sizing; it is not a
/// full implementation of UAX #11.
///
/// ```swift
/// XLSXDisplayWidth.columns(of: "서울 Seoul")   // 4 + 1 + 5 = 10
/// ```
enum XLSXDisplayWidth {
  /// The display width of `text` in columns.
  static func columns(of text: String) -> Int {
    var width = 0
    for scalar in text.unicodeScalars {
      width += columns(of: scalar)
    }
    return width
  }

  /// The display width of one scalar: 0 for combining marks and zero-width characters,
  /// 2 for East Asian wide and full-width ones, 1 otherwise.
  static func columns(of scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x300 { return v < 0x20 ? 0 : 1 }  // ASCII and Latin-1: the common case first.
    switch v {
    case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F, 0x1160...0x11FF:
      // Combining diacritics, zero-width spaces and joiners, variation selectors, and
      // Hangul medial/final jamo (they combine into the preceding syllable).
      return 0
    case 0x1100...0x115F,  // Hangul Jamo initial consonants
      0x2E80...0x303E,  // CJK radicals, punctuation
      0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, compatibility jamo, CJK compat
      0x3400...0x4DBF,  // CJK extension A
      0x4E00...0x9FFF,  // CJK unified ideographs
      0xA000...0xA4CF,  // Yi
      0xA960...0xA97F,  // Hangul Jamo extended A
      0xAC00...0xD7A3,  // Hangul syllables
      0xF900...0xFAFF,  // CJK compatibility ideographs
      0xFE30...0xFE4F,  // CJK compatibility forms
      0xFF00...0xFF60,  // Full-width forms
      0xFFE0...0xFFE6,
      0x1F300...0x1F64F,  // Emoji and pictographs
      0x1F900...0x1F9FF,
      0x20000...0x3FFFD:  // CJK extensions B and later
      return 2
    default:
      return 1
    }
  }
}
