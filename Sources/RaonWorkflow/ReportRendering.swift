import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport

/// The report's render step: the document composed once from the figures, then every
/// format rendered from it into the staged folder, side by side (``ReportFormat/render``);
/// the formats that list every program (`programs.csv`, the workbook's programs sheet)
/// read them from `programs` themselves.
enum ReportRendering {
  /// Writes `figures` in `formats` into `staging`'s folder; those `begun` already are
  /// finished.
  ///
  /// - Returns: What was written, in the registry's order (a PDF is queued in
  ///   ``ExportResult/printing``, for the job's post-step).
  /// - Throws: A writer's failure as ``WorkflowError/outputNotWritable(path:reason:)``
  ///   naming the folder the user asked for; reading the programs' error as it is.
  static func write(
    _ figures: ReportData, programs: ProgramChunks, begun: [ReportFormat: FormatEntry.Begun] = [:],
    formats: [ReportFormat], into staging: OutputPublisher.Staging, options: ExportOptions
  ) throws -> ExportResult {
    var documentOptions = options.document
    // Page 1's 붙임 may name the workbook's sheets only when the workbook goes with it.
    documentOptions.workbookAccompanies = formats.contains(.xlsx)
    let document = ReportDocument.report(figures, options: documentOptions)
    let read = ProgramsRead(programs)
    let results = ReportFormat.render(
      formats, document, programs: read.chunks, begun: begun, into: staging.folder, options: options)
    var combined = ExportResult()
    for format in FormatRegistry.standard.ordered(formats) {
      guard let result = results[format] else { continue }
      do {
        combined.append(try result.get())
      } catch let failure as ProgramsRead.Failure {
        throw failure.error
      } catch {
        throw writeFailure(error, writing: staging.folder, for: staging.target)
      }
    }
    combined.files.sort()
    return combined
  }

  /// A writer's error as the report's: it names the folder the user asked for rather than
  /// the hidden one being written (`.NAME.raon-partial-PID`), and says that earlier
  /// reports were kept.
  static func writeFailure(_ error: any Error, writing directory: URL, for target: URL) -> WorkflowError {
    let text = String(describing: error).replacingOccurrences(of: directory.path, with: target.path)
    return WorkflowError.outputNotWritable(path: target.path, reason: text)
  }
}

/// The programs as the writers read them, their source's failures told apart from the
/// writers' own: a store that cannot be read is not an output folder that cannot be
/// written.
private struct ProgramsRead {
  struct Failure: RaonError {
    var error: any Error
    var exitStatus: ExitStatus { (error as? any RaonError)?.exitStatus ?? .failure }
  }

  let chunks: ProgramChunks

  init(_ programs: ProgramChunks) {
    chunks = ProgramChunks(count: programs.count) { body in
      // Set when `body` (the writer) failed: its error goes on as it is.
      var written: (any Error)?
      do {
        try programs.scan { chunk in
          do { return try body(chunk) } catch {
            written = error
            throw error
          }
        }
      } catch {
        if let written { throw written }
        throw Failure(error: error)
      }
    }
  }
}
