import RaonAnalytics
import RaonCore

/// The weekly trend in Markdown: a table and a line chart (SVG), the same in `trend.md`
/// and in the weekly report's trend section.
///
/// ```swift
/// let section = TrendMarkdown.section(points: trend, labels: options.labels)
/// md += section.markdown                   // links charts/trend.svg
/// charts.append((path: section.chartPath, svg: section.svg))
/// ```
public enum TrendMarkdown {
  /// Where the chart goes, relative to the Markdown file.
  public static let chartPath = "charts/trend.svg"

  /// The trend section: heading, what the figures count, the range, the chart and the table.
  ///
  /// - Parameters:
  ///   - points: The trend, oldest first (``WeeklyTrend/points(_:)``).
  ///   - labels: The report's words.
  ///   - headingLevel: 2 for `## 추이` (a report's section), 1 for a document's title.
  ///   - chartPath: The chart's path relative to the Markdown file.
  /// - Returns: The Markdown (ending in a blank line), the chart's path and its SVG.
  public static func section(
    points: [WeeklyTrendPoint], labels: ReportLabels, headingLevel: Int = 2,
    chartPath: String = TrendMarkdown.chartPath
  ) -> (markdown: String, chartPath: String, svg: String) {
    let L = labels
    var md = String(repeating: "#", count: max(1, headingLevel)) + " \(L.trendTitle)\n\n"
    md += MarkdownText.inline(L.trendDefinition) + "\n\n"
    let svg = chart(points: points, labels: L)
    guard let first = points.first, let last = points.last else {
      md += L.trendEmpty + "\n\n"
      return (md, chartPath, svg)
    }
    md += L.trendRange(
      from: first.isoWeek.description, to: last.isoWeek.description, weeks: points.count)
    md += "\n\n"
    md +=
      "![\(MarkdownText.inline(L.trendChartTitle(from: first.isoWeek.description, to: last.isoWeek.description)))](\(chartPath))\n\n"
    md += table(points: points, labels: L)
    md += "\n"
    return (md, chartPath, svg)
  }

  /// The table alone: week, snapshot (#id, day in Korea), then the figures; added and
  /// removed are `—` for the first point.
  public static func table(points: [WeeklyTrendPoint], labels L: ReportLabels) -> String {
    var table = MarkdownTable(
      [(L.trendWeekColumn, .left), (L.trendSnapshotColumn, .left)]
        + L.trendFigureHeaders.map { ($0, MarkdownTable.Alignment.right) })
    for point in points {
      table.add(
        [
          point.isoWeek.description,
          "#\(point.snapshotId) · \(CalendarDay(koreaDateOf: point.takenAt))",
          point.programCount.formatted(), point.current.formatted(), point.running.formatted(),
          point.starting.formatted(), point.registered.formatted(),
          point.added.map { $0.formatted() } ?? "—", point.removed.map { $0.formatted() } ?? "—",
        ])
    }
    return table.render()
  }

  /// The line chart: programs, current and running in one panel; starting, registered,
  /// added and removed (weekly flows, much smaller) in a second.
  public static func chart(points: [WeeklyTrendPoint], labels L: ReportLabels) -> String {
    let title =
      points.isEmpty
      ? L.trendTitle
      : L.trendChartTitle(
        from: points[0].isoWeek.description, to: points[points.count - 1].isoWeek.description)
    return SVGLineChart(
      title: title, xLabels: points.map(\.isoWeek.description),
      panels: [
        .init(
          title: L.trendSizePanel,
          series: [
            .init(name: L.trendProgramCount, values: points.map(\.programCount)),
            .init(name: L.trendCurrent, values: points.map(\.current)),
            .init(name: L.trendRunning, values: points.map(\.running)),
          ]),
        .init(
          title: L.trendFlowPanel,
          series: [
            .init(name: L.trendStarting, values: points.map(\.starting)),
            .init(name: L.trendRegistered, values: points.map(\.registered)),
            .init(name: L.trendAdded, values: points.map(\.added)),
            .init(name: L.trendRemoved, values: points.map(\.removed)),
          ]),
      ], emptyText: L.trendEmpty
    ).render()
  }

  /// `trend.md`: the trend as a document of its own, with the attribution.
  public static func document(points: [WeeklyTrendPoint], labels L: ReportLabels) -> (
    markdown: String, chartPath: String, svg: String
  ) {
    var document = Self.section(points: points, labels: L, headingLevel: 2)
    document.markdown =
      "# \(L.trendDocumentTitle)\n\n" + document.markdown + "---\n\n\(L.attribution)\n"
    return document
  }
}
