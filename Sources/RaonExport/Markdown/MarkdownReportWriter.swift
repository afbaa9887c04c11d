import Foundation
import RaonDocument

/// Writes a document as Markdown: `report.md` with its SVG charts in `charts/` beside it,
/// `changes.md` for `raon diff`, `trend.md` with `charts/trend.svg` for `raon trend`.
///
/// The text is the document's, rendered by ``MarkdownRenderer``; each chart is drawn from
/// its description (``SVGChart``) and linked relatively.
public struct MarkdownReportWriter: TextRenderer {
  public init() {}

  public func files(for document: ReportDocument, options: ExportOptions) throws -> [OutputFile] {
    let name: String
    switch document {
    case .report: name = "report.md"
    case .comparison: name = "changes.md"
    case .trend: name = TrendWriters.markdownFileName
    }
    let text = document.document
    return [OutputFile(name, MarkdownRenderer.render(text))]
      + text.charts.map { OutputFile($0.path, SVGChart.draw($0)) }
  }
}
