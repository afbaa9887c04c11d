import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// Writes the weekly trend (`raon trend`): `trend.md` with `charts/trend.svg`,
/// `trend.xlsx` (sheet 추이), `trend.csv` and `trend.json`. Values in, files out.
///
/// - `trend.csv`: `iso_week, snapshot_id, taken_at, program_count, current, running,
///   starting, registered, added, removed`; `taken_at` ISO 8601 UTC with `Z`; `added` and
///   `removed` empty for the first point; encoded as the report's CSVs (UTF-8 with a BOM
///   by default), rows ending in CRLF.
/// - `trend.json`: the array of ``TrendJSON/value(points:)``, the shape of `report.json`'s
///   `trend`.
public enum TrendWriters {
  public static let markdownFileName = "trend.md"
  public static let workbookFileName = "trend.xlsx"
  public static let csvFileName = "trend.csv"
  public static let jsonFileName = "trend.json"

  /// The formats the trend is written in (the registry's).
  public static var formats: [ReportFormat] {
    FormatRegistry.standard.formats(for: .trend, [.always, .byDefault, .onRequest])
  }

  /// The CSV's header, in order.
  public static let csvColumns = [
    "iso_week", "snapshot_id", "taken_at", "program_count", "current", "running", "starting",
    "registered", "added", "removed",
  ]

  /// Writes the trend in the chosen formats into `directory` (created when missing), each
  /// by its format's writer.
  ///
  /// - Parameters:
  ///   - trend: The trend's document (``ReportDocument/trend(_:options:)``).
  ///   - formats: Which files, written in ``ReportFormat`` order; formats not in
  ///     ``formats`` are skipped.
  ///   - directory: The output folder.
  ///   - options: Language and CSV encoding.
  /// - Returns: The files written (relative paths) and warnings.
  /// - Throws: ``TextExportError`` or ``XLSXExportError``.
  public static func write(
    _ trend: ReportDocument, formats: [ReportFormat], into directory: URL, options: ExportOptions
  ) throws -> ExportResult {
    try TextOutput.makeDirectory(directory)
    var result = ExportResult()
    let registry = FormatRegistry.standard
    for format in registry.ordered(formats) where Self.formats.contains(format) {
      if let writer = registry.entry(format)?.writer { result.append(try writer.write(trend, into: directory, options: options)) }
    }
    return result
  }

  /// `trend.csv`.
  ///
  /// - Returns: How many characters were written as `?` (CP949 only).
  static func writeCSV(_ points: [WeeklyTrendPoint], to url: URL, encoding: CSVEncoding) throws
    -> Int
  {
    var csv = try CSVFileWriter(url: url, encoding: encoding)
    try csv.textRow(csvColumns)
    for point in points {
      csv.raw(point.isoWeek.description)
      csv.int(Int(point.snapshotId))
      csv.raw(ReportTime.iso8601UTC(point.takenAt))
      csv.int(point.programCount)
      csv.int(point.current)
      csv.int(point.running)
      csv.int(point.starting)
      csv.int(point.registered)
      csv.int(point.added)
      csv.int(point.removed)
      try csv.endRow()
    }
    return try csv.finish()
  }

  /// `trend.xlsx`: the 추이 sheet alone, document properties from the last point's time
  /// (the same trend gives the same workbook).
  static func writeWorkbook(_ points: [WeeklyTrendPoint], chart: Chart, to url: URL, labels L: ReportLabels)
    throws
  {
    let workbook = try XLSXWorkbook(url: url, zip64: false)
    let formats = try XLSXFormats(workbook, language: L.language)
    try XLSXTrendSheet.add(to: workbook, points: points, chart: chart, labels: L, formats: formats)
    let range =
      points.isEmpty
      ? "" : " \(points[0].isoWeek) … \(points[points.count - 1].isoWeek)"
    try workbook.setProperties(
      title: L.trendDocumentTitle, subject: L.trendTitle + range, author: "Raon",
      keywords: L.say(L.words.keywords),
      comments: L.attribution,
      created: points.last?.takenAt ?? Date(timeIntervalSince1970: 1))
    try workbook.close()
  }
}

/// The trend in JSON: `raon trend`'s `trend.json` and `report.json`'s `trend`.
public enum TrendJSON {
  /// `[{isoWeek, snapshotId, takenAt, programCount, current, running, starting,
  /// registered, added, removed}]`, oldest first; `takenAt` ISO 8601 UTC with `Z`;
  /// `added`/`removed` `null` for the first point.
  public static func value(points: [WeeklyTrendPoint]) -> JSONValue {
    .array(points.map(JSONReportWriter.trendPoint))
  }
}

extension XLSXReportWriter {
  /// `trend.xlsx`.
  func writeTrend(_ trend: TrendReport, into directory: URL, options: ExportOptions) throws -> ExportResult {
    try TrendWriters.writeWorkbook(
      trend.points, chart: trend.chart, to: directory.appendingPathComponent(TrendWriters.workbookFileName),
      labels: options.labels)
    return ExportResult(files: [TrendWriters.workbookFileName])
  }
}

extension CSVReportWriter {
  /// `trend.csv`.
  func writeTrend(_ trend: TrendReport, into directory: URL, options: ExportOptions) throws -> ExportResult {
    let name = TrendWriters.csvFileName
    let replaced = try TrendWriters.writeCSV(
      trend.points, to: directory.appendingPathComponent(name), encoding: options.csvEncoding)
    var result = ExportResult(files: [name])
    if replaced > 0 {
      result.warnings.append("\(name): \(replaced) characters CP949 cannot hold were written as '?'")
    }
    return result
  }
}

