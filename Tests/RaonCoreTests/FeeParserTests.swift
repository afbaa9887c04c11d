@testable import RaonCore
import Testing

@Suite struct FeeParserTests {
  // Every fee text the data README quotes from the real 2024-09-09 download.
  @Test(arguments: [
    ("전석 20,000원", FeeRange(min: 20_000, max: 20_000)),
    ("R석 11만원 /S석 9만원 /A석 7만원 /B석 5만원 /C석 4만원", FeeRange(min: 40_000, max: 110_000)),
    ("21만원", FeeRange(min: 210_000, max: 210_000)),
    ("관람료 선택제 1,000원 3,000원 5,000원 10,000원", FeeRange(min: 1_000, max: 10_000)),
  ])
  func readsTheRealFeeTextsOfTheSample(text: String, expected: FeeRange) {
    #expect(FeeParser.range(in: text) == expected)
  }

  @Test(arguments: ["전석 초대", "프로그램별 상이", "없음", "무료", "", "   ", "홈페이지 참고"])
  func findsNoAmountInTextsWithoutAPrice(text: String) {
    #expect(FeeParser.range(in: text) == nil)
  }

  @Test(arguments: [
    ("20,000원", 20_000),
    ("20000원", 20_000),
    ("5,000 원", 5_000),
    ("11만원", 110_000),
    ("11만 원", 110_000),
    ("1만5천원", 15_000),
    ("1만 5천원", 15_000),
    ("전석 3만5천원", 35_000),
    ("1만5000원", 15_000),
    ("5천원", 5_000),
    ("1.5만원", 15_000),
    ("590만원(VAT별도)", 5_900_000),
    ("₩20,000", 20_000),
    ("￦ 20,000", 20_000),
    ("20,000 KRW", 20_000),
    ("20,000krw", 20_000),
    ("1,100,000원", 1_100_000),
    ("재료비 20.000원", 20_000),  // a full stop as thousands separator
    ("0원", 0),
  ])
  func readsOneAmountInEachWrittenForm(text: String, won: Int) {
    #expect(FeeParser.range(in: text) == FeeRange(min: won, max: won))
  }

  @Test(arguments: [
    ("10,000~30,000원", FeeRange(min: 10_000, max: 30_000)),
    ("3,000원~5,000원", FeeRange(min: 3_000, max: 5_000)),
    ("2만원 - 15만원", FeeRange(min: 20_000, max: 150_000)),
    ("좌석별 상이(20,000-30,000원)", FeeRange(min: 20_000, max: 30_000)),
    ("1~3만원", FeeRange(min: 10_000, max: 30_000)),
    ("1만～3만원", FeeRange(min: 10_000, max: 30_000)),
    ("8,000~80,000원(프로그램별 상이, 재료비 별도)", FeeRange(min: 8_000, max: 80_000)),
    ("R석 50,000원 / S석 30,000 / A석 20,000원", FeeRange(min: 20_000, max: 50_000)),
    ("VIP석143,000원, R석121,000원, S석110,000원", FeeRange(min: 110_000, max: 143_000)),
    ("R석 70,000원 ｜ S석 40,000원 ｜ A석 10,000원", FeeRange(min: 10_000, max: 70_000)),
    ("30,000원, 20,000원 (프로그램별 상이) ", FeeRange(min: 20_000, max: 30_000)),
  ])
  func readsRangesAndSeatListsAsLowestAndHighest(text: String, expected: FeeRange) {
    #expect(FeeParser.range(in: text) == expected)
  }

  @Test(arguments: [
    ("7세 이상 관람 가능(2017년생부터 관람 가능) 전석 10,000원", FeeRange(min: 10_000, max: 10_000)),
    ("1인 2,000원", FeeRange(min: 2_000, max: 2_000)),
    ("60,000원(6회차)", FeeRange(min: 60_000, max: 60_000)),
    ("성인(만19세~만65세) 20,000원 / 청소년(만14세~만18세) 15,000원", FeeRange(min: 15_000, max: 20_000)),
    ("1팀(2인) - 20,000원", FeeRange(min: 20_000, max: 20_000)),
  ])
  func neverTakesYearsAgesHeadsOrSessionsForMoney(text: String, expected: FeeRange) {
    #expect(FeeParser.range(in: text) == expected)
  }

  @Test(arguments: ["2024년", "7세", "1인", "3회", "20,000", "R 100,000 / S 80,000", "만 18세 이상 성인"])
  func ignoresNumbersWithoutAWonUnit(text: String) {
    #expect(FeeParser.range(in: text) == nil)
  }

  @Test func ignoresThousandAfterAMultiDigitNumberAsAnUnclearTypo() {
    // "3000천원" is 3,000,000 taken literally and surely not what was meant.
    #expect(FeeParser.range(in: "관람료 3000천원") == nil)
    #expect(FeeParser.range(in: "입장요금 1인 2,000원 관람료 3000천원") == FeeRange(min: 2_000, max: 2_000))
  }

  @Test func ignoresAmountsTooLargeForAnIntegerInsteadOfTrapping() {
    let huge = String(repeating: "9", count: 40)
    #expect(FeeParser.range(in: huge + "원") == nil)
    #expect(FeeParser.range(in: huge + "만원") == nil)
    #expect(FeeParser.range(in: "922337203685478만원") == nil)  // fits in Int, ×10,000 does not
    #expect(FeeParser.range(in: huge + "원 / 5,000원") == FeeRange(min: 5_000, max: 5_000))
    #expect(FeeParser.range(in: "9,223,372,036,854,775,807원") == FeeRange(min: Int.max, max: Int.max))
  }

  @Test func survivesGarbageAndTruncatedUnits() {
    for text in ["원원원", "만원", "~원", "1~", "1,", "1.", ",000원", "\u{FFFD}원", "1만", "1만5천", "₩", "₩원"] {
      _ = FeeParser.range(in: text)
    }
    #expect(FeeParser.range(in: ",000원") == nil)
    #expect(FeeParser.range(in: "1만5천") == nil)
  }

  @Test func saysFreeOnlyWhenTheTextSaysMuryo() {
    #expect(FeeParser.saysFree("무료"))
    #expect(FeeParser.saysFree("전석무료(사전예약)"))
    #expect(!FeeParser.saysFree("유료"))
    #expect(!FeeParser.saysFree(""))
    #expect(!FeeParser.saysFree("free"))
  }
}
