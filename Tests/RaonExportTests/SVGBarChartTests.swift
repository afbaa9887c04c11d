import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif
import RaonCore
import Testing

@testable import RaonDocument
@testable import RaonExport

@Suite struct SVGBarChartTests {
  func wellFormed(_ svg: String) -> Bool {
    XMLParser(data: Data(svg.utf8)).parse()
  }

  func width(_ svg: String) -> Int? {
    guard let r = svg.range(of: "width=\"") else { return nil }
    return Int(svg[r.upperBound...].prefix { $0.isNumber })
  }

  @Test func isWellFormedXMLWithEscapedText() {
    let svg = SVGBarChart(
      title: "A & B <차트>", bars: [.init(label: "\"<&>'\u{01}", value: 3), .init(label: "기타", value: 1, isOther: true)]
    ).render()
    #expect(wellFormed(svg))
    #expect(svg.contains("&quot;&lt;&amp;&gt;&apos; "))
    #expect(svg.contains("A &amp; B &lt;차트&gt;"))
  }

  @Test func koreanLabelsWidenTheLabelColumnTwiceAsMuchAsLatin() {
    let latin = SVGBarLayout(labels: [String(repeating: "a", count: 10)], values: ["1"], title: "t")
    let korean = SVGBarLayout(labels: [String(repeating: "가", count: 10)], values: ["1"], title: "t")
    #expect(latin.labelWidth == SVGChartFrame.pixels(10) && korean.labelWidth == SVGChartFrame.pixels(20))
    // The bars give way to the wider labels; the chart still fits the phone.
    #expect(korean.barWidth < latin.barWidth && korean.width <= SVGBarLayout.fitWidth)
  }

  @Test func readableInLightAndDarkThemes() {
    let svg = SVGBarChart(title: "분류별", bars: [.init(label: "전시", value: 2)]).render()
    #expect(!svg.contains("currentColor"))
    #expect(svg.contains("fill=\"#ffffff\""))  // its own light background
    #expect(svg.contains("'Noto Sans CJK KR', 'Malgun Gothic', 'Apple SD Gothic Neo', sans-serif"))
  }

  @Test func isDeterministicAndHandlesEmptyAndZero() {
    let bars: [SVGBarChart.Bar] = [.init(label: "a", value: 0), .init(label: "b", value: 7, valueText: "7 (100%)")]
    #expect(SVGBarChart(title: "x", bars: bars).render() == SVGBarChart(title: "x", bars: bars).render())
    let zero = SVGBarChart(title: "x", bars: [.init(label: "a", value: 0)]).render()
    #expect(wellFormed(zero) && zero.contains("width=\"0\" height=\"18\""))
    let empty = SVGBarChart(title: "x", bars: [], emptyText: "자료 없음").render()
    #expect(wellFormed(empty) && empty.contains(">자료 없음</text>"))
  }

  @Test func displayWidthCountsWideCharactersTwice() {
    #expect(DisplayWidth.of("강남구") == 6)
    #expect(DisplayWidth.of("Seoul") == 5)
    #expect(DisplayWidth.of("ＡＢ") == 4)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("\u{1100}\u{1161}") == 2)  // ᄀ + ᅡ: one syllable's width
    #expect(DisplayWidth.of("文化") == 4)
    #expect(DisplayWidth.truncate("가나다라", to: 5) == "가나…")
    #expect(DisplayWidth.truncate("abc", to: 5) == "abc")
  }
}
