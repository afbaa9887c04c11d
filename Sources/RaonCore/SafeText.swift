/// Text that every writer can carry: no character that XML 1.0 forbids (so a workbook's
/// sheet or chart XML stays valid) and none that drives a terminal.
///
/// Replaced with U+FFFD: the C0 controls except tab, line feed and carriage return, DEL,
/// the C1 controls (U+0080–U+009F, which include the 8-bit CSI), and the non-characters
/// U+FFFE and U+FFFF. Normalisation applies it to every text field of a program (flagged
/// ``QualityFlags/invalidCharactersReplaced``), so every writer gets clean text; the
/// writers apply it again to whatever else they are given.
public enum SafeText {
  /// What unsafe characters become.
  public static let replacement: Unicode.Scalar = "\u{FFFD}"

  /// Whether `text` holds no unsafe character; decided from its bytes, without copying.
  @inline(__always)
  public static func isSafe(_ text: String) -> Bool {
    UTF8Scanning.withBytes(text) { bytes -> Bool in
      var i = 0
      let n = bytes.count
      while i < n {
        let b = bytes[i]
        if b < 0x20 {
          if b != 0x09 && b != 0x0A && b != 0x0D { return false }
        } else if b == 0x7F {
          return false
        } else if b == 0xC2, i + 1 < n, bytes[i + 1] < 0xA0 {
          return false  // U+0080…U+009F
        } else if b == 0xEF, i + 2 < n, bytes[i + 1] == 0xBF, bytes[i + 2] >= 0xBE {
          return false  // U+FFFE, U+FFFF
        }
        i += 1
      }
      return true
    }
  }

  /// Whether one scalar is unsafe.
  @inline(__always)
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: return false
    case 0x00..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: return true
    default: return false
    }
  }

  /// `text` with every unsafe character replaced, or `nil` when it has none (the common
  /// case, which costs one scan and no copy).
  public static func cleaned(_ text: String) -> String? {
    if isSafe(text) { return nil }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { out.append(isUnsafe(scalar) ? replacement : scalar) }
    return String(out)
  }

  /// `text` with every unsafe character replaced.
  public static func clean(_ text: String) -> String { cleaned(text) ?? text }

  /// `text` for one terminal line: every control character (C0, DEL, C1) and line or
  /// paragraph separator written as an escape (`\n`, `\r`, `\t`, else `\u{1B}`), so a
  /// file name with a newline stays on its line and an ESC byte never drives the terminal.
  public static func terminalLine(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
      case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
      case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
      case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0xFFFE, 0xFFFF:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out.append(contentsOf: "\\u{\(hex)}".unicodeScalars)
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// `text` cut to its first `limit` characters for quoting in a message, with how long it
  /// was (`abcd… (1,048,576 characters)`): an error about a bad value echoes enough to find
  /// it, never a megabyte of it.
  public static func excerpt(_ text: String, limit: Int = 60) -> String {
    guard text.utf8.count > limit else { return text }
    var count = 0
    var end = text.startIndex
    while end < text.endIndex, count < limit {
      text.formIndex(after: &end)
      count += 1
    }
    guard end < text.endIndex else { return text }
    return "\(text[..<end])… (\(NumberText.grouped(text.count)) characters)"
  }
}
