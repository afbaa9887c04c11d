import RaonCore
import Testing

@Suite struct ProgramIDTests {
  @Test func takesTheCultcodeFromThePortalURL() {
    let url = "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=149289&menuNo=200008"
    #expect(ProgramID.fromPortalURL(url) == "cult:149289")
    #expect(ProgramID.fromPortalURL("cultcode=7") == "cult:7")
    #expect(ProgramID.fromPortalURL("...?menuNo=1&cultcode=000123") == "cult:000123")
  }

  @Test(arguments: ["", "https://culture.seoul.go.kr/view.do?menuNo=200008", "cultcode=", "cultcode=abc", "cultcod=123"])
  func findsNoIDWithoutACultcode(url: String) {
    #expect(ProgramID.fromPortalURL(url) == nil)
  }

  // Expected ids computed independently with Python:
  // "h:" + hashlib.sha256(f"{title}\x1f{place}\x1f{start}".encode()).hexdigest()[:16]
  @Test func hashesTitlePlaceAndStartDateForTheFallbackID() {
    let start = CalendarDay(year: 2024, month: 12, day: 22)
    #expect(ProgramID.hashed(title: "테스트 공연", place: "세종대극장", startDate: start) == "h:c79e5db2617783ba")
    #expect(ProgramID.hashed(title: "테스트 공연", place: "세종대극장", startDate: nil) == "h:9ed822fe5e3596a1")
    #expect(ProgramID.hashed(title: "", place: "", startDate: nil) == "h:b8c9e440ead3ddac")
  }
}
