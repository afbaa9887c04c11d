/// Clean-up of the catalog's free-text fields.
public enum CatalogText {
  /// The text without surrounding white space (including NBSP, the ideographic space, a
  /// byte-order mark and zero-width spaces, which spreadsheet exports leave behind).
  ///
  /// Returns the same string, uncopied, when there is nothing to trim — the common case.
  public static func trimmed(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.first, let last = scalars.last else { return text }
    if !isTrimmable(first) && !isTrimmable(last) { return text }
    var start = scalars.startIndex
    var end = scalars.endIndex
    while start < end, isTrimmable(scalars[start]) { start = scalars.index(after: start) }
    while end > start {
      let before = scalars.index(before: end)
      guard isTrimmable(scalars[before]) else { break }
      end = before
    }
    return String(scalars[start..<end])
  }

  /// The trimmed text of an optional value; `""` for `nil`.
  @inline(__always)
  static func trimmed(_ text: String?) -> String {
    guard let text else { return "" }
    return trimmed(text)
  }

  @inline(__always)
  static func isTrimmable(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
    // U+FEFF and U+200B are not White_Space in Unicode, yet they are invisible padding here.
    return v == 0xFEFF || v == 0x200B || scalar.properties.isWhitespace
  }
}
