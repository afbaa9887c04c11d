import RaonCore
import Testing

@testable import RaonExport

/// A bar chart fits a phone 390 px wide (the page's 366 px at its 92 % zoom: a chart of at
/// most 396 px) with nothing cut: each label line inside the label column (Hangul two
/// columns, 7.5 px each), each bar and value inside the chart, and a label too long for
/// one line on two, its whole text kept. Checked on the labels the reports chart: Seoul's
/// 25 districts, the 시·도, and the national data's longest provider names.
@Suite struct SVGBarLayoutTests {
  static let districts = District.all
  static let provinces = [
    "서울특별시", "부산광역시", "대구광역시", "인천광역시", "광주광역시", "대전광역시", "울산광역시", "세종특별자치시", "경기도",
    "강원특별자치도", "충청북도", "충청남도", "전북특별자치도", "전라남도", "경상북도", "경상남도", "제주특별자치도", "기타 기관",
  ]
  static let providers = [
    "문화체육관광부 국립국악원", "대구광역시교육청 대구학생문화센터", "문화체육관광부 국립아시아문화전당",
    "제주특별자치도 서귀포시", "전북특별자치도 군산시", "국립박물관문화재단", "경상북도 안동시",
  ]
  /// The longest value text a report writes after a bar, and a short one.
  static let valueSets = [["12,345 (100.0%)", "1 (0.1%)"], ["8 (40.0%)", "1 (5.0%)"]]

  /// Every placement of `layout` inside its chart, in px (as ``SVGBarChart`` draws it).
  func check(_ layout: SVGBarLayout, _ labels: [String], _ values: [String]) {
    let p = SVGChartFrame.padding
    #expect(layout.width <= SVGBarLayout.fitWidth, "\(labels.first ?? ""): \(layout.width) px")
    #expect(layout.barWidth >= SVGBarLayout.minBarWidth)
    // A label line ends at barX - 10 (right-aligned) and starts no further left than the padding.
    for label in layout.labels {
      #expect(label.lines.count <= 2)
      for line in label.lines {
        #expect(SVGChartFrame.pixels(DisplayWidth.of(line)) <= layout.labelWidth, "\(line)")
      }
    }
    #expect(layout.barX - SVGBarLayout.labelGap - layout.labelWidth >= p)
    // The longest bar's value ends inside the padding.
    let valueWidth = values.map { SVGChartFrame.pixels(DisplayWidth.of($0)) }.max() ?? 0
    #expect(layout.barX + layout.barWidth + 6 + valueWidth <= layout.width - p)
    // A label on two lines keeps all its text, unless it says it was cut.
    for (label, text) in zip(layout.labels, labels) where !label.isCut {
      #expect(label.lines.joined(separator: " ").replacingOccurrences(of: "  ", with: " ") == text
        || label.lines.joined() == text, "\(label.lines) ≠ \(text)")
    }
  }

  @Test func theReportsChartsFitAPhoneWithNothingCut() {
    for labels in [Self.districts, Self.provinces, Self.providers] {
      for values in Self.valueSets {
        let shown = Array(repeating: values, count: labels.count).flatMap { $0 }.prefix(labels.count)
        let layout = SVGBarLayout(labels: labels, values: Array(shown), title: "이번 주 운영 — 제공기관별 (건수)")
        check(layout, labels, Array(shown))
      }
    }
  }

  @Test func aLongLabelTakesTwoLinesBrokenAtASpaceAndAnOverlongOneKeepsItsTitle() {
    let layout = SVGBarLayout(labels: ["대구광역시교육청 대구학생문화센터"], values: ["12,345 (100.0%)"], title: "t")
    #expect(layout.labels[0].lines == ["대구광역시교육청", "대구학생문화센터"])
    #expect(!layout.labels[0].isCut)
    let overlong = String(repeating: "가", count: 40)
    let cut = SVGBarLayout(labels: [overlong], values: ["1"], title: "t")
    #expect(cut.labels[0].isCut && cut.labels[0].lines[1].hasSuffix("…"))
    check(cut, [overlong], ["1"])
    let svg = SVGBarChart(title: "t", bars: [.init(label: overlong, value: 1)]).render()
    #expect(svg.contains("<title>\(overlong)</title>"))
    // A short label stays on one line, and a chart of short labels keeps long bars.
    let short = SVGBarLayout(labels: ["종로구", "중구"], values: ["1 (50.0%)", "1 (50.0%)"], title: "t")
    #expect(short.labels.allSatisfy { $0.lines.count == 1 } && short.barWidth >= 200)
  }
}
