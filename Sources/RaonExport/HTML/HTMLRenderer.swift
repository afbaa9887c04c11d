import RaonDocument

/// A ``Document`` as HTML, block by block, straight from its value (no Markdown in
/// between): every text escaped (``HTMLText``), each chart's SVG inline in a
/// `<figure class="chart">`, each table in a scrolling box (a list of programs marked
/// `stack`, its cells labelled with their column's header, so a phone shows each row as a
/// card), the only links the document's own (the portal's program pages).
///
/// As a page (``Layout/page``) each section is a `<section id="sN">`, linked from a row of
/// contents under the title, and each part (a `###` heading and what follows it) a
/// `<div class="part">`, which print keeps on one page when it fits; a section too long for
/// paper is shown on screen only, a note printed in its place, and a section for the
/// screen only (``Section/Destination/screen``) is not printed at all. As a fragment
/// (``Layout/fragment``, the site's trend page) the headings stand as they are.
///
/// ```swift
/// var html = ""
/// HTMLRenderer(layout: .page).append(document, to: &html)
/// ```
struct HTMLRenderer {
  enum Layout {
    case page
    case fragment
  }

  var layout: Layout

  init(layout: Layout) {
    self.layout = layout
  }

  /// The document's body: the title, the contents row, the front blocks, the sections, the
  /// closing rule and line.
  func append(_ document: Document, to out: inout String) {
    out += "<h1>"
    HTMLText.append(document.title, to: &out)
    out += "</h1>"
    if layout == .page, document.sections.count > 2 {
      out += "<nav class=\"toc\"><ol>"
      for (n, section) in document.sections.enumerated() {
        out += "<li><a href=\"#s\(n + 1)\">"
        HTMLText.append(section.title, to: &out)
        out += "</a></li>"
      }
      out += "</ol></nav>"
    }
    append(document.front, to: &out)
    for (n, section) in document.sections.enumerated() {
      switch layout {
      case .page:
        let id = "s\(n + 1)"
        // A section for the screen only is left out of print whole; one too long for paper
        // prints its heading and a note.
        out +=
          !section.isPrinted
          ? "<section id=\"\(id)\" class=\"no-print\">"
          : section.printNote == nil ? "<section id=\"\(id)\">" : "<section id=\"\(id)\" class=\"screen-only\">"
        out += "<div class=\"keep\"><h2>"
        HTMLText.append(section.title, to: &out)
        out += "</h2>"
        if let note = section.printNote { out += "<p class=\"print-only\">\(SVGBarChart.escape(note))</p>" }
        append(section.blocks, to: &out, keepingFirst: true)
        out += "</section>\n"
      case .fragment:
        out += "<h2>"
        HTMLText.append(section.title, to: &out)
        out += "</h2>"
        append(section.blocks, to: &out)
      }
    }
    out += "<hr><p>"
    HTMLText.append(document.closing, to: &out)
    out += "</p>"
  }

  /// `blocks`; on a page, each heading opens a part that runs to the next heading, and a
  /// heading is kept with the paragraphs after it and the chart they lead to
  /// (``keepsWithHeading(_:)``).
  ///
  /// - Parameter keepingFirst: The caller opened a `keep` box (a section's heading) that the
  ///   first block joins when it can.
  func append(_ blocks: [Block], to out: inout String, keepingFirst: Bool = false) {
    var inPart = false
    var keeping = keepingFirst
    for block in blocks {
      if case .heading(let text) = block {
        if keeping { out += "</div>" }
        if inPart { out += "</div>" }
        inPart = layout == .page
        if inPart { out += "<div class=\"part\">" }
        keeping = inPart
        if keeping { out += "<div class=\"keep\">" }
        out += "<h3>"
        append(text, to: &out)
        out += "</h3>"
        continue
      }
      if keeping, !Self.keepsWithHeading(block) {
        out += "</div>"
        keeping = false
      }
      append(block, to: &out)
      // A paragraph leading to a chart (the trend's explanation) stays in the box too.
      if keeping, !Self.isParagraph(block) {
        out += "</div>"
        keeping = false
      }
    }
    if keeping { out += "</div>" }
    if inPart { out += "</div>" }
  }

  /// Whether print keeps `block` on the page of the heading before it: a paragraph or a
  /// chart with its note, yes; a list or a table, which may run over pages, follows its
  /// heading by `break-after: avoid` instead (keeping it whole left half-empty pages).
  static func isParagraph(_ block: Block) -> Bool {
    if case .paragraph = block { return true }
    return false
  }

  static func keepsWithHeading(_ block: Block) -> Bool {
    switch block {
    case .paragraph, .chart, .byline, .attachments, .definitions: return true
    case .heading, .list, .table, .programs: return false
    }
  }

