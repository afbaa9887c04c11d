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
  private static let barHeight = 18
  private static let barMaxWidth = 360
  private static let maxLabelColumns = 28
  private static let barColor = "#3b6fb6"
  private static let otherColor = "#8c959f"

  /// The SVG document (UTF-8 text, ending in a newline).
  public func render() -> String {
    let p = SVGChartFrame.padding
    let labels = bars.map { DisplayWidth.truncate($0.label, to: Self.maxLabelColumns) }
    let values = bars.map { $0.valueText ?? $0.value.formatted() }
    let labelWidth = max(40, SVGChartFrame.pixels(labels.map { DisplayWidth.of($0) }.max() ?? 0))
    let valueWidth = max(24, SVGChartFrame.pixels(values.map { DisplayWidth.of($0) }.max() ?? 0))
    let titleWidth = DisplayWidth.of(title) * 9  // bold, larger type
    let barX = p + labelWidth + 10
    let width = max(barX + Self.barMaxWidth + 8 + valueWidth + p, titleWidth + 2 * p)
    let rows = max(1, bars.count)
    let height = p + SVGChartFrame.titleHeight + rows * Self.rowHeight + p - 6
    let maxValue = bars.map(\.value).max() ?? 0

    var out = SVGChartFrame.open(title: title, width: width, height: height)

    let top = p + SVGChartFrame.titleHeight
    if bars.isEmpty {
      out += SVGChartFrame.text(emptyText, x: p, y: top + Self.rowHeight / 2, " dy=\"0.35em\"")
    }
    for (i, bar) in bars.enumerated() {
      let y = top + i * Self.rowHeight
      let center = y + Self.rowHeight / 2
      let length: Double =
        maxValue > 0 ? Double(max(0, bar.value)) / Double(maxValue) * Double(Self.barMaxWidth) : 0
      // A non-zero value always shows at least a sliver.
      let shown = bar.value > 0 ? max(1, length) : 0
      out += SVGChartFrame.text(labels[i], x: barX - 10, y: center, " dy=\"0.35em\" text-anchor=\"end\"")
      out += "    <rect x=\"\(barX)\" y=\"\(center - Self.barHeight / 2)\" width=\"\(SVGChartFrame.number(shown))\""
      out += " height=\"\(Self.barHeight)\" rx=\"3\" fill=\"\(bar.isOther ? Self.otherColor : Self.barColor)\"/>\n"
      out += SVGChartFrame.text(values[i], x: SVGChartFrame.number(Double(barX) + shown + 6), y: center, " dy=\"0.35em\"")
    }
    out += SVGChartFrame.close
    return out
  }

  /// Text safe in XML content and attribute values; control characters (not allowed in
  /// XML 1.0) become spaces.
  static func escape(_ text: String) -> String { xmlText(text) }

  private static let xmlText = ScalarEscaper(
    ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"],
    otherwise: { $0.value < 0x20 || $0.value == 0xFFFE || $0.value == 0xFFFF ? " " : nil })
}
