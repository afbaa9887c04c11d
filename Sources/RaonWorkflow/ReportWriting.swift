import Foundation
import RaonConcurrency
import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore

/// The report's write step: every chosen format into a staged folder.
enum ReportWriting {
  /// Computes the report's figures with `figures` and writes each chosen format into the
  /// staged folder (nothing is published here).
  ///
  /// The workbook is the slowest format and needs a core to itself, so it starts at once,
  /// on a thread of its own (``PendingResult``), with its programs sheet, which needs no
  /// figures; meanwhile this thread computes the figures, hands them over to the workbook
  /// and writes the other formats. Results are combined in the fixed format order, so the
  /// outcome does not depend on which finishes first.
  ///
  /// - Parameters:
  ///   - programs: The programs the figures are about.
  ///   - figures: Computes the report's data; its error is thrown as it is.
  /// - Returns: The report and what was written.
  /// - Throws: The figures' error, or a writer's as ``WorkflowError/outputNotWritable(path:reason:)``
  ///   naming the folder the user asked for.
  static func write(
    programs: ProgramChunks, formats: [ReportFormat], into staging: OutputPublisher.Staging,
    options: ExportOptions, progress: @Sendable (String) -> Void = { _ in },
    figures: () throws -> ReportData
  ) throws -> (report: ReportData, result: ExportResult) {
    let directory = staging.folder
    let chosen = ReportFormat.allCases.filter { formats.contains($0) }
    // Before the workbook starts: it briefly captures standard error while libxlsxwriter
    // saves, so nothing else should print while it runs.
    progress("writing \(chosen.map(\.rawValue).joined(separator: ", ")) …")
    let handOver = PendingResult<ReportData>()
    let workbook = chosen.contains(.xlsx) ? PendingResult.start {
      try XLSXReportWriter().write(
        programs: programs, report: { try handOver.wait().get() }, into: directory,
        options: options)
    } : nil
    let analysed = Result { try figures() }
    handOver.fulfil(analysed)
    guard case .success(let report) = analysed else {
      _ = workbook?.wait()  // it stops at the missing figures; then its files can go
      return try (analysed.get(), ExportResult())
    }
    do {
      var combined = ExportResult()
      for format in chosen where format != .xlsx {
        combined.append(try format.writer.write(report, into: directory, options: options))
      }
      // The workbook's files and warnings first: the formats' order.
      var result = try workbook?.wait().get() ?? ExportResult()
      result.append(combined)
      result.files.sort()
      return (report, result)
    } catch let error as ChromiumPrinter.Error {
      // Chromium's failure is its own, not the output folder's.
      _ = workbook?.wait()
      throw error
    } catch let error as SnapshotStore.Error {
      // A large catalog is read from the store while it is written: a store's error is
      // the store's, not the output folder's.
      _ = workbook?.wait()
      throw error
    } catch {
      _ = workbook?.wait()
      throw writeFailure(error, writing: directory, for: staging.target)
    }
  }

  /// A writer's error as the report's: it names the folder the user asked for rather than
  /// the hidden one being written (`.NAME.raon-partial-PID`), and says that earlier
  /// reports were kept.
  static func writeFailure(_ error: any Error, writing directory: URL, for target: URL) -> WorkflowError {
    let text = String(describing: error).replacingOccurrences(of: directory.path, with: target.path)
    return WorkflowError.outputNotWritable(path: target.path, reason: text)
  }
}

extension ExportResult {
  mutating func append(_ other: ExportResult) {
    files += other.files
    warnings += other.warnings
  }
}
