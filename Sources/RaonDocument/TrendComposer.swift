import RaonAnalytics
import RaonCore

/// The weekly trend as a document's part: what a point counts, the range, a line chart
/// and the table — the same in `trend.md`, the weekly report's attachment and the site.
public enum TrendComposer {
  /// `raon trend`'s document: the trend as a section of its own, with the attribution.
  static func report(_ points: [WeeklyTrendPoint], labels L: ReportLabels) -> TrendReport {
    let chart = chart(points, labels: L)
    let document = Document(
      language: L.language, title: L.trendDocumentTitle, period: "",
      front: [], sections: [Section(title: L.trendTitle, blocks: blocks(points, chart: chart, labels: L))],
      closing: L.attribution, charts: [chart])
    return TrendReport(points: points, document: document, chart: chart)
  }

  /// The trend's blocks: what the figures count, then (when there is a point) the range,
  /// the chart and the table.
  public static func blocks(_ points: [WeeklyTrendPoint], chart: Chart, labels L: ReportLabels) -> [Block] {
    let definition = Block.paragraph([.text(L.trendDefinition)])
    guard let first = points.first, let last = points.last else {
      return [definition, .paragraph([.text(L.trendEmpty)])]
    }
    return [
      definition,
      .paragraph([.text(L.trendRange(from: weekText(first, L), to: weekText(last, L), weeks: points.count))]),
      .chart(chart),
      .table(table(points, labels: L)),
    ]
  }

  /// The table: the week (its dates), the day the data was collected, then the figures;
  /// added and removed are `—` for the first point. Snapshot ids and ISO week codes stay
  /// in the CSV, JSON and workbook.
  public static func table(_ points: [WeeklyTrendPoint], labels L: ReportLabels) -> Table {
    var table = Table(
      [Table.Column(L.trendWeekTitle, .left), Table.Column(L.trendCollectedOn, .left)]
        + L.trendFigureHeaders.map { Table.Column($0, .right) })
    for point in points {
      let collected = CalendarDay(koreaDateOf: point.takenAt)
      table.add([
        .text(weekText(point, L)), .text(OfficialDates.programDates(collected, collected, L.language)),
        .number(point.programCount), .number(point.current), .number(point.running), .number(point.starting),
        .number(point.registered), point.added.map { .number($0) } ?? .text("—"),
        point.removed.map { .number($0) } ?? .text("—"),
      ])
    }
    return table
  }

  /// The line chart: current and running in one panel, the catalog's size beside them (a
  /// much larger figure, which an image leaves out: ``Chart/Series/isWideScale``);
  /// starting, registered, added and removed (weekly flows, much smaller) in a second.
  public static func chart(_ points: [WeeklyTrendPoint], labels L: ReportLabels) -> Chart {
    let title =
      points.isEmpty
      ? L.trendTitle
      : L.trendChartTitle(from: weekText(points[0], L), to: weekText(points[points.count - 1], L))
    let lines = Chart.Lines(
      xLabels: points.map { mondayText($0.isoWeek, L) }, xCodes: points.map(\.isoWeek.description),
      panels: [
        Chart.Panel(
          title: L.trendSizePanel,
          series: [
            Chart.Series(name: L.trendProgramCount, values: points.map(\.programCount), isWideScale: true),
            Chart.Series(name: L.trendCurrent, values: points.map(\.current)),
            Chart.Series(name: L.trendRunning, values: points.map(\.running)),
          ]),
        Chart.Panel(
          title: L.trendFlowPanel,
          series: [
            Chart.Series(name: L.trendStarting, values: points.map(\.starting)),
            Chart.Series(name: L.trendRegistered, values: points.map(\.registered)),
            Chart.Series(name: L.trendAdded, values: points.map(\.added)),
            Chart.Series(name: L.trendRemoved, values: points.map(\.removed)),
          ]),
      ])
    return Chart(file: "trend", title: title, alt: title, emptyText: L.trendEmpty, content: .lines(lines))
  }

  /// A point's week as people write it: `2024. 9. 9. ~ 9. 15.`.
  static func weekText(_ point: WeeklyTrendPoint, _ L: ReportLabels) -> String {
    OfficialDates.programDates(point.isoWeek.start, point.isoWeek.end, L.language)
  }

  /// A week on the chart's axis, by its Monday: `9. 9.` / `9 Sep`.
  static func mondayText(_ week: ISOWeek, _ L: ReportLabels) -> String {
    let monday = week.start
    return L.language == .ko ? "\(monday.month).\u{A0}\(monday.day)." : OfficialDates.dayMonth(monday)
  }
}
