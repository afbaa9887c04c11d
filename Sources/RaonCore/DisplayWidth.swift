/// How many terminal or spreadsheet columns text takes: East Asian wide characters
/// (Hangul, CJK, full-width forms) take two, combining marks none, everything else one.
///
/// ```swift
/// DisplayWidth.of("강남구 A")   // 8
/// ```
public enum DisplayWidth {
  /// The display width of a string.
  public static func of(_ text: some StringProtocol) -> Int {
    var width = 0
    for scalar in text.unicodeScalars { width += of(scalar) }
    return width
  }

  /// The display width of one scalar (0, 1 or 2).
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x300 { return v < 0x20 || (0x7F..<0xA0).contains(v) ? 0 : 1 }
    if (0x300...0x36F).contains(v) || (0x1160...0x11FF).contains(v) || (0x200B...0x200F).contains(v)
      || v == 0xFEFF || (0xFE00...0xFE0F).contains(v)
    {
      return 0
    }
    return isWide(v) ? 2 : 1
  }

  private static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F,  // Hangul Jamo initials
      0x2E80...0x303E,  // CJK radicals, punctuation
      0x3041...0x33FF,  // Kana, compatibility Jamo, CJK symbols
      0x3400...0x4DBF,  // CJK extension A
      0x4E00...0x9FFF,  // CJK unified ideographs
      0xA960...0xA97F,  // Hangul Jamo extended A
      0xAC00...0xD7A3,  // Hangul syllables
      0xF900...0xFAFF,  // CJK compatibility ideographs
      0xFE30...0xFE4F,  // CJK compatibility forms
      0xFF00...0xFF60,  // full-width forms
      0xFFE0...0xFFE6,
      0x1F300...0x1F64F,  // emoji
      0x1F900...0x1F9FF,
      0x20000...0x3FFFD:  // CJK extensions B…
      return true
    default:
      return false
    }
  }

  /// Pads text with spaces on the right to a display width (no truncation).
  public static func padded(_ text: String, to width: Int) -> String {
    let w = of(text)
    return w >= width ? text : text + String(repeating: " ", count: width - w)
  }

  /// Pads text with spaces on the left to a display width (for numbers).
  public static func leftPadded(_ text: String, to width: Int) -> String {
    let w = of(text)
    return w >= width ? text : String(repeating: " ", count: width - w) + text
  }
}
