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
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var previousWasBreak = false
    let scalars = Array(text.unicodeScalars)
    for (i, s) in scalars.enumerated() {
      switch s {
      case "\r", "\n", "\u{2028}", "\u{2029}":
        // CRLF is one break: one space.
        if !previousWasBreak { out.append(" ") }
        previousWasBreak = true
        continue
      case "\\", "|", "*", "_", "`", "[", "]":
        out.append("\\")
        out.unicodeScalars.append(s)
      case "<":
        let next = i + 1 < scalars.count ? scalars[i + 1] : " "
        if ("a"..."z").contains(next) || ("A"..."Z").contains(next) || next == "/" || next == "!"
          || next == "?"
        {
          out.append("\\")
        }
        out.unicodeScalars.append(s)
      case "&":
        if startsReference(scalars, at: i) { out.append("\\") }
        out.unicodeScalars.append(s)
      case "\t":
        out.append(" ")
      case _ where SafeText.isUnsafe(s):
        // ESC, BEL and the like never reach the Markdown (or a terminal showing it).
        out.unicodeScalars.append(SafeText.replacement)
      default:
        out.unicodeScalars.append(s)
      }
      previousWasBreak = false
    }
    return out
  }

  /// A text with none of these is inline text as it stands (``PlainText``).
  private static let plain = PlainText(special: "\\|*_`[]<&")

  /// Whether `scalars[i]` (an `&`) starts what CommonMark reads as a character
  /// reference: `&name;`, `&#digits;` or `&#xhex;`.
  private static func startsReference(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
    var j = i + 1
    var numeric = false
    if j < scalars.count, scalars[j] == "#" {
      numeric = true
      j += 1
      if j < scalars.count, scalars[j] == "x" || scalars[j] == "X" { j += 1 }
    }
    let start = j
    while j < scalars.count, j - start < 32, scalars[j].isASCII,
      numeric ? scalars[j].properties.isASCIIHexDigit : (scalars[j].properties.isAlphabetic || ("0"..."9").contains(scalars[j]))
    {
      j += 1
    }
    return j > start && j < scalars.count && scalars[j] == ";"
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
    var row = Array(cells.prefix(header.count))
    row += Array(repeating: "", count: header.count - row.count)
    rows.append(row)
  }

  func render() -> String {
    var out = "| " + header.map(MarkdownText.inline).joined(separator: " | ") + " |\n"
    out += "|" + alignments.map { $0 == .right ? "---:|" : "---|" }.joined() + "\n"
    for row in rows { out += "| " + row.joined(separator: " | ") + " |\n" }
    return out
  }
}
