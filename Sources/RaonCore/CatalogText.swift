/// Clean-up of the catalog's free-text fields.
public enum CatalogText {
  /// The text without surrounding white space (including NBSP, the ideographic space, a
  /// byte-order mark and zero-width spaces, which spreadsheet exports leave behind).
  ///
  /// Returns the same string, uncopied, when there is nothing to trim — the common case,
  /// decided from the first and last bytes alone.
  public static func trimmed(_ text: String) -> String {
    let clean = UTF8Scanning.withBytes(text) { bytes -> Bool in
      guard let first = bytes.first, let last = bytes.last else { return true }
      return !mayStartWithSpace(first) && !mayEndWithSpace(last)
    }
    if clean { return text }
    let scalars = text.unicodeScalars
    var start = scalars.startIndex
    var end = scalars.endIndex
    while start < end, isTrimmable(scalars[start]) { start = scalars.index(after: start) }
    while end > start {
      let before = scalars.index(before: end)
      guard isTrimmable(scalars[before]) else { break }
      end = before
    }
    if start == scalars.startIndex && end == scalars.endIndex { return text }
    return String(scalars[start..<end])
  }

  /// The trimmed text of an optional value; `""` for `nil`.
  @inline(__always)
  static func trimmed(_ text: String?) -> String {
    guard let text else { return "" }
    return trimmed(text)
  }

  /// Whether a first byte can begin a trimmable scalar: ASCII white space, or the lead
  /// byte of U+0085/U+00A0 (C2), U+1680 (E1), U+2000…U+205F (E2), U+3000 (E3), U+FEFF (EF).
  @inline(__always)
  private static func mayStartWithSpace(_ byte: UInt8) -> Bool {
    if byte < 0x80 { return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    return byte == 0xC2 || byte == 0xE1 || byte == 0xE2 || byte == 0xE3 || byte == 0xEF
  }

  /// Whether a last byte can end a trimmable scalar: ASCII white space, or a continuation
  /// byte that ends one of them (80–8B, 85, 9F, A0, A8, A9, AF, BF).
  @inline(__always)
  private static func mayEndWithSpace(_ byte: UInt8) -> Bool {
    if byte < 0x80 { return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    switch byte {
    case 0x80...0x8B, 0x9F, 0xA0, 0xA8, 0xA9, 0xAF, 0xBF: return true
    default: return false
    }
  }

  /// White space by the Unicode White_Space property, written out because looking the
  /// property up is slow, plus U+FEFF and U+200B, which are invisible padding here.
  @inline(__always)
  static func isTrimmable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F,
      0x205F, 0x3000, 0xFEFF:
      return true
    default:
      return false
    }
  }
}
