import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// Issue 47's printed workbook, read from the file (openpyxl, `XLSXCheck`) and its print
/// set-ups: the layout rules themselves, each with figures worked out by hand. The printed
/// pages are checked through LibreOffice in `WorkbookLeanPrintEndToEndTests`.
@Suite struct XLSXLeanPrintTests {
  @Test func aHeaderColumnIsAsNarrowAsItsLongestWordKoreanCountingTwo() {
    // 최저요금 (4 × 2 = 8), 중앙값(원) (중앙값 3 × 2, 원 2, the brackets 1 each: 10).
    #expect(XLSXReportBuilder.longestWordWidth("최저요금 중앙값(원)") == 10)
    #expect(XLSXReportBuilder.longestWordWidth("Median min. fee (KRW)") == 6)
    #expect(XLSXReportBuilder.longestWordWidth("건수") == 4)
    #expect(XLSXReportBuilder.longestWordWidth("") == 0)
    // A number column keeps room for 1,234,567 (10) and 2 of padding; the key column only
    // the padding, at least 8.
    #expect(XLSXReportBuilder.tableWidth(9, col: 1) == 12)
    #expect(XLSXReportBuilder.tableWidth(14, col: 1) == 16)
    #expect(XLSXReportBuilder.tableWidth(3, col: 0) == 8)
  }

  @Test func aTurnedHeaderIsAsTallAsItsLongestName() {
    // 서대문구: 8 units × 5.5 pt + 12 pt.
    #expect(XLSXReportBuilder.turnedHeaderHeight(["종로구", "서대문구", "합계"]) == 56)
    #expect(XLSXReportBuilder.turnedHeaderHeight(["Seodaemun-gu"]) == 12 * 5.5 + 12)
    // Never under three units.
    #expect(XLSXReportBuilder.turnedHeaderHeight(["중"]) == 3 * 5.5 + 12)
  }

  @Test func apartKeepsTheOrderOfEachPart() {
    let programs = XLSXFixtures.programs.prefix(5).map { $0 }
    let shared = Set([programs[1].id, programs[3].id])
    let (own, rest) = XLSXReportBuilder.apart(programs) { shared.contains($0.id) }
    #expect(own.map(\.id) == [programs[0].id, programs[2].id, programs[4].id])
    #expect(rest.map(\.id) == [programs[1].id, programs[3].id])
  }

  @Test func summaryCarriesPageOnesSentencesAndHeadlineAsThePDFWritesThem() throws {
    let report = XLSXFixtures.report
    let page = report.weekly().pageOne
    try #require(page.sentences.count >= 2)
    let (check, _, _) = try XLSXReportWriterTests.written(report: report)
    let s = "요약"
    let texts = (0..<40).map { check.text(s, $0, 0) }
    for sentence in page.sentences { #expect(texts.contains(sentence), "요약 lacks: \(sentence)") }
    #expect(texts.contains(page.title))
    // The headline's first column is headed as page 1 heads it (구분), not 항목.
    let header = try #require(texts.firstIndex(of: page.headline.columns[0].header))
    #expect(page.headline.columns[0].header == "구분")
    for (col, column) in page.headline.columns.enumerated() { #expect(check.text(s, header, col) == column.header) }
    #expect(!texts.contains("항목"))
  }

  @Test func aPackHasNoOneRowOrOneColumnSheetAndTheCityHasBoth() throws {
    let (pack, _, _) = try XLSXReportWriterTests.written(report: XLSXWeekSummaryTests.pack("종로구"))
    #expect(!pack.sheets.contains("자치구별") && !pack.sheets.contains("분류×자치구"), "\(pack.sheets)")
    #expect(pack.sheets.contains("분류별") && pack.sheets.contains("데이터 품질"))
    let (city, _, _) = try XLSXReportWriterTests.written()
    #expect(city.sheets.contains("자치구별") && city.sheets.contains("분류×자치구"))
  }

  @Test func qualityCodesStayOffPaperAndChangesPrintOnlyTheChangedFields() throws {
    let report = XLSXFixtures.report
    let diff = try #require(report.changes)
    try #require(!diff.changed.isEmpty && !(diff.added.isEmpty && diff.removed.isEmpty))
    let (sheets, check, _) = try XLSXPrintSetUpTests.written(report: report)
    // 데이터 품질: 품질 표시, 설명, 건수, 비율 (A:D); the code (E) on screen.
    #expect(sheets["데이터 품질"]?.printArea == "'데이터 품질'!$A:$D")
    #expect(check.text("데이터 품질", 0, 4) == "코드(CSV·JSON)")
    // 변경 사항: the header, then the changed fields' rows only (after the added and
    // removed programs' rows, which 새로 추가 and 삭제된 행사 print).
    let first = diff.added.count + diff.removed.count + 2
    let last = diff.added.count + diff.removed.count + diff.changed.reduce(0) { $0 + $1.fields.count } + 1
    #expect(sheets["변경 사항"]?.printArea == "'변경 사항'!$A$\(first):$I$\(last)")
    #expect(check.text("변경 사항", first - 1, 0) == "변경")
    #expect(check.text("변경 사항", first - 2, 0) != "변경")
    // The removed programs, listed.
    let removed = (1...diff.removed.count).map { check.text("삭제된 행사", $0, 0) }
    #expect(Set(removed) == Set(diff.removed.map(\.title)))
  }
}
