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
  /// A catalog read from the store (not held) is decoded again on every pass over it, so
  /// `programs.csv` and the workbook's programs sheet then take the chunks of the figures'
  /// pass (`figures` is given a function to call with each chunk of `programs` it reads)
  /// rather than read them again (a report of a million stored programs as csv and json:
  /// 20.0 -> 10.5 s). A held catalog costs nothing to go over again, and its figures,
  /// which the workbook waits for, come sooner without the file.
  ///
  /// - Parameters:
  ///   - programs: The programs the figures are about.
  ///   - pdf: The PDF writer, when a run shares one browser among its reports.
  ///   - figures: Computes the report's data, handing each chunk of `programs` it reads
  ///     to the function it is given, if any; its error is thrown as it is.
  /// - Returns: The report and what was written.
  /// - Throws: The figures' error, or a writer's as ``WorkflowError/outputNotWritable(path:reason:)``
  ///   naming the folder the user asked for.
  static func write(
    programs: ProgramChunks, formats: [ReportFormat], into staging: OutputPublisher.Staging,
    options: ExportOptions, pdf: PDFReportWriter? = nil, progress: @Sendable (String) -> Void = { _ in },
    figures: (_ each: (([Program]) throws -> Void)?) throws -> ReportData
  ) throws -> (report: ReportData, result: ExportResult) {
    let directory = staging.folder
    let chosen = ReportFormat.allCases.filter { formats.contains($0) }
    let programsFile: CSVProgramsFile?
    do {
      programsFile = chosen.contains(.csv) && programs.held == nil
        ? try CSVProgramsFile(into: directory, options: options) : nil
    } catch {
      throw writeFailure(error, writing: directory, for: staging.target)
    }
    // Before the workbook starts: it briefly captures standard error while libxlsxwriter
    // saves, so nothing else should print while it runs.
    progress("writing \(chosen.map(\.rawValue).joined(separator: ", ")) …")
    let handOver = PendingResult<ReportData>()
    // A catalog read from the store: the workbook's programs sheet takes its chunks from
    // the figures' pass too, one read serving both (a report of a million stored
    // programs, md+xlsx+csv+json: 45.1 -> 41.8 s, 61.8 -> 52.4 s of CPU, same files).
    let feed = chosen.contains(.xlsx) && programs.held == nil ? HandOver<[Program]>() : nil
    let workbookPrograms = feed.map { programs.fedOnce(by: $0) } ?? programs
    let workbook = chosen.contains(.xlsx) ? PendingResult.start {
      // However the workbook ends, it no longer holds the figures' pass back.
      defer { feed?.stop() }
      return try XLSXReportWriter().write(
        programs: workbookPrograms, report: { try handOver.wait().get() }, into: directory,
        options: options)
    } : nil
    let each: (([Program]) throws -> Void)? =
      programsFile == nil && feed == nil ? nil : { chunk in
        if let programsFile {
          do { try programsFile.append(chunk) } catch { throw ProgramsFileFailure(error: error) }
        }
        _ = feed?.push(chunk)  // `false` once the workbook has stopped: it fails on its own
      }
    let analysed = Result { try figures(each) }
    switch analysed {
    case .success: feed?.finish(throwing: nil)
    case .failure(let error): feed?.finish(throwing: error)
    }
    handOver.fulfil(analysed)
    guard case .success(let report) = analysed else {
      _ = workbook?.wait()  // it stops at the missing figures; then its files can go
      if case .failure(let failure as ProgramsFileFailure) = analysed {
        throw writeFailure(failure.error, writing: directory, for: staging.target)
      }
      return try (analysed.get(), ExportResult())
    }
    do {
      var combined = ExportResult()
      let programsWritten = try programsFile?.finish()
      for format in chosen where format != .xlsx {
        let writer: any ReportWriter =
          switch format {
          case .csv: CSVReportWriter(programsWritten: programsWritten)
          case .pdf: pdf.map { $0 as any ReportWriter } ?? format.writer
          default: format.writer
          }
        combined.append(try writer.write(report, into: directory, options: options))
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

  /// Writing `programs.csv` failed in the figures' pass: a writer's failure, not theirs.
  private struct ProgramsFileFailure: Error {
    var error: any Error
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
