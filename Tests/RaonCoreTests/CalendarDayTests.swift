import Foundation
import RaonCore
import Testing

@Suite struct CalendarDayTests {
  @Test func validatesImpossibleDates() {
    #expect(CalendarDay(year: 2024, month: 2, day: 29) != nil)
    #expect(CalendarDay(year: 2023, month: 2, day: 29) == nil)
    #expect(CalendarDay(year: 2100, month: 2, day: 29) == nil)  // divisible by 100, not 400
    #expect(CalendarDay(year: 2000, month: 2, day: 29) != nil)
    #expect(CalendarDay(year: 2024, month: 4, day: 31) == nil)
    #expect(CalendarDay(year: 2024, month: 13, day: 1) == nil)
    #expect(CalendarDay(year: 2024, month: 0, day: 1) == nil)
    #expect(CalendarDay(year: 0, month: 1, day: 1) == nil)
  }

  @Test func countsDaysFromTheUnixEpoch() {
    #expect(CalendarDay(year: 1970, month: 1, day: 1)?.dayNumber == 0)
    #expect(CalendarDay(year: 1969, month: 12, day: 31)?.dayNumber == -1)
    // 2024-09-09: date(2024,9,9) - date(1970,1,1) = 19975 days (Python).
    #expect(CalendarDay(year: 2024, month: 9, day: 9)?.dayNumber == 19_975)
  }

  @Test func roundTripsThroughItsISOText() {
    for text in ["2024-02-29", "2099-12-31", "0001-01-01", "9999-12-31", "1969-12-31"] {
      #expect(CalendarDay(iso: text)?.description == text)
    }
    #expect(CalendarDay(year: 987, month: 6, day: 5)?.description == "0987-06-05")
    #expect(CalendarDay(dayNumber: -719_529).description == "-001-12-31")  // before year 0: rare
    #expect(CalendarDay(iso: "2024-2-29") == nil)
    #expect(CalendarDay(iso: "2023-02-29") == nil)
  }

  @Test func measuresDurationsAcrossLeapDaysAndYears() throws {
    let start = try #require(CalendarDay(year: 2024, month: 2, day: 28))
    let end = try #require(CalendarDay(year: 2024, month: 3, day: 1))
    #expect(end - start == 2)
    let permanent = try #require(CalendarDay(year: 2099, month: 12, day: 31))
    let opening = try #require(CalendarDay(year: 2024, month: 9, day: 9))
    // date(2099,12,31) - date(2024,9,9) = 27506 days (Python).
    #expect(permanent - opening == 27_506)
  }

  @Test func knowsTheISOWeekday() {
    #expect(CalendarDay(year: 2024, month: 9, day: 9)?.isoWeekday == 1)  // Monday
    #expect(CalendarDay(year: 2021, month: 1, day: 3)?.isoWeekday == 7)  // Sunday
    #expect(CalendarDay(year: 1970, month: 1, day: 1)?.isoWeekday == 4)  // Thursday
    #expect(CalendarDay(year: 1969, month: 12, day: 29)?.isoWeekday == 1)
  }

  @Test func takesTheKoreanDayOfAnInstant() {
    // 2024-12-21T14:59:59Z is 23:59:59 in Korea; a second later it is the 22nd there.
    let before = Date(timeIntervalSince1970: 1_734_793_199)
    let after = Date(timeIntervalSince1970: 1_734_793_200)
    #expect(CalendarDay(koreaDateOf: before).description == "2024-12-21")
    #expect(CalendarDay(koreaDateOf: after).description == "2024-12-22")
    #expect(CalendarDay(koreaDateOf: Date(timeIntervalSince1970: -32_401)).description == "1969-12-31")
  }
}
