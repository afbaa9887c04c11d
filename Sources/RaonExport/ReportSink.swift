import Foundation
import RaonAnalytics
import RaonConcurrency
import RaonCore

/// A format written while the report's programs are read, rather than from the finished
/// report alone: `programs.csv` and the workbook (whose programs sheet is most of a
/// report's time). The job's pass over the programs hands it each chunk
/// (``consume(_:)``), then the report (``finish(_:)``); every other format is rendered
/// from the report (``ReportWriter``). The registry says which formats are sinks
/// (``ReportFormat/sink(for:into:options:)``).
public protocol ReportSink: AnyObject {
  /// The next programs of the pass, in the report's order.
  func consume(_ chunk: [Program]) throws
  /// The pass is over and `report` is its result: the sink writes the rest. A sink with a
  /// thread of its own goes on there, so the result may still be pending.
  func finish(_ report: ReportData) -> PendingResult<ExportResult>
  /// The pass failed with `error`: the sink stops (waiting for its thread); its files go
  /// with the staged folder.
  func cancel(_ error: any Error)
}

extension ReportFormat {
  /// This format's sink for a report of `programs`, written into `directory`, or `nil`
  /// when the format is rendered from the report alone.
  ///
  /// The workbook is always a sink: it starts at once, on a thread of its own, with its
  /// programs sheet (which needs no figures; held programs are read there, others taken
  /// from the job's pass, one read of the store serving both). `programs.csv` is one only
  /// when the programs are read from the store: held programs cost nothing to go over
  /// again, and the figures, which the workbook waits for, come sooner without the file.
  public func sink(for programs: ProgramChunks, into directory: URL, options: ExportOptions) throws
    -> (any ReportSink)?
  {
    switch self {
    case .xlsx: return XLSXWorkbookSink(programs: programs, into: directory, options: options)
    case .csv: return programs.held == nil ? try CSVProgramsSink(into: directory, options: options) : nil
    default: return nil
    }
  }
}

/// `csv/`: `programs.csv` row by row as the pass reads the programs, the tables from the
/// report.
final class CSVProgramsSink: ReportSink {
  private let file: CSVProgramsFile
  private let directory: URL
  private let options: ExportOptions

  init(into directory: URL, options: ExportOptions) throws {
    file = try CSVProgramsFile(into: directory, options: options)
    self.directory = directory
    self.options = options
  }

  func consume(_ chunk: [Program]) throws {
    try file.append(chunk)
  }

  func finish(_ report: ReportData) -> PendingResult<ExportResult> {
    let written = PendingResult<ExportResult>()
    written.fulfil(
      Result {
        try CSVReportWriter(programsWritten: try file.finish()).write(report, into: directory, options: options)
      })
    return written
  }

  func cancel(_ error: any Error) {}
}

/// `report.xlsx` on a thread of its own: the programs sheet as the programs come, the
/// other sheets once the report is known (``XLSXReportWriter/write(programs:report:into:options:)``).
final class XLSXWorkbookSink: ReportSink {
  /// The pass's chunks, when the programs are not held.
  private let feed: HandOver<[Program]>?
  private let report: PendingResult<ReportData>
  private let workbook: PendingResult<ExportResult>

  init(programs: ProgramChunks, into directory: URL, options: ExportOptions) {
    let feed = programs.held == nil ? HandOver<[Program]>() : nil
    let sheetPrograms = feed.map { programs.fedOnce(by: $0) } ?? programs
    let report = PendingResult<ReportData>()
    self.report = report
    self.feed = feed
    workbook = PendingResult.start {
      // However the workbook ends, it no longer holds the pass back.
      defer { feed?.stop() }
      return try XLSXReportWriter().write(
        programs: sheetPrograms, report: { try report.wait().get() }, into: directory, options: options)
    }
  }

  func consume(_ chunk: [Program]) {
    _ = feed?.push(chunk)  // `false` once the workbook has stopped: it fails on its own
  }

  func finish(_ data: ReportData) -> PendingResult<ExportResult> {
    feed?.finish(throwing: nil)
    report.fulfil(.success(data))
    return workbook
  }

  func cancel(_ error: any Error) {
    feed?.finish(throwing: error)
    report.fulfil(.failure(error))
    _ = workbook.wait()  // it stops at the missing report; then its files can go
  }
}
