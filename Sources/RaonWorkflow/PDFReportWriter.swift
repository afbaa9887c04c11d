import Foundation
import RaonAnalytics
import RaonCore
import RaonExport

/// Writes `report.pdf` (and for `raon diff` `changes.pdf`): `report.html`, printed by a
/// headless Chromium (``ChromiumPrinter``) on A4.
///
/// The HTML is rendered again here and printed from a temporary folder, so only the PDF
/// lands in the report folder when html was not asked for. It lives in RaonWorkflow, not
/// RaonExport, because it runs a program. Given a ``ChromiumSession`` (a report and its
/// district packs share one), it prints with that browser; otherwise with one of its own.
public struct PDFReportWriter: ReportWriter {
  public var outputEntries: Set<String> { ["report.pdf", "changes.pdf"] }
  /// Where Chromium is looked for (`RAON_CHROMIUM`, `PATH`).
  public var variables: [String: String]
  /// The printer to use; when `nil`, one is located in ``variables`` at write time.
  public var printer: ChromiumPrinter?
  public var html: HTMLReportWriter
  /// The browser to print with, shared by the writers of one run; its owner closes it.
  var session: ChromiumSession?

  public init(
    variables: [String: String] = ProcessInfo.processInfo.environment, printer: ChromiumPrinter? = nil,
    html: HTMLReportWriter = HTMLReportWriter()
  ) {
    self.variables = variables
    self.printer = printer
    self.html = html
  }

  init(session: ChromiumSession) {
    self.init(printer: session.printer)
    self.session = session
  }

  public func write(_ report: ReportData, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    let printer = try self.printer ?? ChromiumPrinter.locate(in: variables)
    try print(try html.render(report, options: options), as: "report.pdf", into: directory, with: printer)
    return ExportResult(files: ["report.pdf"])
  }

  public func writeComparison(
    _ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, into directory: URL,
    options: ExportOptions
  ) throws -> ExportResult {
    let printer = try self.printer ?? ChromiumPrinter.locate(in: variables)
    let page = html.renderComparison(diff, from: from, to: to, options: options)
    try print(page, as: "changes.pdf", into: directory, with: printer)
    return ExportResult(files: ["changes.pdf"])
  }

  private func print(_ page: String, as name: String, into directory: URL, with printer: ChromiumPrinter)
    throws
  {
    let session = self.session ?? printer.session()
    defer { if self.session == nil { session.close() } }
    let pdf = try session.print(html: page, name: name)
    try OutputDirectories.create(directory)
    try pdf.write(to: directory.appendingPathComponent(name))
  }
}
