import Ink

/// The report's Markdown as an HTML fragment, through Ink, with what Ink 0.6 gets wrong on
/// Raon's Markdown put right before it parses.
///
/// Ink handles GitHub tables (with `\|` in cells and column alignment), links, images,
/// emphasis, inline code, backslash escapes of `*`, `_`, `[`, `]` and `` ` ``, and entities
/// (`&amp;` is passed through, never escaped twice). Measured on Raon's Markdown, it falls
/// short in three ways, each handled in ``prepare(_:)``:
/// - A `<` in text opens raw HTML: `<햄릿>` in a title swallows the rest of the document
///   into one list item, and `\<script>` is passed through as a real element. Every `<`
///   (escaped or not) becomes `&lt;` before Ink sees it.
/// - Link targets are written into `href="…"` as they are: a `"` in a portal URL would end
///   the attribute, and `&` is left bare. Outside code spans, `&`, `"` and `>` become
///   entities, which Ink passes through and the browser reads back as the characters.
/// - A top-level item after a nested list (`- a`, `  - b`, `- 외 N건`) is put inside the
///   nested list when both use the same marker. Nested items get `*` instead of `-`.
///
/// The few tags the Markdown writer itself uses (``allowedTags``: `<sub>` for the week's
/// definitions) stay tags: they go through Ink as private-use placeholders, so the text
/// inside them is still Markdown, and become tags again afterwards. Catalog text can never
/// make one: ``MarkdownText/inline(_:)`` escapes every `<` before a letter or `/`.
enum MarkdownHTML {
  /// Tags, without attributes, that the Markdown may use and the page keeps.
  static let allowedTags = ["sub", "sup", "small", "br"]

  /// The HTML fragment of `markdown` (no `<html>`/`<body>`).
  ///
  /// Parsed one section at a time (``sections(of:)``): Ink holds a whole document's parse
  /// tree, about nine times its text — ~400 MB for the 47 MB Markdown of a report on a
  /// million programs — and one section's is enough, with the same HTML.
  static func fragment(_ markdown: String) -> String {
    var html = ""
    for section in sections(of: markdown) {
      html += restoreTags(MarkdownParser().html(from: prepare(String(section))))
    }
    return html
  }

  /// `markdown` cut before every heading that follows an empty line, outside fenced code.
  ///
  /// Ink reads a document block by block (a heading is one line; a paragraph, list or
  /// table ends at an empty line) and the report links inline, never by reference, so no
  /// block crosses such a cut and the pieces' HTML, joined, is the document's.
  static func sections(of markdown: String) -> [Substring] {
    let bytes = markdown.utf8
    var sections: [Substring] = []
    var start = bytes.startIndex, line = bytes.startIndex
    var afterEmptyLine = false, inFence = false
    while line < bytes.endIndex {
      let end = bytes[line...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
      let text = bytes[line..<end]
      if text.starts(with: "```".utf8) {
        inFence.toggle()
      } else if !inFence, afterEmptyLine, text.first == UInt8(ascii: "#"), line > start {
        sections.append(markdown[start..<line])
        start = line
      }
      afterEmptyLine = text.isEmpty
      line = end == bytes.endIndex ? end : bytes.index(after: end)
    }
    sections.append(markdown[start...])
    return sections
  }

  private static let open: Character = "\u{E000}"
  private static let close: Character = "\u{E001}"

  /// An allowed tag at `chars[i]` (`<sub>`, `</sub>`, `<br/>`): its placeholder and length.
  private static func allowedTag(in chars: [Character], at i: Int) -> (String, Int)? {
    guard chars[i] == "<" else { return nil }
    var j = i + 1
    var slash = false
    if j < chars.count, chars[j] == "/" {
      slash = true
      j += 1
    }
    var name = ""
    while j < chars.count, chars[j].isASCII, chars[j].isLetter, name.count < 8 {
      name.append(chars[j])
      j += 1
    }
    guard allowedTags.contains(name.lowercased()) else { return nil }
    if j < chars.count, chars[j] == "/", !slash { j += 1 }
    guard j < chars.count, chars[j] == ">" else { return nil }
    return ("\(open)\(slash ? "/" : "")\(name.lowercased())\(close)", j + 1 - i)
  }

  /// The placeholders Ink passed through, as tags again.
  static func restoreTags(_ html: String) -> String {
    guard html.contains(open) else { return html }
    var out = html
    for name in allowedTags {
      out = out.replacingOccurrences(of: "\(open)\(name)\(close)", with: "<\(name)>")
        .replacingOccurrences(of: "\(open)/\(name)\(close)", with: "</\(name)>")
    }
    return out
  }

  /// `markdown` with the characters Ink mishandles turned into entities (outside code
  /// spans, which Ink escapes itself) and nested list markers made distinct.
  static func prepare(_ markdown: String) -> String {
    var out = ""
    out.reserveCapacity(markdown.utf8.count + markdown.utf8.count / 16)
    var first = true
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if !first { out += "\n" }
      first = false
      out += prepareLine(Substring(line))
    }
    return out
  }

  private static func prepareLine(_ line: Substring) -> String {
    let chars = Array(line)
    var out = ""
    var i = 0
    // Leading indentation, a block-quote marker and a nested list marker.
    while i < chars.count, chars[i] == " " || chars[i] == "\t" {
      out.append(chars[i])
      i += 1
    }
    if i > 0, i + 1 < chars.count, chars[i] == "-", chars[i + 1] == " " {
      out += "*"
      i += 1
    }
    while i < chars.count, chars[i] == ">" {
      out.append(">")
      i += 1
    }
    while i < chars.count {
      let c = chars[i]
      switch c {
      case "`":
        // A code span: copied as it is up to the closing run of the same length.
        var run = 0
        while i + run < chars.count, chars[i + run] == "`" { run += 1 }
        if let end = closingRun(of: run, in: chars, from: i + run) {
          out += String(chars[i..<(end + run)])
          i = end + run
        } else {
          out += String(repeating: "`", count: run)
          i += run
        }
        continue
      case "\\":
        guard i + 1 < chars.count else {
          out.append(c)
          i += 1
          continue
        }
        let next = chars[i + 1]
        if let entity = entity(next) {
          out += entity  // `\<` → `&lt;`: the entity needs no escape
        } else {
          out.append(c)
          out.append(next)
        }
        i += 2
        continue
      case "<":
        if let (placeholder, length) = allowedTag(in: chars, at: i) {
          out += placeholder
          i += length
          continue
        }
        out += "&lt;"
      default:
        if let entity = entity(c) { out += entity } else { out.append(c) }
      }
      i += 1
    }
    return out
  }

  private static func entity(_ c: Character) -> String? {
    switch c {
    case "&": return "&amp;"
    case "<": return "&lt;"
    case open: return "&#xE000;"
    case close: return "&#xE001;"
    case ">": return "&gt;"
    case "\"": return "&quot;"
    default: return nil
    }
  }

  /// The index of the next run of exactly `length` backticks at or after `start`.
  private static func closingRun(of length: Int, in chars: [Character], from start: Int) -> Int? {
    var j = start
    while j < chars.count {
      guard chars[j] == "`" else {
        j += 1
        continue
      }
      var run = 0
      while j + run < chars.count, chars[j + run] == "`" { run += 1 }
      if run == length { return j }
      j += run
    }
    return nil
  }
}
