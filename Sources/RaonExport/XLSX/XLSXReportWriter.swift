import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// Writes `report.xlsx`: a workbook a public official can open, print and filter without
/// fixing anything.
///
/// Sheets, in order (Korean names by default, English with `.en`): 요약 (title, week,
/// snapshot and comparison, headline figures with changes, change counts, and native
/// Excel charts by category, district — top N plus 기타(나머지) — fee band and duration
/// band), 분류별, 자치구별, 요금대별, 기간별, 분류×자치구 (a white-to-blue scale from 0 to the
/// largest count), 데이터 품질 (flag names in the report's language, their codes, and the
/// first three programs of each flag), the hidden 차트 자료 (the district chart's top N +
/// 기타), 변경 사항 (one row per changed field), and 프로그램 (every program; continued on
/// 프로그램 (2), … past Excel's 1,048,576 rows).
///
/// Every sheet prints as it comes (``XLSXPrintSetUp``): A4, fitted one page wide, header
/// rows (and the programs' ID and title) repeated, title and page numbers in the margins.
///
/// On the programs sheet dates are real Excel dates (`yyyy-mm-dd`), fees, days and
/// coordinates are numbers, web addresses are links (`HYPERLINK` formulas showing the
/// address; past a formula's 255 characters a worksheet hyperlink, up to Excel's 65,530
/// per sheet and 2,079 characters; beyond that, text), and `is_free` is the text 무료/유료
/// (Free/Paid): it reads well in the filter drop-down, where TRUE/FALSE would not, and
/// `COUNTIF(…,"무료")` still counts it. Text is always written as text, never as a
/// formula, and cut to Excel's 32,767 characters with a warning.
///
/// ## Memory: one workbook, constant memory for the big sheets only
///
/// libxlsxwriter's default mode keeps every cell in memory until the file is saved; its
/// constant-memory mode streams each finished row to a temporary file but then cannot
/// give charts cached values from that sheet (previewers such as Quick Look and mail
/// clients show empty charts without them). The option is nominally per workbook, but
/// libxlsxwriter 1.1.x reads it from the workbook's options each time a worksheet is
/// added, so Raon switches it on only while adding the programs and changes sheets.
/// Those are written strictly row by row, and the small sheets the charts read stay in
/// default mode, so the charts keep their cached values at any catalog size. Each sheet's
/// own `optimize` flag is checked; were a future libxlsxwriter to ignore the switch, the
/// file would still be correct, only bigger in memory.
///
/// Measured on the programs sheet (release build, 2 cores shared with other work, so
/// times are noisy; synthetic programs with Korean text and three URLs each; hyperlinks
/// capped at 65,530 per sheet). Peak = VmHWM; the programs themselves account for the
/// "before" figure (89 MB at 100k, 728 MB at 1M):
///
/// | rows      | constant memory (shipped) | default mode          | bare libxlsxwriter loop |
/// |-----------|---------------------------|-----------------------|-------------------------|
/// | 100,000   | 5.2–8.1 s, +176 MB        | 8.4 s, +455 MB        | 4.6–7.9 s, +175 MB      |
/// | 1,000,000 | 41.3 s, +175 MB           | 41.7 s, +2,967 MB     | 54.2 s, +174 MB         |
///
/// Default mode grows by ~3 KB per row (≈ 3 GB at a million); constant memory stays flat
/// at the ~175 MB the bare loop also needs (libxlsxwriter holds the hyperlinks until the
/// file is saved). Raon's cost was 1.03–1.14 × the bare loop in back-to-back runs.
///
/// Reproduce, one process per figure (peak memory only grows):
/// `raon-bench xlsx constant|default|floor ROWS` — `XLSXBenchmark.run(_:)` in
/// `Benchmarks/raon-bench/XLSXBenchmark.swift`, called with the arguments after `xlsx`.
public struct XLSXReportWriter: ReportWriter {
  /// The report's file name in the output directory.
  public static let fileName = "report.xlsx"
  /// The file `writeComparison` writes.
  public static let comparisonFileName = "changes.xlsx"

  /// Rows per sheet, header included: Excel's limit, lowered by tests to see the split.
  let rowLimit: Int
  /// Whether the programs and changes sheets use constant-memory mode (see above).
  let streamLargeSheets: Bool

  /// A writer with Excel's real limits.
  public init() {
    self.init(rowLimit: XLSXLimits.rowsPerSheet, streamLargeSheets: true)
  }

  /// A writer that keeps the programs and changes sheets in libxlsxwriter's default
  /// (all in memory) mode when `streamLargeSheets` is false: only for the benchmark that
  /// justifies the default.
  @_spi(Benchmarks)
  public init(streamLargeSheets: Bool) {
    self.init(rowLimit: XLSXLimits.rowsPerSheet, streamLargeSheets: streamLargeSheets)
  }

  init(rowLimit: Int, streamLargeSheets: Bool = true) {
    self.rowLimit = rowLimit
    self.streamLargeSheets = streamLargeSheets
  }

