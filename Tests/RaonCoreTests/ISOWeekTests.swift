import RaonCore
import Testing

@Suite struct ISOWeekTests {
  // Expected weeks from Python's date.isocalendar().
  @Test(arguments: [
    (2024, 9, 9, "2024-W37"),
    (2020, 12, 31, "2020-W53"),
    (2021, 1, 3, "2020-W53"),
    (2021, 1, 4, "2021-W01"),
    (2024, 12, 30, "2025-W01"),
    (2019, 12, 30, "2020-W01"),
    (2016, 1, 3, "2015-W53"),
    (2026, 1, 1, "2026-W01"),
    (2099, 12, 31, "2099-W53"),
  ])
  func findsTheWeekContainingADay(y: Int, m: Int, d: Int, expected: String) throws {
    let day = try #require(CalendarDay(year: y, month: m, day: d))
    #expect(ISOWeek(containing: day).description == expected)
  }

  @Test func parsesAndValidatesWeekText() {
    #expect(ISOWeek("2024-W37") == ISOWeek(year: 2024, week: 37))
    #expect(ISOWeek("2024w37") == ISOWeek(year: 2024, week: 37))
    #expect(ISOWeek("2020-W53") != nil)
    #expect(ISOWeek("2021-W53") == nil)  // 2021 has 52 weeks
    #expect(ISOWeek("2024-W00") == nil)
    #expect(ISOWeek("garbage") == nil)
  }

  @Test func spansMondayToSunday() throws {
    let week = try #require(ISOWeek(year: 2020, week: 53))
    #expect(week.start.description == "2020-12-28")
    #expect(week.end.description == "2021-01-03")
    let w37 = try #require(ISOWeek(year: 2024, week: 37))
    #expect(w37.start.description == "2024-09-09")
    #expect(w37.end.description == "2024-09-15")
  }
}
