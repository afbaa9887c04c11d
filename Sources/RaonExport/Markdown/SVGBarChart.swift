import RaonCore

/// A horizontal bar chart as a self-contained SVG document: values in, text out.
///
/// Made to be read where reports are read — GitHub and GitLab in light and dark themes,
/// browsers, and word processors — without external CSS or fonts:
/// - its own light, rounded background with dark text, so neither theme can make the
///   text vanish (nothing relies on `currentColor` or the page's colours);
/// - Korean-capable fonts first (`Noto Sans CJK KR`, `Malgun Gothic`,
///   `Apple SD Gothic Neo`, then `sans-serif`);
/// - label column widths from ``DisplayWidth``, where a Hangul syllable counts as two
///   Latin letters;
/// - deterministic output: the same bars give the same bytes.
///
/// ```swift
/// let svg = SVGBarChart(title: "분류별 (건수)", bars: [
///   .init(label: "전시/미술", value: 120, valueText: "120 (40%)"),
/// ]).render()
/// ```
public struct SVGBarChart: Sendable, Hashable {
  /// One bar.
  public struct Bar: Sendable, Hashable {
    public var label: String
    public var value: Int
    /// The text after the bar; the value with thousands separators when `nil`.
    public var valueText: String? = nil
    /// Drawn in grey: the sum of the groups not shown one by one.
    public var isOther = false
  }

  public var title: String
  public var bars: [Bar]
  /// Shown instead of bars when there are none.
  public var emptyText = "—"

  // Layout, in pixels (type and frame: ``SVGChartFrame``). A display column is 7.5 px at
  // 13 px type: Latin glyphs and digits average a little over half an em, Hangul a full em
  // (two columns); the margin keeps long labels inside the padding whichever font is used.
  private static let rowHeight = 26
  /// A row whose label takes two lines.
  private static let tallRowHeight = 38
  private static let barHeight = 18
  private static let barColor = "#3b6fb6"
  private static let otherColor = "#8c959f"

  /// The SVG document (UTF-8 text, ending in a newline).
  public func render() -> String {
    let p = SVGChartFrame.padding
    let layout = SVGBarLayout(labels: bars.map(\.label), values: bars.map { $0.valueText ?? $0.value.formatted() }, title: title)
    let rowHeight = layout.labels.contains { $0.lines.count > 1 } ? Self.tallRowHeight : Self.rowHeight
    let barX = layout.barX
    let rows = max(1, bars.count)
    let height = p + SVGChartFrame.titleHeight + rows * rowHeight + p - 6
    let maxValue = bars.map(\.value).max() ?? 0

    var out = SVGChartFrame.open(title: title, width: layout.width, height: height)

    let top = p + SVGChartFrame.titleHeight
    if bars.isEmpty {
      out += SVGChartFrame.text(emptyText, x: p, y: top + rowHeight / 2, " dy=\"0.35em\"")
    }
    for (i, bar) in bars.enumerated() {
      let y = top + i * rowHeight
      let center = y + rowHeight / 2
      let length: Double =
        maxValue > 0 ? Double(max(0, bar.value)) / Double(maxValue) * Double(layout.barWidth) : 0
      // A non-zero value always shows at least a sliver.
      let shown = bar.value > 0 ? max(1, length) : 0
      out += Self.label(layout.labels[i], full: bar.label, x: barX - 10, center: center)
      out += "    <rect x=\"\(barX)\" y=\"\(center - Self.barHeight / 2)\" width=\"\(SVGChartFrame.number(shown))\""
      out += " height=\"\(Self.barHeight)\" rx=\"3\" fill=\"\(bar.isOther ? Self.otherColor : Self.barColor)\"/>\n"
      out += SVGChartFrame.text(
        layout.values[i], x: SVGChartFrame.number(Double(barX) + shown + 6), y: center, " dy=\"0.35em\"")
    }
    out += SVGChartFrame.close
    return out
  }

  /// A bar's label, right-aligned before its bar: one line, or two around the bar's centre;
  /// a label cut to fit keeps its whole text in a `<title>` (a tooltip, read by screen readers).
  private static func label(_ label: SVGBarLayout.Label, full: String, x: Int, center: Int) -> String {
    let anchor = " dy=\"0.35em\" text-anchor=\"end\""
    guard label.lines.count > 1 else {
      return SVGChartFrame.text(label.lines.first ?? "", x: x, y: center, anchor)
    }
    var out = label.isCut ? "    <g><title>\(escape(full))</title>\n" : ""
    out += SVGChartFrame.text(label.lines[0], x: x, y: center - 8, anchor)
    out += SVGChartFrame.text(label.lines[1], x: x, y: center + 8, anchor)
    if label.isCut { out += "    </g>\n" }
    return out
  }

  /// Text safe in XML content and attribute values; control characters (not allowed in
  /// XML 1.0) become spaces.
  static func escape(_ text: String) -> String { xmlText(text) }

  private static let xmlText = ScalarEscaper(
    ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"],
    otherwise: { $0.value < 0x20 || $0.value == 0xFFFE || $0.value == 0xFFFF ? " " : nil })
}
