import Foundation
import RaonCore
import Testing

/// Expected texts written by hand from a calendar (2025-08-18 was a Monday).
@Suite struct OfficialDateTests {
  static func day(_ y: Int, _ m: Int, _ d: Int) throws -> CalendarDay {
    try #require(CalendarDay(year: y, month: m, day: d))
  }

  @Test func writesADayWithPeriodsAndTheWeekdayInBrackets() throws {
    #expect(OfficialDate.day(try Self.day(2025, 8, 18)) == "2025. 8. 18.(월)")
    #expect(OfficialDate.day(try Self.day(2025, 8, 24)) == "2025. 8. 24.(일)")
    #expect(OfficialDate.day(try Self.day(2024, 12, 5)) == "2024. 12. 5.(목)")
    #expect(OfficialDate.day(try Self.day(2025, 8, 18), .english) == "Mon 18 Aug 2025")
  }

  @Test func writesAPeriodWithTheYearOnceWhenBothDaysShareIt() throws {
    let monday = try Self.day(2025, 8, 18), sunday = try Self.day(2025, 8, 24)
    #expect(OfficialDate.period(monday, sunday) == "2025. 8. 18.(월) ~ 8. 24.(일)")
    #expect(OfficialDate.period(monday, sunday, .english) == "Mon 18 – Sun 24 Aug 2025")
    let may = try Self.day(2025, 4, 28), june = try Self.day(2025, 5, 4)
    #expect(OfficialDate.period(may, june) == "2025. 4. 28.(월) ~ 5. 4.(일)")
    #expect(OfficialDate.period(may, june, .english) == "Mon 28 Apr – Sun 4 May 2025")
  }

  @Test func writesBothYearsForAPeriodAcrossNewYear() throws {
    let first = try Self.day(2025, 12, 29), last = try Self.day(2026, 1, 4)
    #expect(OfficialDate.period(first, last) == "2025. 12. 29.(월) ~ 2026. 1. 4.(일)")
    #expect(OfficialDate.period(first, last, .english) == "Mon 29 Dec 2025 – Sun 4 Jan 2026")
  }

  @Test func writesAnInstantInKoreaTimeToTheMinute() {
    // 2025-08-18 00:00:00 UTC = 09:00 KST; 2025-08-17 15:30 UTC = 2025-08-18 00:30 KST.
    #expect(OfficialDate.time(Date(timeIntervalSince1970: 1_755_475_200)) == "2025. 8. 18.(월) 09:00")
    #expect(OfficialDate.time(Date(timeIntervalSince1970: 1_755_444_600)) == "2025. 8. 18.(월) 00:30")
    #expect(OfficialDate.time(Date(timeIntervalSince1970: 1_755_475_200), .english) == "Mon 18 Aug 2025 09:00")
  }
}
