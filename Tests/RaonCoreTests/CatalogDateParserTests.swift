import RaonCore
import Testing

@Suite struct CatalogDateParserTests {
  private static func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDay? {
    CalendarDay(year: y, month: m, day: d)
  }

  @Test(arguments: [
    "2025-12-18 00:00:00.0", "2025-12-18", "2025.12.18", "2025/12/18", "20251218",
    " 2025-12-18 ", "2025. 12. 18.", "2025년 12월 18일", "2025-12-18T09:30:00+09:00",
  ])
  func readsEveryDateFieldFormat(text: String) {
    #expect(CatalogDateParser.day(from: text) == Self.day(2025, 12, 18))
  }

  @Test func readsSingleDigitMonthsAndDays() {
    #expect(CatalogDateParser.day(from: "2024.9.9") == Self.day(2024, 9, 9))
    #expect(CatalogDateParser.day(from: "2024-9-9") == Self.day(2024, 9, 9))
  }

  // Expected days computed independently with Python:
  // datetime.fromtimestamp(ms / 1000, timezone(timedelta(hours=9))).date()
  @Test(arguments: [
    ("1734793200000", 2024, 12, 22),  // 2024-12-21T15:00Z is midnight in Korea
    ("1734793199999", 2024, 12, 21),  // one millisecond earlier
    ("1734793200000.0", 2024, 12, 22),
    ("1709132400000", 2024, 2, 29),
    ("4102412399999.5", 2099, 12, 31),
    ("-86400000", 1969, 12, 31),
    ("-946080000000", 1940, 1, 9),
    ("1.7347932E12", 2024, 12, 22),
  ])
  func readsUnixMillisecondsAsTheDayInKorea(text: String, y: Int, m: Int, d: Int) {
    #expect(CatalogDateParser.day(from: text) == Self.day(y, m, d))
  }

  @Test(arguments: [
    "00:00.0", "", "   ", "garbage", "2025-13-01", "2025-00-10", "2025-12-32", "2023-02-29",
    "20230229", "2025-12", "12/18/2025", "0", "45648",
    "99999999999999999999999999", "1e400", "-", "2025-12-181",
  ])
  func givesNothingForDestroyedImpossibleOrGarbageDates(text: String) {
    #expect(CatalogDateParser.day(from: text) == nil)
  }

  @Test func acceptsTheLeapDayOnlyInLeapYears() {
    #expect(CatalogDateParser.day(from: "2024-02-29") == Self.day(2024, 2, 29))
    #expect(CatalogDateParser.day(from: "2023-02-29") == nil)
    #expect(CatalogDateParser.day(from: "2000-02-29") == Self.day(2000, 2, 29))
    #expect(CatalogDateParser.day(from: "1900-02-29") == nil)
  }

  @Test func readsThePermanentExhibitionsFarEnd() {
    #expect(CatalogDateParser.day(from: "2099-12-31 00:00:00.0")?.description == "2099-12-31")
  }

  @Test func readsRangeTextAsFirstAndLastDay() throws {
    let same = try #require(CatalogDateParser.range(from: "2024-12-22~2024-12-22"))
    #expect(same.start == Self.day(2024, 12, 22) && same.end == Self.day(2024, 12, 22))

    let spaced = try #require(CatalogDateParser.range(from: "2024-12-22 ~ 2025-01-05"))
    #expect(spaced.start == Self.day(2024, 12, 22) && spaced.end == Self.day(2025, 1, 5))

    let timed = try #require(CatalogDateParser.range(from: "2024-12-22 19:30~2024-12-23 21:00"))
    #expect(timed.start == Self.day(2024, 12, 22) && timed.end == Self.day(2024, 12, 23))

    let single = try #require(CatalogDateParser.range(from: "2024-12-22"))
    #expect(single.start == Self.day(2024, 12, 22) && single.end == Self.day(2024, 12, 22))

    let yearless = try #require(CatalogDateParser.range(from: "2024-12-22~12-25"))
    #expect(yearless.start == Self.day(2024, 12, 22) && yearless.end == Self.day(2024, 12, 25))

    let dotted = try #require(CatalogDateParser.range(from: "2024.12.22 ~ 2025.1.5"))
    #expect(dotted.end == Self.day(2025, 1, 5))
  }

  @Test(arguments: ["", "00:00.0~00:00.0", "상시", "2024-13-40~2024-14-01", "매주 토요일 14:00"])
  func findsNoRangeInTextWithoutADate(text: String) {
    #expect(CatalogDateParser.range(from: text) == nil)
  }
}
