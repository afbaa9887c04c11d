import Foundation
import RaonAnalytics
import RaonCore

/// What a writer wrote and anything the user should know about it.
public struct ExportResult: Sendable {
  /// Paths relative to the output directory.
  public var files: [String]
  /// One-line warnings (e.g. characters CP949 could not hold).
  public var warnings: [String]
  /// Pages still to print (``PDFReportWriter``): their files are listed in ``files``, and
  /// the job writes them with its printer (``PDFPrinting``) before it publishes.
  public var printing: [PrintJob]

  public init(files: [String] = [], warnings: [String] = [], printing: [PrintJob] = []) {
    self.files = files
    self.warnings = warnings
    self.printing = printing
  }

  /// `other`'s files, warnings and pages after these.
  public mutating func append(_ other: ExportResult) {
    files += other.files
    warnings += other.warnings
    printing += other.printing
  }
}

/// A writer of one report format. Writers take values and write files into a directory
/// they are given; they never read the store, the network or the clock.
public protocol ReportWriter: Sendable {
  /// The names this writer may create directly in the output folder (files and folders):
  /// the publisher replaces an earlier report only when it holds nothing else.
  var outputEntries: Set<String> { get }
  /// Writes the full report.
  func write(_ report: ReportData, into directory: URL, options: ExportOptions) throws -> ExportResult
  /// Writes the comparison of two snapshots alone (`raon diff`).
  func writeComparison(
    _ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, into directory: URL,
    options: ExportOptions
  ) throws -> ExportResult
  /// Writes the weekly trend alone (`raon trend`); nothing for a format the trend is not
  /// written in (``ReportFormat/trendFormats``).
  func writeTrend(_ points: [WeeklyTrendPoint], into directory: URL, options: ExportOptions) throws
    -> ExportResult
}

/// What a job writes: every writer renders each of these.
public enum ReportDocument: Sendable {
  /// The weekly report (`raon report`).
  case report(ReportData)
  /// Two snapshots compared (`raon diff`).
  case comparison(SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo)
  /// The weekly trend (`raon trend`), oldest first.
  case trend([WeeklyTrendPoint])
}

extension ReportWriter {
  public func writeTrend(_ points: [WeeklyTrendPoint], into directory: URL, options: ExportOptions)
    throws -> ExportResult
  {
    ExportResult()
  }

  /// Writes `document` into `directory`.
  public func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    switch document {
    case .report(let report):
      return try write(report, into: directory, options: options)
    case .comparison(let diff, let from, let to):
      return try writeComparison(diff, from: from, to: to, into: directory, options: options)
    case .trend(let points):
      return try writeTrend(points, into: directory, options: options)
    }
  }
}
