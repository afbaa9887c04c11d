import Foundation
import RaonAnalytics
import RaonCore

/// Writes `report.md` with its SVG charts in `charts/` beside it, and, for `raon diff`,
/// `changes.md`.
///
/// The report, in order: a title with the ISO week and its dates; the snapshot and
/// comparison lines (times in KST); the headline figures of the week with signed changes
/// against the compared snapshot; a section per dimension (category, district, fee band,
/// duration band) with a chart and the complete table; category × district; the changes
/// (lists cut at ``listLimit`` with "외 N건"); data quality with explanations and
/// examples; the data attribution the licence (공공누리 제1유형) asks for.
///
/// Charts (`charts/by_category.svg`, `by_district.svg`, `by_fee.svg`, `by_duration.svg`)
/// are linked relatively, so the folder can be moved, zipped or pushed to a repository.
/// Numbers carry thousands separators here (never in CSV/JSON).
public struct MarkdownReportWriter: TextRenderer {
  public var outputEntries: Set<String> { ["report.md", "charts", "changes.md"] }
  /// Items listed per kind of change in `report.md` before "외 N건".
  public var listLimit: Int
  /// Items listed per kind of change in `changes.md` (the diff's own document).
  public var comparisonListLimit: Int
  /// Categories given their own column in the category × district table; the rest are
  /// summed in one column (the CSV has the full table).
  public var crossTableCategories: Int
  /// Example programs shown per quality flag.
  public var qualityExamples: Int

  public init(
    listLimit: Int = 20, comparisonListLimit: Int = 100, crossTableCategories: Int = 6,
    qualityExamples: Int = QualityExamples.standardPerFlag
  ) {
    self.listLimit = listLimit
    self.comparisonListLimit = comparisonListLimit
    self.crossTableCategories = crossTableCategories
    self.qualityExamples = qualityExamples
  }

  /// A rendered document: the Markdown and the charts it links to (paths relative to it).
  public struct Document: Sendable {
    public var markdown: String
    public var charts: [(path: String, svg: String)]
  }

  /// `report.md` with its charts, `changes.md`, or `trend.md` with its chart.
  public func files(for document: ReportDocument, options: ExportOptions) throws -> [OutputFile] {
    switch document {
    case .report(let report):
      let rendered = try render(report, options: options)
      return [OutputFile("report.md", rendered.markdown)] + rendered.charts.map { OutputFile($0.path, $0.svg) }
    case .comparison(let diff, let from, let to):
      return [OutputFile("changes.md", renderComparison(diff, from: from, to: to, options: options))]
    case .trend(let points):
      let rendered = TrendMarkdown.document(points: points, labels: options.labels)
      return [OutputFile(TrendWriters.markdownFileName, rendered.markdown), OutputFile(rendered.chartPath, rendered.svg)]
    }
  }

  // MARK: - Documents (pure)

  /// The report and its charts, without touching the file system.
  ///
  /// - Throws: What reading the report's programs throws (a large catalog is read from the
  ///   store for the quality examples).
  public func render(_ report: ReportData, options: ExportOptions) throws -> Document {
    let L = options.labels
    let t = report.tables
    var charts: [(path: String, svg: String)] = []

    // The attachments first, so page 1 can list them by number.
    var attachments: [(title: String, body: String)] = []
    func attach(_ title: String, _ body: String) { attachments.append((title, body)) }

    let running = runningList(report, L)
    attach(report.district == nil ? L.runningListByDistrict : L.runningListTitle, running)
    attach(L.startingAndEnding, startingAndEnding(report, L))
    let registered = registeredAndAdded(report, L)
    attach(L.registeredAndAdded, registered.markdown)
    let addedShownIn = registered.listsAdded ? attachments.count : nil
    if let diff = report.changes, let kinds = report.changeKinds {
      attach(L.changesSinceLast, weekChanges(diff, kinds, limit: listLimit, addedShownIn: addedShownIn, L))
    } else {
      attach(L.changesSinceLast, L.noComparison + "\n\n")
    }
    var status = ""
    for section in weekSections(report, options) {
      status += section.markdown
      if !section.chartPath.isEmpty { charts.append((path: section.chartPath, svg: section.svg)) }
    }
    attach(L.statusTables, status)
    if report.trend.isEmpty {
      attach(L.trendTitle, L.trendEmpty + "\n\n")
    } else {
      let trend = TrendMarkdown.section(points: report.trend, labels: L, headingLevel: 0)
      attach(L.trendTitle, trend.markdown)
      charts.append((path: trend.chartPath, svg: trend.svg))
    }
    // The first round's statistics, which count ended programs too, come after the week.
    var whole = L.wholeCatalogNote + "\n\n"
    let sections = [
      groupSection(L.byCategory, L.category, t.byCategory, "by_category", t.total, options),
      report.district == nil
        ? groupSection(L.byDistrict, L.district, t.byDistrict, "by_district", t.total, options) : nil,
      bandSection(L.byFee, L.feeBand, t.byFee, L.feeBand(_:), "by_fee", t.total, L),
      bandSection(
        L.byDuration, L.durationBand, t.byDuration, L.durationBand(_:), "by_duration", t.total, L),
    ].compactMap { $0 }
    for section in sections {
      whole += section.markdown
      charts.append((path: section.chartPath, svg: section.svg))
    }
    if report.district == nil { whole += crossSection(t.categoryByDistrict, L) }
    attach(L.wholeCatalogTitle, whole)
    attach(L.quality, try qualitySection(report, L))
    attach(L.dataInformation, dataInformation(report, L))

    let page = pageOne(report, attachments: attachments.map(\.title), options)
    var md = page.markdown
    if let chart = page.chart { charts.insert(chart, at: 0) }
    for (n, a) in attachments.enumerated() {
      md += "## \(L.attachment(n + 1, a.title))\n\n" + a.body
    }
    md += footer(L)
    return Document(markdown: md, charts: charts)
  }

  /// `changes.md`, without touching the file system.
  public func renderComparison(
    _ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, options: ExportOptions
  ) -> String {
    let L = options.labels
    var md = "# \(L.changes) — #\(from.id) → #\(to.id)\n\n"
    md += "- **\(L.from)**: " + snapshotLine(from, L, withSource: true) + "\n"
    md += "- **\(L.to)**: " + snapshotLine(to, L, withSource: true) + "\n\n"
    md += changesBody(diff, day: to.koreaDay, limit: comparisonListLimit, L)
    md += footer(L)
    return md
  }

  // MARK: - Header and headline

  func snapshotLine(_ s: SnapshotInfo, _ L: ReportLabels, withSource: Bool) -> String {
    var parts = ["#\(s.id)", "\(L.takenAt) \(ReportTime.korea(s.takenAt))"]
    if withSource { parts.append("\(L.source) \(MarkdownText.inline(s.source))") }
    parts.append(L.programCountText(s.programCount))
    return parts.joined(separator: " · ")
  }

  func footer(_ L: ReportLabels) -> String {
    "---\n\n\(L.attribution)\n"
  }
}
