/// Text made safe for one terminal line.
enum TerminalText {
  /// `text` with every control character (C0, DEL, C1) and line or paragraph separator
  /// written as an escape: `\n`, `\r`, `\t`, else `\u{1B}`.
  static func oneLine(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
      case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
      case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
      case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out.append(contentsOf: "\\u{\(hex)}".unicodeScalars)
      default: out.append(scalar)
      }
    }
    return String(out)
  }
}
