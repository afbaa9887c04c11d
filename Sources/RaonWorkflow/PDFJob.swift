import Foundation
import RaonExport

/// The jobs' PDF post-step: the pages their writers queued, printed by one Chromium
/// session (one browser for a report and all its district packs: one start per PDF cost
/// most of a 25 packs' run) and written into the staged folder.
enum PDFJob {
  /// Prints `jobs` with `session` (a report starts it with the run), or with a Chromium
  /// located in `variables` when none is given, then closes the browser; nothing when there
  /// are no jobs.
  ///
  /// - Throws: ``ChromiumPrinter/Error`` as it is; a PDF that cannot be written as
  ///   ``WorkflowError/outputNotWritable(path:reason:)`` naming the folder the user asked for.
  static func print(
    _ jobs: [PrintJob], with session: ChromiumSession? = nil, variables: [String: String],
    into staging: OutputPublisher.Staging
  ) throws {
    guard !jobs.isEmpty else { return }
    let session = try session ?? ChromiumPrinter.locate(in: variables).session()
    defer { session.close() }
    do {
      try PDFPrinting.print(jobs, with: session)
    } catch let failure as PDFPrinting.Unwritable {
      throw ReportWriting.writeFailure(failure.error, writing: staging.folder, for: staging.target)
    }
  }
}
