import RaonCore
import Testing

/// An end date no one can mean, and a fee text that names no fee: the two rules read off a
/// held-out week (an event "running" until 2205-11-23; 171 paid programs of the sample whose
/// fee says 홈페이지 참고 or 프로그램별 상이).
@Suite struct PlausibilityTests {
  private func day(_ text: String) -> CalendarDay { CatalogDateParser.day(from: text)! }

  @Test func anEndCenturiesAfterTheStartIsATypo() {
    #expect(ImplausibleEnd.isImplausible(start: day("2025-11-23"), end: day("2205-11-23")))
    #expect(ImplausibleEnd.isImplausible(start: day("2024-01-01"), end: day("2045-01-01")))  // 21 years
    #expect(!ImplausibleEnd.isImplausible(start: day("2024-01-01"), end: day("2044-12-30")))  // 20 years
    #expect(!ImplausibleEnd.isImplausible(start: day("2023-12-01"), end: day("2026-09-29")))  // the sample's longest
    #expect(ImplausibleEnd.isImplausible(start: nil, end: day("2205-11-23")))
    #expect(!ImplausibleEnd.isImplausible(start: nil, end: day("2090-01-01")))
    #expect(!ImplausibleEnd.isImplausible(start: day("2025-01-01"), end: nil))
  }

  @Test func theOpenEndConventionsAreMeant() {
    for end in ["2099-12-31", "2999-12-31", "9999-12-31"] {
      #expect(!ImplausibleEnd.isImplausible(start: day("2023-10-06"), end: day(end)), "\(end)")
    }
    // The same years on another day are not a convention.
    #expect(ImplausibleEnd.isImplausible(start: day("2023-10-06"), end: day("2099-11-30")))
  }

  @Test func aFeeTextWithWordsAndNoAmountStatesNoFee() {
    for text in ["홈페이지 참조", "프로그램별 상이", "전석 초대", "See the website"] {
      #expect(FeeParser.statesNoAmount(text, amounts: FeeParser.range(in: text)), "\(text)")
    }
    for text in ["", "-", "무료", "전석 무료", "Free admission", "10,000원", "전석 5천원", "0"] {
      #expect(!FeeParser.statesNoAmount(text, amounts: FeeParser.range(in: text)), "\(text)")
    }
  }
}
