import RaonDocument

/// A chart's image, drawn from its description: bars by ``SVGBarChart``, lines by
/// ``SVGLineChart`` (a series of a much wider scale than its panel's others is left out
/// of the image: ``Chart/Series/isWideScale``).
enum SVGChart {
  static func draw(_ chart: Chart) -> String {
    switch chart.content {
    case .bars(let bars):
      return SVGBarChart(
        title: chart.title, bars: bars.bars.map { .init(label: $0.label, value: $0.value, valueText: $0.valueText) },
        emptyText: chart.emptyText
      ).render()
    case .lines(let lines):
      return SVGLineChart(
        title: chart.title, xLabels: lines.xLabels,
        panels: lines.panels.map { panel in
          .init(
            title: panel.title,
            series: panel.series.filter { !$0.isWideScale }.map { .init(name: $0.name, values: $0.values) })
        },
        emptyText: chart.emptyText
      ).render()
    }
  }
}
