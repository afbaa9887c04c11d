import Foundation
import RaonDocument

/// Writes `report.html`, and for `raon diff` `changes.html`: the document as one
/// self-contained page, rendered from its value (``HTMLRenderer``), not from the Markdown.
///
/// The page has every section the Markdown has and no content of its own: each chart's SVG
/// inline, tables wrapped so a phone can scroll them, the style sheet (``HTMLStyle``)
/// inlined. The only links out are the document's (the portal's program pages); there is
/// no script and no file or network reference, so the file can be mailed, opened offline
/// or printed (A4), and every printed page carries the title, the period and `- n -`
/// (``PrintHeader``). One render serves `report.html` and `report.pdf`
/// (``ReportFormat/render(_:_:into:options:page:)``).
///
/// ```swift
/// let html = HTMLReportWriter().render(report.document)
/// ```
public struct HTMLReportWriter: TextRenderer {
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
  public func render(_ document: Document) -> String { Self.html(document) }

  /// The whole page: the head with the style sheet and the print header, then the
  /// document (``HTMLRenderer``).
  static func html(_ document: Document) -> String {
    let header = PrintHeader(title: document.printTitle, period: document.period)
    let title = SVGBarChart.escape("\(header.title) — \(header.period)")
    var page = """
      <!DOCTYPE html>
      <html lang="\(document.language.rawValue)">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>\(title)</title>
      <style>
      \(HTMLStyle.css)
      \(header.css)\(Self.hasPageOneHead(document) ? "\n" + Self.pageOneCSS : "")
      </style>
      </head>
      <body>
      <main>

      """
    HTMLRenderer(layout: .page).append(document, to: &page)
    page += "\n</main>\n</body>\n</html>\n"
    return page
  }

  /// Whether the document's front is a weekly report's page 1, with its byline and 붙임
  /// (a comparison's or a trend's page keeps its style sheet as it was).
  static func hasPageOneHead(_ document: Document) -> Bool {
    document.front.contains {
      switch $0 {
      case .byline, .attachments: return true
      default: return false
      }
    }
  }

  /// Page 1's byline to the right, as an office sets it, and its 붙임 as a list whose
  /// numbers and wrapped lines align; an item paper does not carry shows its printed words
  /// on paper only.
  static let pageOneCSS = """
    p.byline { text-align: right; margin: 0 0 1rem; }
    .attachments { display: flex; gap: 0.8em; margin: 1rem 0 0.5rem; }
    .attachments > strong { flex: none; }
    .attachments ol { list-style: none; margin: 0; padding: 0; }
    .attachments li { display: flex; gap: 0.35em; margin: 0; }
    .attachments li > .n { flex: none; min-width: 1.3em; text-align: right; }
    .print-text { display: none; }
    @media print {
      .print-text { display: inline; }
      .screen-text { display: none; }
      .attachments { break-inside: avoid; font-size: 9.5pt; line-height: 1.3; margin: 2mm 0 1mm; }
      p.byline { margin: -1mm 0 2mm; }
      /* The 붙임, one a line, share page 1 with the chart: the chart gives up a sixth of
         its height (its labels still print at 7.5 pt or more). */
      main > .chart svg, main > .chart-block .chart svg { max-height: 72mm; }
    }
    """

  /// What every printed page carries: the document's title (with the district of a pack)
  /// at the top left, the period at the top right, `- n -` at the foot (CSS page-margin
  /// boxes, which Chromium prints). Page 1 opens with the title and the period themselves,
  /// so its header is left blank rather than said twice.
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
      @page :first { @top-left { content: none; } @top-right { content: none; } }
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
