import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport

/// The report's outputs while it is made, in a staged folder (nothing is published here):
/// the sinks, opened on the programs before the figures are computed, then the document
/// composed once from the figures and every format rendered from it.
///
/// The job owns every loop over the programs: the formats that list them all
/// (`programs.csv`, the workbook's programs sheet: ``ReportSink``) are handed them here,
/// never read a source of their own. Held programs are handed over as soon as the sinks
/// open (the workbook, on a thread of its own, starts its programs sheet while the
/// selection waits for the recording); programs read from the store are handed over by
/// the figures' pass (``consume``), so one read serves the figures and both files.
/// ``finish(_:)`` composes the document, hands it to the sinks (the workbook goes on with
/// it on its thread) and renders the other formats. Results are combined in the fixed
/// format order, so the outcome does not depend on which finishes first.
final class ReportOutputs {
  private let formats: [ReportFormat]
  private let staging: OutputPublisher.Staging
  private let options: ExportOptions
  /// The programs, for a workbook that must be written again (its changes first).
  private let programs: ProgramChunks
  /// The formats written as the programs are handed over, by format.
  private var sinks: [ReportFormat: any ReportSink] = [:]
  /// Whether the programs were handed over when the sinks opened (held in memory).
  private let handedAtOpening: Bool

  /// Opens the sinks of `formats` on `programs` in the staged folder, and hands them held
  /// programs at once.
  ///
  /// - Throws: A sink's failure as ``WorkflowError/outputNotWritable(path:reason:)``.
  init(
    programs: ProgramChunks, formats: [ReportFormat], into staging: OutputPublisher.Staging,
    options: ExportOptions, early: EarlyChanges? = nil, progress: @Sendable (String) -> Void = { _ in }
  ) throws {
    self.formats = FormatRegistry.standard.ordered(formats)
    self.staging = staging
    self.options = options
    self.programs = programs
    handedAtOpening = programs.held != nil
    // Before the workbook starts: it briefly captures standard error while libxlsxwriter
    // saves, so nothing else should print while it runs.
    progress("writing \(self.formats.map(\.rawValue).joined(separator: ", ")) …")
    do {
      for format in self.formats {
        sinks[format] = try format.sink(programCount: programs.count, into: staging.folder, options: options)
        if let early { sinks[format]?.expect(early) }
      }
      if let held = programs.held, !held.isEmpty {
        for format in self.formats { try sinks[format]?.consume(held) }
      }
    } catch {
      cancel(error)
      throw ReportWriting.writeFailure(error, writing: staging.folder, for: staging.target)
    }
  }

  /// What the figures' pass hands each chunk of the programs to; `nil` when no sink takes
  /// them or they were handed over at opening.
  var consume: (([Program]) throws -> Void)? {
    let sinks = formats.compactMap { self.sinks[$0] }
    guard !sinks.isEmpty, !handedAtOpening else { return nil }
    return { chunk in
      for sink in sinks {
        do { try sink.consume(chunk) } catch { throw ProgramsFileFailure(error: error) }
      }
    }
  }

  /// The figures failed with `error`: the sinks stop. A sink's own failure in the pass is
  /// thrown as the output folder's.
  func fail(_ error: any Error) throws -> Never {
    cancel(error)
    if let failure = error as? ProgramsFileFailure {
      throw ReportWriting.writeFailure(failure.error, writing: staging.folder, for: staging.target)
    }
    throw error
  }

  /// Composes the report's document from `figures`, hands it to the sinks and renders
  /// every other format.
  ///
  /// - Returns: What was written (a PDF is queued in ``ExportResult/printing``, for the
  ///   job's post-step).
  /// - Throws: A writer's failure as ``WorkflowError/outputNotWritable(path:reason:)``
  ///   naming the folder the user asked for; the store's error, should the programs be
  ///   read again (a workbook whose changes come first), as it is.
  func finish(_ figures: ReportData) throws -> ExportResult {
    var documentOptions = options.document
    documentOptions.workbookAccompanies = formats.contains(.xlsx)
    let document = ReportDocument.report(figures, options: documentOptions)
    guard case .report(let report) = document else { return ExportResult() }
    // Every sink first: the workbook goes on with the report while the others render.
    let pending = sinks.mapValues { $0.finish(report) }
    sinks = [:]
    var results = ReportFormat.render(
      formats.filter { pending[$0] == nil }, document, into: staging.folder, options: options)
    for (format, written) in pending { results[format] = written.wait() }
    for (format, result) in results {
      if case .failure(let error) = result, (error as? XLSXExportError) == .changesNeedTheirSheetsFirst {
        results[format] = try writeAgain(format, knowing: report)
      }
    }
    do {
      var combined = ExportResult()
      for format in formats {
        if let written = results[format] { combined.append(try written.get()) }
      }
      combined.files.sort()
      return combined
    } catch {
      throw ReportWriting.writeFailure(error, writing: staging.folder, for: staging.target)
    }
  }

  /// `format` written again knowing the report (a workbook whose changes need more than
  /// one sheet writes them before its programs), the programs handed over once more.
  ///
  /// - Returns: The writer's outcome.
  /// - Throws: Reading the programs' error, as it is.
  private func writeAgain(_ format: ReportFormat, knowing report: WeeklyReport) throws -> Result<ExportResult, any Error> {
    let sink: any ReportSink
    do {
      guard let made = try format.sink(programCount: programs.count, knowing: report, into: staging.folder, options: options)
      else { return .success(ExportResult()) }
      sink = made
    } catch {
      return .failure(error)
    }
    do {
      try programs.forEach { chunk in
        do { try sink.consume(chunk) } catch { throw ProgramsFileFailure(error: error) }
      }
    } catch let failure as ProgramsFileFailure {
      sink.cancel(failure.error)
      return .failure(failure.error)
    } catch {
      sink.cancel(error)
      throw error
    }
    return sink.finish(report).wait()
  }

  private func cancel(_ error: any Error) {
    for sink in sinks.values { sink.cancel(error) }
    sinks = [:]
  }

  /// Writing a sink failed in the figures' pass: a writer's failure, not theirs.
  private struct ProgramsFileFailure: RaonError {
    var exitStatus: ExitStatus { .failure }
    var error: any Error
  }
}

enum ReportWriting {
  /// A writer's error as the report's: it names the folder the user asked for rather than
  /// the hidden one being written (`.NAME.raon-partial-PID`), and says that earlier
  /// reports were kept.
  static func writeFailure(_ error: any Error, writing directory: URL, for target: URL) -> WorkflowError {
    let text = String(describing: error).replacingOccurrences(of: directory.path, with: target.path)
    return WorkflowError.outputNotWritable(path: target.path, reason: text)
  }
}
