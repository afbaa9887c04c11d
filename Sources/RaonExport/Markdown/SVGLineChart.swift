import RaonCore
import RaonDocument

/// A line chart as a self-contained SVG document, in one or more panels stacked
/// vertically that share the x axis: values in, text out.
///
/// Made for the same readers as ``SVGBarChart`` and drawn the same way: its own white,
/// rounded background with dark text (readable in light and dark themes), Korean-capable
/// fonts first, label widths from ``DisplayWidth``, and the same bytes for the same
/// values. Each panel has its own y axis from 0, so series of very different sizes (a
/// catalog of 20,000 and the 300 programs starting this week) go to different panels
/// rather than flatten each other.
///
/// ```swift
/// let svg = SVGLineChart(
///   title: "추이", xLabels: ["2024-W36", "2024-W37"],
///   panels: [.init(title: "프로그램 수", series: [.init(name: "전체", values: [4_990, 4_998])])]
/// ).render()
/// ```
public struct SVGLineChart: Sendable, Hashable {
  /// One line: a value per x label; `nil` leaves a gap.
  public struct Series: Sendable, Hashable {
    public var name: String
    public var values: [Int?]
  }

  /// One plot with its own y axis.
  public struct Panel: Sendable, Hashable {
    public var title: String
    public var series: [Series]
  }

  public var title: String
  public var xLabels: [String]
  public var panels: [Panel]
  /// Shown instead of the plots when there is no x label.
  public var emptyText = "—"

  // Layout, in pixels (a display column is 7.5 px at 13 px type, as in SVGBarChart).
  private static let smallSize = 12
  private static let panelTitleHeight = 22
  private static let legendHeight = 22
  private static let plotHeight = 130
  private static let xLabelHeight = 30
  private static let panelGap = 14
  private static let mutedColor = "#57606a"
  private static let gridColor = "#d8dee4"
  private static let axisColor = "#8c959f"
  /// Distinct on white and for the common colour-vision deficiencies (Okabe–Ito based).
  static let palette = [
    "#0b5cad", "#d55e00", "#009e73", "#8250df", "#cc3d7a", "#8a6a00", "#57606a",
  ]

