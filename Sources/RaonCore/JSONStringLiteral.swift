/// JSON string literals as Raon writes them inside stored and raw records: `"` and `\`
/// escaped, `\n` `\r` `\t`, other control characters as `\u00XX`, everything else as is.
///
/// One definition, because its output feeds content hashes: the store's raw values and
/// the JSON reader's text of nested values must never drift apart. (Report JSON uses
/// RaonExport's own emitter, which also escapes `\b`, `\f` and U+2028/2029.)
public enum JSONStringLiteral {
  /// Appends `text` as a quoted JSON string.
  public static func append(_ text: String, to out: inout String) {
    out += "\""
    // Nearly no catalog text needs escaping: find that out first and copy the string whole.
    if !needsEscaping(text) {
      out += text
    } else {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{0}"..."\u{1F}":
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  /// The byte a one-letter escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) stands
  /// for, from the letter after the backslash; `nil` for `u` and for what is no escape.
  public static func unescaped(_ letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return letter
    case UInt8(ascii: "b"): return 0x08
    case UInt8(ascii: "f"): return 0x0C
    case UInt8(ascii: "n"): return 0x0A
    case UInt8(ascii: "r"): return 0x0D
    case UInt8(ascii: "t"): return 0x09
    default: return nil
    }
  }

  /// True when `text` holds a byte that must be escaped.
  static func needsEscaping(_ text: String) -> Bool {
    // A scan of the UTF-8 in place: `withCString` would copy every short (inline) string
    // to the heap first, on recording's hot path (bench/PROFILING.md).
    func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return true }
      return false
    }
    if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
    return text.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
  }
}
