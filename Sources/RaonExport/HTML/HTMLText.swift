import RaonCore

/// Text and attribute values as the page writes them: `&`, `<`, `>` and `"` as entities, a
/// line break (CRLF, CR, LF, U+2028, U+2029; a run of them) and a tab as one space, a run
/// of spaces as one (what a browser shows anyway), and what no page should carry (ESC,
/// BEL: ``SafeText``) as U+FFFD — the text the Markdown shows, as HTML.
enum HTMLText {
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    append(text, to: &out)
    return out
  }

  /// A text with none of these is appended whole (``PlainText``).
  private static let plain = PlainText(special: "&<>\"", spacesInARow: true)

  /// Appends `text`, escaped, to `out`.
  static func append(_ text: String, to out: inout String) {
    if plain.isPlain(text) { return out += text }
    // Byte by byte, kept bytes copied as they come: rebuilding the text scalar by scalar
    // was a measurable part of the page (bench/PROFILING.md, "Round four, session 6").
    var escaped: [UInt8] = []
    escaped.reserveCapacity(text.utf8.count + 16)
    var text = text
    text.withUTF8 { bytes in
      let n = bytes.count
      var previousWasSpace = false
      var i = 0
      while i < n {
        let b = bytes[i]
        var length = 1
        var space = false
        switch b {
        case 0x09, 0x0A, 0x0D, 0x20: space = true
        case 0x26: escaped += "&amp;".utf8
        case 0x3C: escaped += "&lt;".utf8
        case 0x3E: escaped += "&gt;".utf8
        case 0x22: escaped += "&quot;".utf8
        case 0x00..<0x20, 0x7F: escaped += replacement
        case 0x80...:
          switch PlainText.sequence(bytes, at: i) {
          case (.unsafe, let size)?: escaped += replacement; length = size
          case (.separator, let size)?: space = true; length = size
          case nil: escaped.append(b)
          }
        default: escaped.append(b)
        }
        if space, !previousWasSpace { escaped.append(0x20) }
        previousWasSpace = space
        i += length
      }
    }
    out += String(decoding: escaped, as: UTF8.self)
  }

  /// U+FFFD (``SafeText/replacement``) in UTF-8.
  private static let replacement: [UInt8] = Array(String(SafeText.replacement).utf8)

}
