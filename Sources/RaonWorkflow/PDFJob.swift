import Foundation
import RaonExport

/// The jobs' PDF post-step: the pages their writers queued, printed by one Chromium
/// session (one browser for a report and all its district packs: one start per PDF cost
/// most of a 25 packs' run) and written into the staged folder.
enum PDFJob {
  /// Prints `jobs` with a Chromium located in `variables`; nothing when there are none.
  ///
  /// - Throws: ``ChromiumPrinter/Error`` as it is; a PDF that cannot be written as
  ///   ``WorkflowError/outputNotWritable(path:reason:)`` naming the folder the user asked for.
  static func print(_ jobs: [PrintJob], variables: [String: String], into staging: OutputPublisher.Staging)
    throws
  {
    guard !jobs.isEmpty else { return }
    let session = try ChromiumPrinter.locate(in: variables).session()
    defer { session.close() }
    do {
      try PDFPrinting.print(jobs, with: session)
    } catch let failure as PDFPrinting.Unwritable {
      throw ReportWriting.writeFailure(failure.error, writing: staging.folder, for: staging.target)
    }
  }
}