  func append(_ block: Block, to out: inout String) {
    switch block {
    case .heading(let text):
      out += "<h3>"
      append(text, to: &out)
      out += "</h3>"
    case .paragraph(let text):
      out += "<p>"
      append(text, to: &out)
      out += "</p>"
    case .definitions(let text):
      out += "<p class=\"definitions\">"
      append(text, to: &out)
      out += "</p>"
    case .byline(let text):
      out += "<p class=\"byline\">"
      append(text, to: &out)
      out += "</p>"
    case .attachments(let list):
      Self.append(list, to: &out)
    case .list(let items):
      out += "<ul>"
      for item in items {
        out += "<li>"
        append(item.content, to: &out)
        if !item.children.isEmpty {
          out += "<ul>"
          for child in item.children {
            out += "<li>"
            append(child, to: &out)
            out += "</li>"
          }
          out += "</ul>"
        }
        out += "</li>"
      }
      out += "</ul>"
    case .table(let table):
      Self.append(columns: table.columns, rows: table.rows, to: &out)
    case .programs(let list):
      Self.append(columns: list.columns, rows: list.programs.lazy.map(list.cells(of:)), to: &out)
    case .chart(let chart):
      // Raon's charts are whole `<svg>` elements with no ids (no two can clash on a page):
      // only the file's final line break goes.
      var svg = SVGChart.draw(chart)
      if svg.hasSuffix("\n") { svg.removeLast() }
      // The chart and its note print on one page.
      let kind: String
      switch chart.content {
      case .bars: kind = "bars"
      case .lines: kind = "lines"
      }
      out += "<div class=\"chart-block \(kind)\"><figure class=\"chart\">" + svg + "</figure>"
      if let note = chart.note {
        out += "<p>"
        HTMLText.append(note, to: &out)
        out += "</p>"
      }
      out += "</div>"
    }
  }

  /// Page 1's 붙임: the heading beside a list whose numbers and lines align under each
  /// other (each wrapped line hangs under its text); an item paper does not carry reads,
  /// printed, as the file that stands in for it; `끝.` ends the last item. The numbers are
  /// text, not list markers, so a PDF's text says them.
  static func append(_ list: AttachmentList, to out: inout String) {
    out += "<div class=\"attachments\"><strong>"
    HTMLText.append(list.heading, to: &out)
    out += "</strong><ol>"
    for (n, item) in list.items.enumerated() {
      out += "<li><span class=\"n\">\(item.label)</span><span>"
      if let printed = item.printText {
        out += "<span class=\"screen-text\">"
        HTMLText.append(item.text, to: &out)
        out += "</span><span class=\"print-text\">"
        HTMLText.append(printed, to: &out)
        out += "</span>"
      } else {
        HTMLText.append(item.text, to: &out)
      }
      if n == list.items.count - 1, let end = list.end {
        out += "\u{00A0}\u{00A0}"
        HTMLText.append(end, to: &out)
      }
      out += "</span></li>"
    }
    out += "</ol></div>"
  }

  func append(_ text: [Inline], to out: inout String) {
    for part in text {
      switch part {
      case .text(let s):
        HTMLText.append(s, to: &out)
      case .strong(let s):
        out += "<strong>"
        HTMLText.append(s, to: &out)
        out += "</strong>"
      case .code(let s):
        out += "<code>"
        HTMLText.append(s, to: &out)
        out += "</code>"
      case .link(let s, let url):
        out += "<a href=\""
        HTMLText.append(MarkdownText.linkTarget(url), to: &out)
        out += "\">"
        HTMLText.append(s, to: &out)
        out += "</a>"
      }
    }
  }

  // MARK: - Tables

  /// A table in its scrolling box. A list (five columns or more, three of them text) is
  /// `stack`ed: each cell carries its column's header, for the phone's cards.
  static func append(columns: [Table.Column], rows: some Sequence<[Cell]>, to out: inout String) {
    let headers = columns.map { HTMLText.escape($0.header) }
    let stack = columns.count >= 5 && columns.filter { $0.alignment == .left }.count >= 3
    out += stack ? "<div class=\"table-wrap\"><table class=\"stack\">" : "<div class=\"table-wrap\"><table>"
    // Columns with a print weight share the printed width in proportion (a fixed layout
    // on paper: a long place or fee wraps in its column rather than squeezing the title).
    let weights = columns.compactMap(\.printWeight)
    if weights.count == columns.count, let total = Optional(weights.reduce(0, +)), total > 0 {
      out += "<colgroup>"
      for w in weights { out += "<col style=\"width:\(w * 100 / total)%\">" }
      out += "</colgroup>"
    }
    out += "<thead><tr>"
    for (column, header) in zip(columns, headers) {
      out += column.alignment == .right ? "<th align=\"right\">" : "<th>"
      out += header
      out += "</th>"
    }
    out += "</tr></thead>"
    // Each column's opening tag, made once rather than once per cell.
    let openings = columns.indices.map { i in
      var tag = "<td"
      if stack { tag += " data-label=\"\(headers[i])\"" }
      if columns[i].keepsCellsWhole { tag += " class=\"name\"" }
      return tag + (columns[i].alignment == .right ? " align=\"right\">" : ">")
    }
    var any = false
    for row in rows {
      if !any { out += "<tbody>" }
      any = true
      out += "<tr>"
      for i in columns.indices {
        out += openings[i]
        if i < row.count { append(row[i], to: &out) }
        out += "</td>"
      }
      out += "</tr>"
    }
    if any { out += "</tbody>" }
    out += "</table></div>"
  }

  static func append(_ cell: Cell, to out: inout String) {
    switch cell {
    case .link(let inline): HTMLRenderer(layout: .fragment).append([inline], to: &out)
    case .strong(let inner):
      out += "<strong>"
      append(inner, to: &out)
      out += "</strong>"
    default: HTMLText.append(cell.text, to: &out)
    }
  }
}
