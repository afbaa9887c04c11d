import Foundation
import RaonCore
import Testing

@testable import RaonDocument
@testable import RaonExport

/// Dates as a Korean public document writes them, checked against a calendar by hand:
/// 2025-08-18 was a Monday, 2024-12-30 a Monday, 2025-01-05 a Sunday.
@Suite struct OfficialDatesTests {
  let nbsp = "\u{A0}"

  func day(_ text: String) throws -> CalendarDay { try #require(CalendarDay(iso: text)) }

  @Test func aDayAndAWeekInOfficialForm() throws {
    #expect(OfficialDates.day(try day("2025-08-18"), .ko) == "2025.\(nbsp)8.\(nbsp)18.(월)")
    #expect(
      OfficialDates.period(try day("2025-08-18"), try day("2025-08-24"), .ko)
        == "2025.\(nbsp)8.\(nbsp)18.(월) ~ 8.\(nbsp)24.(일)")
    // The year is repeated when the week crosses it.
    #expect(
      OfficialDates.period(try day("2024-12-30"), try day("2025-01-05"), .ko)
        == "2024.\(nbsp)12.\(nbsp)30.(월) ~ 2025.\(nbsp)1.\(nbsp)5.(일)")
    #expect(OfficialDates.day(try day("2025-08-18"), .en) == "Mon\(nbsp)18\(nbsp)Aug\(nbsp)2025")
    #expect(
      OfficialDates.period(try day("2025-08-18"), try day("2025-08-24"), .en)
        == "Mon\(nbsp)18\(nbsp)Aug – Sun\(nbsp)24\(nbsp)Aug\(nbsp)2025")
  }

  @Test func aProgramsDatesNeverBreakInsideADate() throws {
    let s = try day("2025-08-18"), e = try day("2025-09-22")
    #expect(OfficialDates.programDates(s, e, .ko) == "2025.\(nbsp)8.\(nbsp)18. ~ 9.\(nbsp)22.")
    #expect(OfficialDates.programDates(s, s, .ko) == "2025.\(nbsp)8.\(nbsp)18.")
    #expect(OfficialDates.programDates(s, nil, .ko) == "2025.\(nbsp)8.\(nbsp)18. ~")
    #expect(OfficialDates.programDates(nil, e, .ko) == "~ 2025.\(nbsp)9.\(nbsp)22.")
    #expect(OfficialDates.programDates(nil, nil, .ko) == "—")
    // An end before the start keeps both years, so it reads as the catalog has it.
    #expect(OfficialDates.programDates(e, s, .ko) == "2025.\(nbsp)9.\(nbsp)22. ~ 2025.\(nbsp)8.\(nbsp)18.")
    #expect(OfficialDates.programDates(s, e, .en) == "18\(nbsp)Aug – 22\(nbsp)Sep\(nbsp)2025")
    // The only ordinary spaces are around the tilde: a line can break there and nowhere else.
    let text = OfficialDates.programDates(s, try day("2026-01-02"), .ko)
    #expect(text.split(separator: " ") == ["2025.\(nbsp)8.\(nbsp)18.", "~", "2026.\(nbsp)1.\(nbsp)2."])
  }

  @Test func theTimeOfTheDataIsKoreaTime() {
    // 2025-08-18 00:00 UTC is 09:00 in Korea, the same Monday.
    let instant = Date(timeIntervalSince1970: 1_755_475_200)
    #expect(OfficialDates.instant(instant, .ko) == "2025.\(nbsp)8.\(nbsp)18.(월)\(nbsp)09:00")
    #expect(OfficialDates.instant(instant, .en) == "Mon\(nbsp)18\(nbsp)Aug\(nbsp)2025\(nbsp)09:00\(nbsp)KST")
  }
}
