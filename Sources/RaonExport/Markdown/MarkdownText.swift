import RaonCore
import RaonDocument

/// Escaping and small pieces of GitHub-flavoured Markdown.
enum MarkdownText {
  /// Text for inline use (list items, link text, table cells): characters that would
  /// start emphasis, code, links, HTML or a table column are backslash-escaped, and line
  /// breaks become spaces so one value stays on one line (and in one table row).
  ///
  /// `<` is escaped only before what could open an HTML tag (`<a`, `</`, `<!`), so the
  /// common Korean title brackets `<햄릿>` stay readable in the raw file; `&` only where
  /// it starts a character reference (`&lt;`, `&#60;`), which a viewer would turn into
  /// `<` (issue 27), so `R&B` stays as it is.
  static func inline(_ text: String) -> String {
    if plain.isPlain(text) { return text }
    // Byte by byte (every character the rule looks at is ASCII, or one of a few fixed
    // sequences), kept bytes copied as they come.
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 8)
    var text = text
    text.withUTF8 { bytes in
      let n = bytes.count
      var previousWasBreak = false
      var i = 0
      while i < n {
        let b = bytes[i]
        var length = 1
        var lineBreak = false
        switch b {
        case 0x0A, 0x0D: lineBreak = true
        case UInt8(ascii: "\\"), UInt8(ascii: "|"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"),
          UInt8(ascii: "["), UInt8(ascii: "]"):
          out.append(UInt8(ascii: "\\"))
          out.append(b)
        case UInt8(ascii: "<"):
          // Escaped only before what could open an HTML tag.
          if i + 1 < n, opensTag(bytes[i + 1]) { out.append(UInt8(ascii: "\\")) }
          out.append(b)
        case UInt8(ascii: "&"):
          if startsReference(bytes, at: i) { out.append(UInt8(ascii: "\\")) }
          out.append(b)
        case 0x09: out.append(0x20)
        case 0x00..<0x20, 0x7F:
          // ESC, BEL and the like never reach the Markdown (or a terminal showing it).
          out += replacement
        case 0x80...:
          switch PlainText.sequence(bytes, at: i) {
          case (.unsafe, let size)?: out += replacement; length = size
          case (.separator, let size)?: lineBreak = true; length = size
          case nil: out.append(b)
          }
        default: out.append(b)
        }
        // CRLF is one break: one space.
        if lineBreak, !previousWasBreak { out.append(0x20) }
        previousWasBreak = lineBreak
        i += length
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// U+FFFD (``SafeText/replacement``) in UTF-8.
  private static let replacement: [UInt8] = Array(String(SafeText.replacement).utf8)

  /// Whether `<` before `next` could open an HTML tag (`<a`, `</`, `<!`, `<?`).
  private static func opensTag(_ next: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(next)
      || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
  }

  /// A text with none of these is inline text as it stands (``PlainText``).
  private static let plain = PlainText(special: "\\|*_`[]<&")

  /// Whether `bytes[i]` (an `&`) starts what CommonMark reads as a character
  /// reference: `&name;`, `&#digits;` or `&#xhex;` (all ASCII).
  private static func startsReference(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
    func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
    func isHex(_ b: UInt8) -> Bool {
      isDigit(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b)
    }
    func isLetter(_ b: UInt8) -> Bool {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
    }
    let n = bytes.count
    var j = i + 1
    var numeric = false
    if j < n, bytes[j] == UInt8(ascii: "#") {
      numeric = true
      j += 1
      if j < n, bytes[j] == UInt8(ascii: "x") || bytes[j] == UInt8(ascii: "X") { j += 1 }
    }
    let start = j
    while j < n, j - start < 32, numeric ? isHex(bytes[j]) : (isLetter(bytes[j]) || isDigit(bytes[j])) { j += 1 }
    return j > start && j < n && bytes[j] == UInt8(ascii: ";")
  }

  /// A link to `url` with `text`, or the text alone when the URL is not a page of the
  /// portal (``PortalLink``: no `javascript:` links, no other host, in a report). Spaces,
  /// parentheses and angle brackets in the URL are percent-encoded so the link cannot end
  /// early.
  static func link(_ text: String, url: String) -> String {
    let label = inline(text.isEmpty ? url : text)
    guard PortalLink.isProgramPage(url) else { return label }
    return "[\(label)](\(linkTarget(url)))"
  }

  /// A link target: the characters that would end a Markdown link early percent-encoded,
  /// line breaks, tabs and unsafe characters (``SafeText``) dropped (the page's links are
  /// the same addresses).
  static let linkTarget = ScalarEscaper(
    [" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E", "\r": "", "\n": "", "\t": ""],
    otherwise: { SafeText.isUnsafe($0) ? "" : nil })

  /// `+12`, `−3` (U+2212 minus, as in print), `0`.
  static func signed(_ n: Int) -> String {
    n > 0 ? "+" + n.formatted() : n < 0 ? "−" + (-n).formatted() : "0"
  }

  /// A share (0…1) as a percentage with one decimal, always shown: `24.7%`, `7.0%`
  /// (``Percentage``, the rule the workbook follows too).
  static func percent(_ fraction: Double) -> String { Percentage.text(fraction) }

  /// A change of shares in percentage points: `+1.2%p`, `−0.5%p`, `0.0%p`.
  static func signedPoints(_ fractionDelta: Double, suffix: String) -> String {
    Percentage.pointsText(fractionDelta, suffix: suffix)
  }
}

/// A GitHub-flavoured Markdown table whose every row has the header's column count.
struct MarkdownTable {
  enum Alignment { case left, right }

  var header: [String]
  var alignments: [Alignment]
  private(set) var rows: [[String]] = []

  init(_ columns: [(String, Alignment)]) {
    header = columns.map(\.0)
    alignments = columns.map(\.1)
  }

  /// Adds a row of plain text cells (escaped here); a short row is padded with empty
  /// cells and a long one cut, so the table never breaks.
  mutating func add(_ cells: [String]) {
    addMarkdown(cells.map(MarkdownText.inline))
  }

  /// Adds a row whose cells are already Markdown (links, bold totals).
  mutating func addMarkdown(_ cells: [String]) {
    rows.append(cells)
  }

  func render() -> String {
    var out = ""
    appendHeader(to: &out)
    for row in rows { append(row: row, to: &out) }
    return out
  }

  /// The header row and the alignment row.
  func appendHeader(to out: inout String) {
    out += "| " + header.map(MarkdownText.inline).joined(separator: " | ") + " |\n"
    out += "|" + alignments.map { $0 == .right ? "---:|" : "---|" }.joined() + "\n"
  }

  /// A row of Markdown cells, padded with empty cells or cut to the header's count, so
  /// the table never breaks.
  func append(row cells: [String], to out: inout String) {
    out += "| "
    for i in header.indices {
      if i > 0 { out += " | " }
      if i < cells.count { out += cells[i] }
    }
    out += " |\n"
  }
}
