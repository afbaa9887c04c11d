import RaonDocument

/// A ``Document`` as GitHub-flavoured Markdown: `#` the title, the front blocks, `##` each
/// section, then a rule and the closing line. Every text is escaped here
/// (``MarkdownText``); numbers carry thousands separators; charts are linked as
/// `charts/NAME.svg`, relative, so the folder can be moved, zipped or pushed to a repository.
///
/// ```swift
/// let markdown = MarkdownRenderer.render(report.document)
/// ```
enum MarkdownRenderer {
  static func render(_ document: Document) -> String {
    var md = "# \(MarkdownText.inline(document.title))\n\n"
    append(document.front, to: &md)
    for section in document.sections {
      md += "## \(MarkdownText.inline(section.title))\n\n"
      append(section.blocks, to: &md)
    }
    md += "---\n\n\(MarkdownText.inline(document.closing))\n"
    return md
  }

  /// Each block followed by an empty line.
  static func append(_ blocks: [Block], to md: inout String) {
    for block in blocks {
      switch block {
      case .heading(let text):
        md += "### " + inline(text) + "\n\n"
      case .paragraph(let text), .definitions(let text):
        md += inline(text) + "\n\n"
      case .byline(let text):
        md += inline(text) + "\n\n"
      case .attachments(let list):
        // The screen's document: every attachment is in it, so each item reads as itself.
        md += "**\(MarkdownText.inline(list.heading))**\n\n"
        for (n, item) in list.items.enumerated() {
          let end = n == list.items.count - 1 ? list.end.map { "  " + $0 } ?? "" : ""
          md += "\(item.number). " + MarkdownText.inline(item.text + end) + "\n"
        }
        md += "\n"
      case .list(let items):
        for item in items {
          md += "- " + inline(item.content) + "\n"
          for child in item.children { md += "  - " + inline(child) + "\n" }
        }
        md += "\n"
      case .table(let table):
        md += render(table) + "\n"
      case .programs(let list):
        append(list, to: &md)
        md += "\n"
      case .chart(let chart):
        md += "![\(MarkdownText.inline(chart.alt))](\(chart.path))\n\n"
        if let note = chart.note { md += MarkdownText.inline(note) + "\n\n" }
      }
    }
  }

  static func inline(_ parts: [Inline]) -> String {
    var out = ""
    for part in parts { out += inline(part) }
    return out
  }

  static func inline(_ part: Inline) -> String {
    switch part {
    case .text(let s): return MarkdownText.inline(s)
    case .strong(let s): return "**\(MarkdownText.inline(s))**"
    case .code(let s): return "`\(s)`"
    case .link(let text, let url): return MarkdownText.link(text, url: url)
    }
  }

  static func cell(_ cell: Cell) -> String {
    switch cell {
    case .link(let part): return inline(part)
    case .strong(let inner): return "**\(self.cell(inner))**"
    default: return MarkdownText.inline(cell.text)
    }
  }

  static func render(_ table: Table) -> String {
    var out = MarkdownTable(table.columns.map { ($0.header, $0.alignment == .right ? .right : .left) })
    for row in table.rows { out.addMarkdown(row.map(cell)) }
    return out.render()
  }

  static func render(_ list: ProgramTable) -> String {
    var out = ""
    append(list, to: &out)
    return out
  }

  /// A list of programs, row by row straight into `md`: a whole catalog's list is the
  /// largest part of the file (125,000 rows in a week of a million programs), and holding
  /// its cells as a table first was the Markdown's peak memory.
  static func append(_ list: ProgramTable, to md: inout String) {
    let table = MarkdownTable(list.columns.map { ($0.header, .left) })
    table.appendHeader(to: &md)
    for p in list.programs { table.append(row: list.cells(of: p).map(cell), to: &md) }
  }
}
