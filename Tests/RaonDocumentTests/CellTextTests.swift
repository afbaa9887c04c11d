import RaonDocument
import Testing

/// A table cell reads one way whatever renders it: the rules written out by hand.
struct CellTextTests {
  @Test func numbersSharesAndChangesReadAsTheReportWritesThem() {
    #expect(Cell.number(1_234_567).text == "1,234,567")
    #expect(Cell.number(-7).text == "-7")
    #expect(Cell.share(1, of: 3).text == "33.3%")
    #expect(Cell.share(0, of: 0).text == "–")
    #expect(Cell.percent(0.0435).text == "4.4%")
    #expect(Cell.decimal(12.25).text == "12.3")
    #expect(Cell.decimal(1_000).text == "1,000")
    #expect(Cell.decimal(nil).text == "—")
    #expect(Cell.change(5).text == "▲ 5")
    #expect(Cell.change(-1_200).text == "▼ 1,200")
    #expect(Cell.change(0).text == "0")
    #expect(Cell.pointChange(0.016, suffix: "%p").text == "▲ 1.6%p")
    #expect(Cell.pointChange(-0.004, suffix: " pp").text == "▼ 0.4 pp")
    #expect(Cell.pointChange(0.00001, suffix: "%p").text == "0.0%p")
    #expect(Cell.pointChange(nil, suffix: "%p").text == "–")
    #expect(Cell.strong(.number(12)).text == "12")
  }

  /// Only a page of the portal becomes a link; any other address stays text.
  @Test func onlyPortalPagesAreLinked() {
    let portal = "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=1"
    #expect(Cell.portalLink("공연", url: portal) == .link(.link("공연", url: portal)))
    #expect(Cell.portalLink("공연", url: "https://example.com/?cultcode=1") == .link(.text("공연")))
    #expect(Inline.portalLink("", url: portal) == .link(portal, url: portal))
    #expect(Cell.portalLink("공연", url: portal).text == "공연")
  }
}