  /// Writes `changes.xlsx` or `trend.xlsx`; a report's workbook needs its programs
  /// (``write(_:programs:into:options:)``, or the format's sink).
  public func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    switch document {
    case .report: throw XLSXExportError.reportNeedsItsPrograms
    case .comparison(let c): return try writeComparison(c, into: directory, options: options)
    case .trend(let t): return try writeTrend(t, into: directory, options: options)
    }
  }

  /// Writes `report.xlsx` into `directory` in one go: the changes, then the programs as
  /// `programs` hands them over (one pass), then every other sheet.
  ///
  /// - Returns: `["report.xlsx"]` and a warning line for each limit Excel imposed.
  /// - Throws: ``XLSXExportError`` when the workbook cannot be built or saved.
  public func write(_ report: WeeklyReport, programs: ProgramChunks, into directory: URL, options: ExportOptions)
    throws -> ExportResult
  {
    let url = directory.appendingPathComponent(Self.fileName)
    let (workbook, builder) = try reportWorkbook(at: url, programCount: programs.count, options)
    try builder.writeReport(report, programs: programs)
    try workbook.close()
    return ExportResult(files: [Self.fileName], warnings: builder.warnings(file: Self.fileName))
  }

  /// Starts `report.xlsx` before the report's figures are known: every sheet added, and
  /// the programs and the changes, most of the workbook's work, written;
  /// ``XLSXStartedReport/finish(_:)`` writes the rest once the report is known. The file
  /// is the same as ``write(_:programs:into:options:)`` makes (libxlsxwriter's style
  /// numbers are pinned, ``XLSXFormats``, so the order the sheets are filled in cannot show).
  ///
  /// - Parameters:
  ///   - changes: The report's changes (`nil`: no comparison), dated `day`.
  /// - Returns: `nil` when the changes need more than one sheet (the sheets continuing them
  ///   must come before the programs'): the workbook is then written in one go.
  public func start(
    programs: ProgramChunks, changes: SnapshotDiff?, day: CalendarDay, into directory: URL, options: ExportOptions
  ) throws -> XLSXStartedReport? {
    let url = directory.appendingPathComponent(Self.fileName)
    let (workbook, builder) = try reportWorkbook(at: url, programCount: programs.count, options)
    // Dropped (its temporary file with it) when the changes would outgrow their sheet.
    guard let sheets = try builder.startReport(programs: programs, changes: changes, day: day) else { return nil }
    return XLSXStartedReport(workbook: workbook, builder: builder, sheets: sheets)
  }

  /// Writes `changes.xlsx`: the from/to snapshots and one row per added, removed or
  /// changed program field.
  ///
  /// - Throws: ``XLSXExportError`` when the workbook cannot be built or saved.
  func writeComparison(_ comparison: ComparisonReport, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    let url = directory.appendingPathComponent(Self.comparisonFileName)
    let workbook = try XLSXWorkbook(url: url, zip64: false)
    let builder = try makeBuilder(for: workbook, options)
    try builder.writeComparison(comparison.diff, from: comparison.from, to: comparison.to)
    try workbook.close()
    return ExportResult(
      files: [Self.comparisonFileName], warnings: builder.warnings(file: Self.comparisonFileName))
  }

  /// A report's workbook at `url` and its builder.
  private func reportWorkbook(at url: URL, programCount: Int, _ options: ExportOptions) throws
    -> (XLSXWorkbook, XLSXReportBuilder)
  {
    // ZIP64 only when a sheet's XML could approach 4 GB; a few readers reject ZIP64.
    let workbook = try XLSXWorkbook(url: url, zip64: programCount > 200_000)
    return (workbook, try makeBuilder(for: workbook, options))
  }

  private func makeBuilder(for workbook: XLSXWorkbook, _ options: ExportOptions) throws -> XLSXReportBuilder {
    try XLSXReportBuilder(
      workbook: workbook, options: options, rowLimit: rowLimit, streamLargeSheets: streamLargeSheets)
  }
}

/// A report's workbook with its programs sheet written, waiting for the report
/// (``XLSXReportWriter/start(programs:changes:day:into:options:)``). Used by one thread
/// at a time (the one that started it, then the one that finishes it): it holds the C
/// workbook, which is not to be shared.
public final class XLSXStartedReport: @unchecked Sendable {
  private let workbook: XLSXWorkbook
  private let builder: XLSXReportBuilder
  private let sheets: XLSXReportBuilder.ReportSheets

  init(workbook: XLSXWorkbook, builder: XLSXReportBuilder, sheets: XLSXReportBuilder.ReportSheets) {
    self.workbook = workbook
    self.builder = builder
    self.sheets = sheets
  }

  /// Fills the other sheets with `report` and saves the file.
  public func finish(_ report: WeeklyReport) throws -> ExportResult {
    try builder.finishReport(report, sheets)
    try workbook.close()
    let name = XLSXReportWriter.fileName
    return ExportResult(files: [name], warnings: builder.warnings(file: name))
  }
}
