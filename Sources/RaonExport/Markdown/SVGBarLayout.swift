import Foundation
import RaonCore

/// Where a bar chart's parts go (``SVGBarChart``), worked out from its texts alone (pure):
/// the chart fits a phone 390 px wide — the page's 366 px at the phone's 92 % zoom
/// (``HTMLStyle``) — so no bar, label or value is cut off there.
///
/// The label column is as wide as the longest label (``DisplayWidth``: a Hangul syllable is
/// two columns, 7.5 px each at 13 px type) up to what leaves the bars ``minBarWidth``; a
/// longer label takes two lines (broken at a space where one fits), and what still does not
/// fit ends in `…` (the chart keeps the whole label in a `<title>`). The bars take the
/// rest, up to ``maxBarWidth``.
struct SVGBarLayout: Equatable {
  /// A chart at most this wide fits the phone.
  static let fitWidth = 396
  static let minBarWidth = 100
  static let maxBarWidth = 360
  /// Between the label column and the bars, and between a bar and its value.
  static let labelGap = 10
  static let valueGap = 8

  struct Label: Equatable {
    /// One line, or two.
    var lines: [String]
    /// Whether a part of the label is left out (the lines end in `…`).
    var isCut: Bool
  }

  var labels: [Label]
  var values: [String]
  /// The label column's width in px (the longest line's).
  var labelWidth: Int
  var barWidth: Int
  var width: Int

  var barX: Int { SVGChartFrame.padding + labelWidth + Self.labelGap }

  init(labels: [String], values: [String], title: String) {
    let p = SVGChartFrame.padding
    self.values = values
    let valueWidth = max(24, SVGChartFrame.pixels(values.map { DisplayWidth.of($0) }.max() ?? 0))
    let room = Self.fitWidth - 2 * p - Self.labelGap - Self.minBarWidth - Self.valueGap - valueWidth
    // Columns of a label line: 7.5 px each (at least 8, so a line is never a stub).
    let columns = max(8, room * 2 / 15)
    self.labels = labels.map { Self.lines($0, columns: columns) }
    let longest = self.labels.flatMap(\.lines).map { DisplayWidth.of($0) }.max() ?? 0
    labelWidth = max(40, SVGChartFrame.pixels(longest))
    let fixed = 2 * p + labelWidth + Self.labelGap + Self.valueGap + valueWidth
    barWidth = min(Self.maxBarWidth, max(Self.minBarWidth, Self.fitWidth - fixed))
    let titleWidth = DisplayWidth.of(title) * 9  // bold, larger type
    width = max(fixed + barWidth, titleWidth + 2 * p)
  }

  /// `text` in lines of at most `columns`: one when it fits; else two, the first broken at
  /// its last space that fits (else at the column), the second cut with `…` if need be.
  static func lines(_ text: String, columns: Int) -> Label {
    guard DisplayWidth.of(text) > columns else { return Label(lines: [text], isCut: false) }
    var width = 0
    var lastSpace: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let w = DisplayWidth.of(String(text[index]))
      if width + w > columns { break }
      if text[index] == " " { lastSpace = index }
      width += w
      index = text.index(after: index)
    }
    var breakAt = index
    if let lastSpace, lastSpace > text.startIndex { breakAt = lastSpace }
    let first = String(text[..<breakAt])
    let rest = String(text[breakAt...]).trimmingCharacters(in: .whitespaces)
    let second = DisplayWidth.truncate(rest, to: columns)
    return Label(lines: [first, second], isCut: second != rest)
  }
}