  /// The SVG document (UTF-8 text, ending in a newline).
  public func render() -> String {
    let p = SVGChartFrame.padding
    let n = xLabels.count
    let tickTexts = panels.map { Self.ticks(max: Self.maxValue($0)).map { $0.formatted() } }
    let tickWidth = tickTexts.flatMap { $0 }.map { DisplayWidth.of($0) }.max() ?? 1
    let plotX = p + SVGChartFrame.pixels(tickWidth) + 10
    // The points fill the plot: 80 px apart up to 940 px wide, closer beyond that.
    let plotWidth = min(940, max(480, 80 * max(n - 1, 0) + 72))
    let spacing = n > 1 ? Double(plotWidth - 72) / Double(n - 1) : 0
    let legendWidths = panels.map { panel in
      panel.series.reduce(0) { $0 + 28 + SVGChartFrame.pixels(DisplayWidth.of($1.name)) + 14 }
    }
    let titleWidth = DisplayWidth.of(title) * 9
    let panelTitleWidth = panels.map { DisplayWidth.of($0.title) * 8 }.max() ?? 0
    let width = max(
      plotX + plotWidth + p, titleWidth + 2 * p, (legendWidths.max() ?? 0) + plotX + p,
      panelTitleWidth + plotX + p)
    let panelHeight =
      Self.panelTitleHeight + Self.legendHeight + Self.plotHeight + Self.xLabelHeight
    let body =
      n == 0 || panels.isEmpty
      ? 30 : panels.count * panelHeight + (panels.count - 1) * Self.panelGap
    let height = p + SVGChartFrame.titleHeight + body + p - 4

    var out = SVGChartFrame.open(title: title, width: width, height: height)
    let top = p + SVGChartFrame.titleHeight
    if n == 0 || panels.isEmpty {
      out += SVGChartFrame.text(emptyText, x: p, y: top + 12, " dy=\"0.35em\"")
      out += SVGChartFrame.close
      return out
    }
    // x of point i: the first and last points sit 36 px inside the plot's edges, room for
    // half a week label.
    let x: (Int) -> Double = { i in
      n == 1 ? Double(plotX) + Double(plotWidth) / 2 : Double(plotX + 36) + spacing * Double(i)
    }
    let labelStep = n > 1 ? max(1, Int((76.0 / spacing).rounded(.up))) : 1
    for (k, panel) in panels.enumerated() {
      let panelTop = top + k * (panelHeight + Self.panelGap)
      out += SVGChartFrame.text(panel.title, x: plotX, y: panelTop + 14, " font-weight=\"bold\"")
      // Legend: a short line in the series' colour, then its name.
      var lx = plotX
      let ly = panelTop + Self.panelTitleHeight + 10
      for (s, series) in panel.series.enumerated() {
        let color = Self.palette[s % Self.palette.count]
        out +=
          "    <line x1=\"\(lx)\" y1=\"\(ly)\" x2=\"\(lx + 22)\" y2=\"\(ly)\" stroke=\"\(color)\""
        out += " stroke-width=\"3\"\(Self.dash(s))/>\n"
        out += SVGChartFrame.text(series.name, x: lx + 28, y: ly, " dy=\"0.35em\" font-size=\"\(Self.smallSize)\"")
        lx += 28 + SVGChartFrame.pixels(DisplayWidth.of(series.name)) + 14
      }
      let plotTop = panelTop + Self.panelTitleHeight + Self.legendHeight
      let plotBottom = plotTop + Self.plotHeight
      let ticks = Self.ticks(max: Self.maxValue(panel))
      let yMax = Double(ticks.last ?? 1)
      let y: (Int) -> Double = { v in
        Double(plotBottom) - Double(v) / max(yMax, 1) * Double(Self.plotHeight)
      }
      for (t, tick) in ticks.enumerated() {
        let ty = SVGChartFrame.number(y(tick))
        out += "    <line x1=\"\(plotX)\" y1=\"\(ty)\" x2=\"\(plotX + plotWidth)\" y2=\"\(ty)\""
        out += " stroke=\"\(t == 0 ? Self.axisColor : Self.gridColor)\" stroke-width=\"1\"/>\n"
        out += SVGChartFrame.text(
          tick.formatted(), x: plotX - 8, y: ty,
          " dy=\"0.35em\" text-anchor=\"end\" font-size=\"\(Self.smallSize)\" fill=\"\(Self.mutedColor)\"")
      }
      // x labels: every labelStep-th week, the last one always.
      for i in 0..<n where i % labelStep == 0 || i == n - 1 {
        if i != 0, i != n - 1, n - 1 - i < labelStep { continue }
        let tx = SVGChartFrame.number(x(i))
        out += "    <line x1=\"\(tx)\" y1=\"\(plotBottom)\" x2=\"\(tx)\" y2=\"\(plotBottom + 4)\""
        out += " stroke=\"\(Self.axisColor)\" stroke-width=\"1\"/>\n"
        out += SVGChartFrame.text(
          xLabels[i], x: tx, y: plotBottom + 18,
          " text-anchor=\"middle\" font-size=\"\(Self.smallSize)\" fill=\"\(Self.mutedColor)\"")
      }
      for (s, series) in panel.series.enumerated() {
        let color = Self.palette[s % Self.palette.count]
        // Runs of known values become polylines; a nil breaks the line.
        var run: [String] = []
        func flush() {
          if run.count > 1 {
            out += "    <polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\"\(Self.dash(s))"
            out += " stroke-linejoin=\"round\" points=\"\(run.joined(separator: " "))\"/>\n"
          }
          run.removeAll()
        }
        for i in 0..<min(n, series.values.count) {
          guard let v = series.values[i] else {
            flush()
            continue
          }
          run.append("\(SVGChartFrame.number(x(i))),\(SVGChartFrame.number(y(max(0, v))))")
        }
        flush()
        if n <= 60 {
          for i in 0..<min(n, series.values.count) {
            guard let v = series.values[i] else { continue }
            out +=
              "    <circle cx=\"\(SVGChartFrame.number(x(i)))\" cy=\"\(SVGChartFrame.number(y(max(0, v))))\" r=\"3\""
            out +=
              " fill=\"\(color)\"><title>\(SVGBarChart.escape("\(series.name) \(xLabels[i]): \(v.formatted())"))</title></circle>\n"
          }
        }
      }
    }
    out += SVGChartFrame.close
    return out
  }

  /// The line style of a panel's `s`-th series: solid, then dashes of different lengths,
  /// so lines that coincide (registered and added, in a weekly history) both stay visible
  /// and the legend tells them apart without colour.
  private static func dash(_ s: Int) -> String {
    let patterns = ["", "7 4", "2 3", "10 3 2 3"]
    let pattern = patterns[s % patterns.count]
    return pattern.isEmpty ? "" : " stroke-dasharray=\"\(pattern)\""
  }

  private static func maxValue(_ panel: Panel) -> Int {
    panel.series.flatMap { $0.values.compactMap { $0 } }.max() ?? 0
  }

  /// Round tick values from 0 to at least `max`: steps of 1, 2 or 5 × 10ⁿ, at most 6 ticks.
  static func ticks(max value: Int) -> [Int] {
    guard value > 0 else { return [0, 1] }
    var step = 1
    while true {
      for m in [1, 2, 5] {
        let s = step * m
        if (value + s - 1) / s <= 5 {
          let top = (value + s - 1) / s * s
          return Array(stride(from: 0, through: top, by: s))
        }
      }
      step *= 10
    }
  }
}
