import RaonCore
import RaonDocument

/// What Raon's SVG charts (``SVGBarChart``, ``SVGLineChart``) share, so they look and
/// measure alike: the type, the padding, the light rounded frame with a bold title, and
/// how widths and coordinates are written. Deterministic: the same input, the same bytes.
enum SVGChartFrame {
  static let fontSize = 13
  static let titleSize = 15
  static let padding = 16
  /// The room the title line takes above the chart's body.
  static let titleHeight = 30
  static let fonts = "'Noto Sans CJK KR', 'Malgun Gothic', 'Apple SD Gothic Neo', sans-serif"
  static let textColor = "#1f2328"
  /// The end of every chart: the text group and the document.
  static let close = "  </g>\n</svg>\n"

  /// The start of a chart `width` × `height` px: the `<svg>` element named by `title`, a
  /// white rounded background (so no page theme can hide the text), the text group in the
  /// charts' fonts, and the title line. The caller draws inside and ends with ``close``.
  static func open(title: String, width: Int, height: Int) -> String {
    let p = padding
    let name = SVGBarChart.escape(title)
    var out = ""
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
    out += " viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(name)\">\n"
    out += "  <title>\(name)</title>\n"
    out += "  <rect x=\"0.5\" y=\"0.5\" width=\"\(width - 1)\" height=\"\(height - 1)\" rx=\"8\""
    out += " fill=\"#ffffff\" stroke=\"#d0d7de\"/>\n"
    out += "  <g font-family=\"\(fonts)\" font-size=\"\(fontSize)\" fill=\"\(textColor)\">\n"
    out += text(title, x: p, y: p + 16, " font-size=\"\(titleSize)\" font-weight=\"bold\"")
    return out
  }

  /// A `<text>` line at (`x`, `y`) with more `attributes` (each after a space), its
  /// content escaped.
  static func text(
    _ content: String, x: some CustomStringConvertible, y: some CustomStringConvertible, _ attributes: String = ""
  ) -> String {
    "    <text x=\"\(x)\" y=\"\(y)\"\(attributes)>\(SVGBarChart.escape(content))</text>\n"
  }

  /// The width of `columns` display columns (``DisplayWidth``), rounded up to whole pixels:
  /// a column is 7.5 px at 13 px type.
  static func pixels(_ columns: Int) -> Int { (columns * 15 + 1) / 2 }

  /// Coordinates with at most one decimal, never in exponent form.
  static func number(_ value: Double) -> String {
    DecimalText.shortest((value * 10).rounded() / 10) ?? "0"
  }
}
