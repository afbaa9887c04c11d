import Foundation
import RaonDocument

/// Writes `report.pdf` (and for `raon diff` `changes.pdf`): the page of ``HTMLReportWriter``,
/// printed on A4 by a ``Printer``.
///
/// A renderer like the others, except that the printing is a post-step: it queues the page
/// in ``ExportResult/printing`` (the registry's ``ReportFormat/render(_:_:into:options:page:)``
/// takes it from the HTML's render when html is written too), and the job prints every page of its run
/// with one printer (``PDFPrinting``), so only the PDF lands in the output folder when html
/// was not asked for, and a report's pages and its district packs' share one browser.
public struct PDFReportWriter: ReportWriter {
  public static let fileName = "report.pdf"
  public static let comparisonFileName = "changes.pdf"

  public init() {}

  /// Queues `report.pdf` or `changes.pdf`: listed as written, printed by the post-step.
  public func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    HTMLReportWriter().page(document).map { Self.queue($0, in: directory) } ?? ExportResult()
  }

  /// Queues the PDF of `page` (`report.pdf` for `report.html`, `changes.pdf` for
  /// `changes.html`): listed as written, printed by the post-step.
  public static func queue(_ page: HTMLPage, in directory: URL) -> ExportResult {
    let name = page.name == HTMLPage.comparisonName ? comparisonFileName : fileName
    return ExportResult(
      files: [name], printing: [PrintJob(html: page.html, destination: directory.appendingPathComponent(name))])
  }
}
