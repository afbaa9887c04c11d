/// How many terminal/monospace columns text takes: East Asian Wide and Fullwidth
/// characters (Hangul syllables and leading Jamo, CJK ideographs, kana, fullwidth forms,
/// most emoji) count 2, combining marks and zero-width characters 0, everything else 1.
///
/// Writers use it to size chart labels and spreadsheet columns, the CLI to line up tables; a Korean label
/// is about twice as wide as a Latin one of the same length.
///
/// ```swift
/// DisplayWidth.of("강남구")   // 6
/// DisplayWidth.of("Seoul")   // 5
/// ```
public enum DisplayWidth {
  /// The display width of a whole string.
  public static func of(_ text: some StringProtocol) -> Int {
    var width = 0
    for scalar in text.unicodeScalars { width += of(scalar) }
    return width
  }

  /// The display width of one scalar: 0, 1 or 2.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x300 { return v < 0x20 || (0x7F..<0xA0).contains(v) ? 0 : 1 }
    if isZeroWidth(v) { return 0 }
    return isWide(v) ? 2 : 1
  }

  /// `text` cut to at most `maxWidth` columns, ending in `…` when something was cut.
  public static func truncate(_ text: String, to maxWidth: Int) -> String {
    guard of(text) > maxWidth else { return text }
    var out = ""
    var width = 0
    for ch in text {
      let w = of(String(ch))
      if width + w > maxWidth - 1 { break }
      out.append(ch)
      width += w
    }
    return out + "…"
  }

  private static func isZeroWidth(_ v: UInt32) -> Bool {
    switch v {
    case 0x0300...0x036F,  // combining diacritics
      0x1160...0x11FF,  // Hangul medial vowels and final consonants (join the leading Jamo)
      0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064,  // zero-width and direction marks
      0xFE00...0xFE0F,  // variation selectors
      0xFEFF,  // byte-order mark / zero-width no-break space
      0xD7B0...0xD7FF:  // Hangul Jamo Extended-B (medial/final)
      return true
    default:
      return false
    }
  }

  private static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F,  // Hangul Jamo, leading consonants
      0x2E80...0x303E,  // CJK radicals, punctuation
      0x3041...0x33FF,  // kana, Hangul compatibility Jamo, CJK symbols
      0x3400...0x4DBF,  // CJK extension A
      0x4E00...0x9FFF,  // CJK unified ideographs
      0xA000...0xA4CF,  // Yi
      0xA960...0xA97F,  // Hangul Jamo Extended-A
      0xAC00...0xD7A3,  // Hangul syllables
      0xF900...0xFAFF,  // CJK compatibility ideographs
      0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical and small forms
      0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
      0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // emoji
      0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B+
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
