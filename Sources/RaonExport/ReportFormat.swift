import Foundation
import RaonAnalytics
import RaonCore

/// The formats `raon report` can write.
public enum ReportFormat: String, CaseIterable, Sendable {
  case md, xlsx, csv, json, html
  /// `report.html` printed by a headless Chromium: needs a program Raon does not ship.
  case pdf

  /// What `raon report` writes when no format is asked for (and what `all` means): every
  /// format that needs nothing outside Raon — not `pdf`, which needs Chromium.
  public static let defaults: [ReportFormat] = allCases.filter { $0 != .pdf }
}

/// How CSV files are encoded.
public enum CSVEncoding: String, CaseIterable, Sendable {
  /// UTF-8 with a byte-order mark: Korean Excel opens it correctly (the default).
  case utf8BOM = "utf8-bom"
  case utf8
  /// For old Excel installs; characters CP949 cannot hold are replaced and counted.
  case cp949
}

/// The language of the CSV files' header rows. English by default: scripts read the
/// headers by name. The values (keys, flag codes, `true`/`false`) never change.
public enum CSVHeaders: String, CaseIterable, Sendable {
  case en, ko
}

/// Choices shared by every writer.
public struct ExportOptions: Sendable {
  public var language: ReportLanguage
  public var csvEncoding: CSVEncoding
  /// How many groups charts show before the rest is summed as "other".
  public var chartTopN: Int
  /// The language of the CSV header rows (`--csv-headers`).
  public var csvHeaders: CSVHeaders

  public init(
    language: ReportLanguage = .ko, csvEncoding: CSVEncoding = .utf8BOM, chartTopN: Int = 10,
    csvHeaders: CSVHeaders = .en
  ) {
    self.language = language
    self.csvEncoding = csvEncoding
    // Bounded so that no sum made from it can overflow, whoever builds the options.
    self.chartTopN = min(max(chartTopN, 0), Self.chartTopNLimit)
    self.csvHeaders = csvHeaders
  }

  /// The most groups a chart shows (the config allows up to 100).
  public static let chartTopNLimit = 1_000

  public var labels: ReportLabels { ReportLabels(language) }
}

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
