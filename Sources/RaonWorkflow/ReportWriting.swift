import Foundation
import RaonAnalytics
import RaonCore
import RaonErrors
import RaonExport
import RaonStore

/// The report's outputs while it is made, in a staged folder (nothing is published here):
/// the sinks, opened on the programs before the figures are computed, then every format
/// written from the report.
///
/// The workbook is the slowest format and needs a core to itself, so its sink starts at
/// once, on a thread of its own, with its programs sheet, which needs no figures;
/// meanwhile the job computes the figures (its pass over the programs hands each chunk
/// to ``consume(_:)``), then ``finish(_:)`` hands the report to the sinks and renders the
/// other formats. Results are combined in the fixed format order, so the outcome does not
/// depend on which finishes first.
///
/// A catalog read from the store (not held) is decoded again on every pass over it, so
/// `programs.csv` and the workbook's programs sheet then take the chunks of the figures'
/// pass rather than read them again (a report of a million stored programs as csv and
/// json: 20.0 -> 10.5 s; md+xlsx+csv+json: 45.1 -> 41.8 s).
final class ReportOutputs {
  private let formats: [ReportFormat]
  private let staging: OutputPublisher.Staging
  private let options: ExportOptions
  /// The formats written as the programs are read, by format.
  private var sinks: [ReportFormat: any ReportSink] = [:]

  /// Opens the sinks of `formats` on `programs` in the staged folder.
  ///
  /// - Throws: A sink's failure as ``WorkflowError/outputNotWritable(path:reason:)``.
  init(
    programs: ProgramChunks, formats: [ReportFormat], into staging: OutputPublisher.Staging,
    options: ExportOptions, progress: @Sendable (String) -> Void = { _ in }
  ) throws {
    self.formats = ReportFormat.ordered(formats)
    self.staging = staging
    self.options = options
    // Before the workbook starts: it briefly captures standard error while libxlsxwriter
    // saves, so nothing else should print while it runs.
    progress("writing \(self.formats.map(\.rawValue).joined(separator: ", ")) …")
    do {
      for format in self.formats {
        sinks[format] = try format.sink(for: programs, into: staging.folder, options: options)
      }
    } catch {
      cancel(error)
      throw ReportWriting.writeFailure(error, writing: staging.folder, for: staging.target)
    }
  }

  /// What the figures' pass hands each chunk of the programs to; `nil` when no sink takes
  /// them (held programs: the sinks read them themselves).
  var consume: (([Program]) throws -> Void)? {
    let sinks = formats.compactMap { self.sinks[$0] }
    guard !sinks.isEmpty else { return nil }
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

  /// Hands `report` to the sinks and renders every other format.
  ///
  /// - Returns: What was written (a PDF is queued in ``ExportResult/printing``, for the
  ///   job's post-step).
  /// - Throws: A writer's failure as ``WorkflowError/outputNotWritable(path:reason:)``
  ///   naming the folder the user asked for; the store's error (a large catalog is read
  ///   from the store while it is written) as it is.
  func finish(_ report: ReportData) throws -> ExportResult {
    // Every sink first: the workbook goes on with the report while the others render.
    let pending = sinks.mapValues { $0.finish(report) }
    sinks = [:]
    var results = ReportFormat.render(
      formats.filter { pending[$0] == nil }, .report(report), into: staging.folder, options: options)
    for (format, written) in pending { results[format] = written.wait() }
    do {
      var combined = ExportResult()
      for format in formats {
        if let written = results[format] { combined.append(try written.get()) }
      }
      combined.files.sort()
      return combined
    } catch let error as SnapshotStore.Error {
      throw error
    } catch {
      throw ReportWriting.writeFailure(error, writing: staging.folder, for: staging.target)
    }
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
