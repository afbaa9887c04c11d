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

  /// Appends `text`, escaped, to `out` (no copy of the text on the way).
  static func append(_ text: String, to out: inout String) {
    if plain.isPlain(text) { return out += text }
    var previousWasSpace = false
    for s in text.unicodeScalars {
      switch s {
      case "\r", "\n", "\u{2028}", "\u{2029}", "\t", " ":
        if !previousWasSpace { out.append(" ") }
        previousWasSpace = true
        continue
      case "&": out.append("&amp;")
      case "<": out.append("&lt;")
      case ">": out.append("&gt;")
      case "\"": out.append("&quot;")
      case _ where SafeText.isUnsafe(s): out.unicodeScalars.append(SafeText.replacement)
      default: out.unicodeScalars.append(s)
      }
      previousWasSpace = false
    }
  }
}
