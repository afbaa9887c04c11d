import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// Writes `report.html`, and for `raon diff` `changes.html`: the Markdown report as one
/// self-contained page.
///
/// The page is built from ``MarkdownReportWriter/render(_:options:)``, so it has every
/// section the Markdown has and no content of its own: the Markdown goes through Ink
/// (``MarkdownHTML``), each `<img src="charts/….svg">` is replaced by that chart's SVG
/// (``InlineSVG``: no prolog, ids prefixed per chart), tables are wrapped so a phone can
/// scroll them, and the style sheet (``HTMLStyle``) is inlined. The only links out are the
/// Markdown's own (the portal's program pages); there is no script and no file or network
/// reference, so the file can be mailed, opened offline or printed (A4). Each `##` section
/// is a `<section>`, linked from a row of contents under the title.
///
/// ```swift
/// let html = try HTMLReportWriter().render(report, options: ExportOptions(language: .en))
/// ```
public struct HTMLReportWriter: TextRenderer {
  public var outputEntries: Set<String> { [HTMLPage.reportName, HTMLPage.comparisonName] }

  public init() {}

  /// `report.html` or `changes.html` (the trend has no page of its own).
  public func files(for document: ReportDocument, options: ExportOptions) throws -> [OutputFile] {
    page(document).map { [$0.file] } ?? []
  }

  /// Writes `page` into `directory` as its file.
  public static func write(_ page: HTMLPage, into directory: URL) throws -> ExportResult {
    try TextOutput.write([page.file], into: directory)
  }

  /// The page of `document`, or `nil` for the trend, which has none of its own (the
  /// weekly report's page carries it).
  public func page(_ document: ReportDocument) -> HTMLPage? {
    switch document {
    case .report(let report):
      return HTMLPage(name: HTMLPage.reportName, html: render(report.document))
    case .comparison(let comparison):
      return HTMLPage(name: HTMLPage.comparisonName, html: render(comparison.document))
    case .trend:
      return nil
    }
  }

  // MARK: - Documents (pure)

  /// The page of `document`, without touching the file system.
  public func render(_ document: Document) -> String {
    let header = PrintHeader(title: document.printTitle, period: document.period)
    let charts = document.charts.map { (path: $0.path, svg: SVGChart.draw($0)) }
    let page = Self.page(
      markdown: MarkdownRenderer.render(document), charts: charts, language: document.language, header: header)
    // A section too long for paper (the city's running list) names where it is instead.
    guard let (index, note) = document.sections.enumerated().lazy.compactMap({ n, s in s.printNote.map { (n, $0) } }).first
    else { return page }
    return Self.printingNote(note, inSection: "s\(index + 1)", of: consume page)
  }

  /// A whole page from Markdown and the charts it links to (paths as the Markdown has
  /// them). An image that is none of the charts is replaced by its alt text, so the page
  /// never refers to a file.
  static func page(
    markdown: consuming String, charts: [(path: String, svg: String)], language: ReportLanguage,
    header: PrintHeader
  ) -> String {
    // Each step copies the page once; none holds more than its input and its output (a
    // million programs' page is ~80 MB, its Markdown ~47 MB).
    var body = MarkdownHTML.fragment(markdown)
    _ = consume markdown
    body = inlineCharts(body, charts: charts)
    body = wrapTables(body)
    body = groupParts(demoteLaterTitles(body))
    let (withAnchors, sections) = anchorSections(consume body)
    let title = SVGBarChart.escape("\(header.title) — \(header.period)")
    let head = """
      <!DOCTYPE html>
      <html lang="\(language.rawValue)">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>\(title)</title>
      <style>
      \(HTMLStyle.css)
      \(header.css)
      </style>
      </head>
      <body>
      <main>

      """
    var page = head
    page.reserveCapacity(head.utf8.count + withAnchors.utf8.count + 4096)
    appendContents(sections, of: withAnchors, to: &page)
    page += "\n</main>\n</body>\n</html>\n"
    return page
  }

  /// Marks section `id` as shown on screen only, with `note` printed in its place under
  /// its heading.
  static func printingNote(_ note: String, inSection id: String, of html: consuming String) -> String {
    guard let start = html.firstRange(ofMarkup: "<section id=\"\(id)\">"),
      let heading = html[start.upperBound...].firstRange(ofMarkup: "</h2>")
    else { return html }
    var marked = "<section id=\"\(id)\" class=\"screen-only\">"
    marked += html[start.upperBound..<heading.upperBound]
    marked += "<p class=\"print-only\">\(SVGBarChart.escape(note))</p>"
    // In place, as the page is handed over and has room (``page(markdown:charts:language:header:)``
    // leaves some): no second copy of a large page.
    html.replaceSubrange(start.lowerBound..<heading.upperBound, with: marked)
    return html
  }

