import Foundation
import RaonAnalytics
import RaonConcurrency
import RaonCore
import RaonDocument

/// A format that lists every program of a report (`programs.csv`, the workbook's programs
/// sheet): the job hands it the programs as it reads them (``consume(_:)``: the job owns
/// the loop, the sink never reads a source of its own), then the composed report
/// (``finish(_:)``), which it writes the rest from. Every other format is rendered from the
/// document alone (``ReportWriter``). The registry says which formats are sinks
/// (``ReportFormat/sink(programCount:knowing:into:options:registry:)``).
public protocol ReportSink: AnyObject {
  /// The next programs, in id order.
  func consume(_ chunk: [Program]) throws
  /// Every program has been handed over and `report` is what the figures gave: the sink
  /// writes the rest. A sink with a thread of its own goes on there, so the result may
  /// still be pending.
  func finish(_ report: WeeklyReport) -> PendingResult<ExportResult>
  /// The programs or the figures failed with `error`: the sink stops (waiting for its
  /// thread); its files go with the staged folder.
  func cancel(_ error: any Error)
  /// The report's changes may be known before its figures (``EarlyChanges``): a sink that
  /// lists them can start on them. Called, if at all, before ``finish(_:)``.
  func expect(_ changes: EarlyChanges)
}

extension ReportSink {
  public func expect(_ changes: EarlyChanges) {}
}

/// A report's changes worked out before its figures (while its input was recorded), and
/// the day they are dated: the workbook writes its changes sheet as soon as they are known
/// instead of after the figures, and checks them against the report's then.
public struct EarlyChanges: Sendable {
  public struct Known: Sendable {
    public var diff: SnapshotDiff
    public var day: CalendarDay

    public init(diff: SnapshotDiff, day: CalendarDay) {
      self.diff = diff
      self.day = day
    }
  }

  /// The reported snapshot's day in Korea.
  public var day: CalendarDay
  /// Waits for the changes; `nil` when they could not be worked out.
  public var diff: @Sendable () -> SnapshotDiff?

  public init(day: CalendarDay, diff: @escaping @Sendable () -> SnapshotDiff?) {
    self.day = day
    self.diff = diff
  }

  /// Waits for them.
  func known() -> Known? { diff().map { Known(diff: $0, day: day) } }
}

extension ReportFormat {
  /// This format's sink for a report of `programCount` programs, written into
  /// `directory`, or `nil` when the format is rendered from the document alone (the
  /// registry's entry says: ``FormatEntry/sink``).
  ///
  /// The workbook starts at once, on a thread of its own, with its programs sheet (which
  /// needs no figures), taking the programs as the job hands them over. Given the report
  /// already (`knowing`), it writes the changes before the programs: what a workbook needs
  /// when its changes take more than one sheet (its first try then fails with
  /// ``XLSXExportError/changesNeedTheirSheetsFirst``).
  public func sink(
    programCount: Int, knowing report: WeeklyReport? = nil, into directory: URL, options: ExportOptions,
    registry: FormatRegistry = .standard
  ) throws -> (any ReportSink)? {
    try registry.entry(self)?.sink?(programCount, report, directory, options)
  }
}

/// `csv/`: `programs.csv` row by row as the programs are handed over, the tables from the
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

  func finish(_ report: WeeklyReport) -> PendingResult<ExportResult> {
    let written = PendingResult<ExportResult>()
    written.fulfil(
      Result {
        var result = try file.finish()
        result.append(try CSVReportWriter().write(.report(report), into: directory, options: options))
        return result
      })
    return written
  }

  func cancel(_ error: any Error) {}
}

/// `report.xlsx` on a thread of its own: the programs sheet as the programs come, the
/// other sheets once the report is known (``XLSXReportWriter/write(programs:report:into:options:)``).
final class XLSXWorkbookSink: ReportSink {
  private let feed = HandOver<[Program]>()
  private let report = PendingResult<WeeklyReport>()
  /// Changes known early, or `nil` once the report is (the first wins).
  private let early = PendingResult<EarlyChanges?>()
  private let workbook: PendingResult<ExportResult>
  private let programCount: Int
  /// Programs handed over so far.
  private var handed = 0

  init(
    programCount: Int, knowing known: WeeklyReport?, writer: XLSXReportWriter, into directory: URL,
    options: ExportOptions
  ) {
    self.programCount = programCount
    let programs = ProgramChunks.fed(by: feed, count: programCount)
    let report = self.report
    let feed = self.feed
    let early = self.early
    workbook = PendingResult.start {
      // However the workbook ends, it no longer holds the job's loop back.
      defer { feed.stop() }
      if let known { return try writer.write(known, programs: programs, into: directory, options: options) }
      return try writer.write(
        programs: programs, early: { (try? early.wait().get())??.known() }, report: { try report.wait().get() },
        into: directory, options: options)
    }
  }

  func consume(_ chunk: [Program]) throws {
    handed += chunk.count
    // The workbook's pass ends once it has its count (``ProgramChunks/fed(by:count:)``):
    // more would be dropped unseen.
    guard handed <= programCount else {
      throw ProgramChunks.FeedFailure(description: "the pass feeding the workbook handed over more than \(programCount) programs")
    }
    _ = feed.push(chunk)  // `false` once the workbook has stopped: it fails on its own
  }

  func expect(_ changes: EarlyChanges) {
    early.fulfil(.success(changes))
  }

  func finish(_ data: WeeklyReport) -> PendingResult<ExportResult> {
    feed.finish(throwing: nil)
    early.fulfil(.success(nil))
    report.fulfil(.success(data))
    return workbook
  }

  func cancel(_ error: any Error) {
    feed.finish(throwing: error)
    early.fulfil(.success(nil))
    report.fulfil(.failure(error))
    _ = workbook.wait()  // it stops at the missing report; then its files can go
  }
}
