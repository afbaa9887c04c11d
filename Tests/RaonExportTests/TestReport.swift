import Foundation
import RaonAnalytics
import RaonConcurrency
import RaonCore
import RaonDocument
import Testing

@testable import RaonExport

/// A report as the tests build it: its figures and the programs they count. The figures
/// (``ReportData``) no longer hold the programs; the job hands them to the formats that
/// list every program, and these helpers do the same, the way the job does (open the
/// sinks, hand over the programs, compose the document once, finish), so a test exercises
/// the path a run takes.
@dynamicMemberLookup
struct TestReport: Sendable {
  var figures: ReportData
  var programs: ProgramChunks

  init(_ figures: ReportData, programs: ProgramChunks) {
    self.figures = figures
    self.programs = programs
  }

  init(_ figures: ReportData, programs: [Program]) {
    self.init(figures, programs: ProgramChunks(programs))
  }

  subscript<T>(dynamicMember path: WritableKeyPath<ReportData, T>) -> T {
    get { figures[keyPath: path] }
    set { figures[keyPath: path] = newValue }
  }

  /// The report of other `programs` (in id order): its count and quality examples as the
  /// figures' pass takes them; every other figure as it was.
  func with(programs: [Program]) -> TestReport {
    var report = self
    report.programs = ProgramChunks(programs)
    report.figures.programCount = programs.count
    var examples = QualityExamples()
    for p in programs { examples.add(p) }
    report.figures.qualityExamples = examples
    return report
  }

  /// The composed report, as the job composes it.
  func weekly(_ options: ExportOptions = ExportOptions()) -> WeeklyReport {
    Self.weekly(figures, options)
  }

  static func weekly(_ figures: ReportData, _ options: ExportOptions = ExportOptions()) -> WeeklyReport {
    guard case .report(let report) = ReportDocument.report(figures, options: options.document) else {
      preconditionFailure("a report composes a report")
    }
    return report
  }

  /// Writes the report in `formats` into `directory` as the report job does: the document
  /// composed once, every format rendered from it side by side, those that list every
  /// program reading them.
  @discardableResult
  func write(_ formats: [ReportFormat], into directory: URL, options: ExportOptions = ExportOptions()) throws
    -> ExportResult
  {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let results = ReportFormat.render(
      formats, .report(weekly(options)), programs: programs, into: directory, options: options)
    var combined = ExportResult()
    for format in FormatRegistry.standard.ordered(formats) {
      if let written = results[format] { combined.append(try written.get()) }
    }
    return combined
  }
}

// MARK: - Each writer alone, as the tests call it

extension ReportWriter {
  /// Writes `report` in this writer's format, as the job does.
  func write(_ report: TestReport, into directory: URL, options: ExportOptions) throws -> ExportResult {
    let format = FormatRegistry.standard.entries.first { ObjectIdentifier(type(of: $0.writer)) == ObjectIdentifier(Self.self) }?.format
    guard let format else { throw ReportFixtureError.unknownWriter }
    return try report.write([format], into: directory, options: options)
  }

  /// `raon diff`'s files in this writer's format.
  func writeComparison(
    _ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, into directory: URL, options: ExportOptions
  ) throws -> ExportResult {
    try write(.comparison(diff, from: from, to: to, options: options.document), into: directory, options: options)
  }
}

enum ReportFixtureError: Error { case unknownWriter }

extension XLSXReportWriter {
  /// `report.xlsx` by this writer (its row limit), as the job writes it in one go.
  func write(_ report: TestReport, into directory: URL, options: ExportOptions) throws -> ExportResult {
    try write(report.weekly(options), programs: report.programs, into: directory, options: options)
  }
}

extension MarkdownReportWriter {
  /// `report.md` and its charts, without touching the file system.
  func render(_ report: TestReport, options: ExportOptions) -> (markdown: String, charts: [(path: String, svg: String)]) {
    render(report.figures, options: options)
  }

  func render(_ figures: ReportData, options: ExportOptions) -> (markdown: String, charts: [(path: String, svg: String)]) {
    let document = TestReport.weekly(figures, options).document
    return (MarkdownRenderer.render(document), document.charts.map { ($0.path, SVGChart.draw($0)) })
  }

  /// `changes.md`, without touching the file system.
  func renderComparison(
    _ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, options: ExportOptions, listLimit: Int = 100
  ) -> String {
    var document = options.document
    document.comparisonListLimit = listLimit
    return MarkdownRenderer.render(ReportDocument.comparison(diff, from: from, to: to, options: document).document)
  }
}

extension HTMLReportWriter {
  /// `report.html`, without touching the file system.
  func render(_ report: TestReport, options: ExportOptions) -> String { render(report.figures, options: options) }

  func render(_ figures: ReportData, options: ExportOptions) -> String {
    render(TestReport.weekly(figures, options).document)
  }

  /// `changes.html`, without touching the file system.
  func renderComparison(_ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, options: ExportOptions) -> String {
    render(ReportDocument.comparison(diff, from: from, to: to, options: options.document).document)
  }
}