  /// What every printed page carries: the document's title (with the district of a pack)
  /// at the top left, the period at the top right, `- n -` at the foot (CSS page-margin
  /// boxes, which Chromium prints).
  struct PrintHeader {
    var title: String
    var period: String

    var css: String {
      """
      @page {
        @top-left { content: \(Self.cssString(title)); \(Self.marginFont) }
        @top-right { content: \(Self.cssString(period)); \(Self.marginFont) }
        @bottom-center { content: "- " counter(page) " -"; \(Self.marginFont) }
      }
      """
    }

    static let marginFont =
      "font-family: \(HTMLStyle.fontStack); font-size: 8pt; color: #444c56; vertical-align: bottom;"

    /// Text as a CSS string: quotes and backslashes escaped, line breaks and `<` (which
    /// could close the style element) as code points.
    static func cssString(_ text: String) -> String {
      var out = "\""
      for s in text.unicodeScalars {
        switch s {
        case "\"", "\\": out += "\\" + String(s)
        case "<", ">", "&": out += "\\" + String(s.value, radix: 16) + " "
        case _ where s.value < 0x20 || s.value == 0x7F: out += " "
        default: out.unicodeScalars.append(s)
        }
      }
      return out + "\""
    }
  }

  // MARK: - Steps

  /// Replaces each `<img src="PATH" alt="…"/>` whose path is a chart by a `<figure>`
  /// holding the chart's SVG; other images by their alt text.
  static func inlineCharts(_ html: String, charts: [(path: String, svg: String)]) -> String {
    var out = ""
    out.reserveCapacity(html.utf8.count + charts.reduce(0) { $0 + $1.svg.utf8.count })
    var rest = Substring(html)
    var number = 0
    while let start = rest.firstRange(ofMarkup: "<img ") {
      out += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].firstRange(ofMarkup: ">") else {
        rest = rest[start.lowerBound...]
        break
      }
      let tag = rest[start.lowerBound..<end.upperBound]
      let src = attribute("src", in: tag) ?? ""
      let alt = attribute("alt", in: tag) ?? ""
      if let chart = charts.first(where: { $0.path == src }) {
        number += 1
        out += "<figure class=\"chart\">"
        out += InlineSVG.embed(chart.svg, idPrefix: "chart\(number)-")
        out += "</figure>"
      } else {
        out += alt
      }
      rest = rest[end.upperBound...]
    }
    out += rest
    return out
  }

  /// The value of `name="…"` in one tag, as written (entities kept).
  static func attribute(_ name: String, in tag: Substring) -> String? {
    guard let start = tag.firstRange(ofMarkup: " \(name)=\"") else { return nil }
    let after = tag[start.upperBound...]
    guard let end = after.firstIndex(of: "\"") else { return nil }
    return String(after[..<end])
  }

  /// Each table in a scrolling box, so a wide table scrolls on a phone instead of
  /// widening the page; a list of programs (three or more text columns) is marked
  /// `stack`, its cells labelled with their column's header, so a phone shows each row as
  /// a card.
  static func wrapTables(_ html: String) -> String {
    var out = ""
    // The wrappers and a list's cell labels add about a fifth.
    out.reserveCapacity(html.utf8.count + html.utf8.count / 4)
    var rest = Substring(html)
    while let start = rest.firstRange(ofMarkup: "<table>"), let end = rest[start.upperBound...].firstRange(ofMarkup: "</table>") {
      out += rest[..<start.lowerBound]
      let table = rest[start.lowerBound..<end.upperBound]
      out += "<div class=\"table-wrap\">" + stackable(table) + "</div>"
      rest = rest[end.upperBound...]
    }
    out += rest
    return out
  }

  /// `table` as it is, or with class `stack` and `data-label`s when it is a list.
  static func stackable(_ table: Substring) -> String {
    guard let head = table.firstRange(ofMarkup: "<thead>"), let headEnd = table.firstRange(ofMarkup: "</thead>") else {
      return String(table)
    }
    let header = table[head.upperBound..<headEnd.lowerBound]
    let cells = header.components(separatedByMarkup: "<th").dropFirst()
    let labels = cells.map { cell -> String in
      // `<th align="right">Label</th>` without `<th`: the text after the tag's `>`.
      let inner = cell.firstIndex(of: ">").map { cell[cell.index(after: $0)...] } ?? ""
      return stripTags(inner.components(separatedByMarkup: "</th").first.map(String.init) ?? "")
    }
    let textColumns = cells.filter { !$0.hasPrefix(" align=\"right\"") }.count
    guard labels.count >= 5, textColumns >= 3 else { return String(table) }
    var out = "<table class=\"stack\">" + table[table.index(table.startIndex, offsetBy: 7)..<headEnd.upperBound]
    for row in table[headEnd.upperBound...].components(separatedByMarkup: "<tr>").enumerated() {
      if row.offset > 0 { out += "<tr>" }
      var column = 0
      var text = Substring(row.element)
      while let td = text.firstRange(ofMarkup: "<td") {
        out += text[..<td.upperBound]
        if column < labels.count { out += " data-label=\"\(labels[column])\"" }
        column += 1
        text = text[td.upperBound...]
      }
      out += text
    }
    return out
  }

  /// Puts every `<h2>` and what follows it, up to the next, in a `<section id="sN">`
  /// (`s1`, `s2`, …: what the contents row links to, and what print keeps on one page
  /// when it fits), and returns the sections' titles (HTML).
  static func anchorSections(_ html: String) -> (String, [(id: String, title: String)]) {
    var out = ""
    out.reserveCapacity(html.utf8.count + 4096)
    var sections: [(id: String, title: String)] = []
    var rest = Substring(html)
    while let start = rest.firstRange(ofMarkup: "<h2>") {
      out += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].firstRange(ofMarkup: "</h2>") else {
        rest = rest[start.lowerBound...]
        break
      }
      if !sections.isEmpty { out += "</section>\n" }
      let id = "s\(sections.count + 1)"
      let title = String(rest[start.upperBound..<end.lowerBound])
      sections.append((id, title))
      out += "<section id=\"\(id)\"><h2>\(title)</h2>"
      rest = rest[end.upperBound...]
    }
    // The attribution after the last section's rule stays outside it.
    if !sections.isEmpty, let rule = rest.lastRange(ofMarkup: "<hr>") {
      out += rest[..<rule.lowerBound] + "</section>\n" + rest[rule.lowerBound...]
    } else {
      out += rest
      if !sections.isEmpty { out += "</section>" }
    }
    return (out, sections)
  }

  /// Every `<h1>` after the first as an `<h2>`: a later title (the whole-catalog part,
  /// "전체 카탈로그") opens a section of its own instead of trailing the previous section's
  /// last part, so print keeps it with what follows and the contents row links to it.
  static func demoteLaterTitles(_ html: String) -> String {
    guard let first = html.firstRange(ofMarkup: "</h1>") else { return html }
    let rest = html[first.upperBound...]
      .replacing(markup: "<h1>", with: "<h2>")
      .replacing(markup: "</h1>", with: "</h2>")
    return String(html[..<first.upperBound]) + rest
  }

  /// Puts every `<h3>` and what follows it, up to the next `<h3>`, `<h2>` or `<hr>`, in a
  /// `<div class="part">`, which print keeps on one page when it fits (a chart with its
  /// table, a list with its heading).
  static func groupParts(_ html: String) -> String {
    var out = ""
    out.reserveCapacity(html.utf8.count + html.utf8.count / 64 + 4096)
    var rest = Substring(html)
    var open = false
    while let next = ["<h3>", "<h2>", "<hr>"].compactMap({ rest.firstRange(ofMarkup: $0) })
      .min(by: { $0.lowerBound < $1.lowerBound })
    {
      out += rest[..<next.lowerBound]
      if open { out += "</div>" }
      open = rest[next] == "<h3>"
      if open { out += "<div class=\"part\">" }
      out += rest[next]
      rest = rest[next.upperBound...]
    }
    out += rest
    if open { out += "</div>" }
    return out
  }

  /// Appends `html` to `out` with a row of links to the sections after the first heading
  /// (hidden in print).
  static func appendContents(_ sections: [(id: String, title: String)], of html: String, to out: inout String) {
    guard sections.count > 2, let h1 = html.firstRange(ofMarkup: "</h1>") else { return out += html }
    var nav = "<nav class=\"toc\"><ol>"
    for s in sections { nav += "<li><a href=\"#\(s.id)\">\(stripTags(s.title))</a></li>" }
    nav += "</ol></nav>"
    out += html[..<h1.upperBound]
    out += nav
    out += html[h1.upperBound...]
  }

  /// The text of the first `<h1>`, tags removed (entities kept: it is HTML already).
  static func firstHeading(_ html: String) -> String? {
    guard let start = html.firstRange(ofMarkup: "<h1>"), let end = html[start.upperBound...].firstRange(ofMarkup: "</h1>")
    else { return nil }
    return stripTags(String(html[start.upperBound..<end.lowerBound]))
  }

  static func stripTags(_ html: String) -> String {
    var out = ""
    var inTag = false
    for c in html {
      if c == "<" { inTag = true } else if c == ">" && inTag { inTag = false } else if !inTag { out.append(c) }
    }
    return out
  }
}

/// A rendered page and the name of its file: what `report.html` holds and what the PDF
/// post-step prints, rendered once for both.
public struct HTMLPage: Sendable {
  public static let reportName = "report.html"
  public static let comparisonName = "changes.html"

  /// `report.html` or `changes.html`.
  public var name: String
  public var html: String

  public init(name: String, html: String) {
    self.name = name
    self.html = html
  }
  /// The page as the file it is written as.
  var file: OutputFile { OutputFile(name, html) }
}
