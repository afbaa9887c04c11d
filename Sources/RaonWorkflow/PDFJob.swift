import Foundation
import RaonExport

/// The jobs' PDF post-step: the pages their writers queued, printed by one printer (one
/// browser for a report and all its district packs: one start per PDF cost most of a 25
/// packs' run) and written into the staged folder.
enum PDFJob {
  /// Prints `jobs` with `printer` (a report's browser, started with the run and closed by
  /// the report), or with a Chromium located in `variables`, started and closed here, when
  /// none is given; nothing when there are no jobs.
  ///
  /// - Throws: ``ChromiumPrinter/Error`` as it is; a PDF that cannot be written as
  ///   ``WorkflowError/outputNotWritable(path:reason:)`` naming the folder the user asked for.
  static func print(
    _ jobs: [PrintJob], with printer: (any Printer)? = nil, variables: [String: String],
    into staging: OutputPublisher.Staging
  ) throws {
    guard !jobs.isEmpty else { return }
    // Only whoever starts a browser closes it.
    var own: ChromiumSession?
    defer { own?.close() }
    let chosen: any Printer
    if let printer {
      chosen = printer
    } else {
      let session = try ChromiumPrinter.locate(in: variables).session()
      own = session
      chosen = session
    }
    do {
      try PDFPrinting.print(jobs, with: chosen)
    } catch let failure as PDFPrinting.Unwritable {
      throw ReportRendering.writeFailure(failure.error, writing: staging.folder, for: staging.target)
    }
  }
}
