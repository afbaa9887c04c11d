import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

@Suite("XLSX report workbook")
struct XLSXReportWriterTests {
  /// Writes the fixture report and reads it back with openpyxl.
  static func written(
    _ options: ExportOptions = ExportOptions(), writer: XLSXReportWriter = XLSXReportWriter(),
    report: TestReport = XLSXFixtures.report
  ) throws -> (XLSXCheck, ExportResult, URL) {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx")
    let result = try writer.write(report, into: dir, options: options)
    let file = dir.appendingPathComponent("report.xlsx")
    return (try XLSXCheck(file), result, file)
  }

  @Test func sheetsAreNamedInKoreanInReportOrder() throws {
    let (check, result, _) = try Self.written()
    #expect(result.files == ["report.xlsx"])
    #expect(
      check.sheets == [
        "요약", "이번 주 운영", "운영 현황", "이번 주 시작", "이번 주 종료", "신규 등록", "새로 추가", "삭제된 행사", "추이",
        "분류별", "자치구별", "요금대별", "기간별", "분류×자치구", "데이터 품질", "변경 사항", "프로그램", "자료 정보",
      ])
  }

  @Test func summaryShowsSnapshotComparisonAndHeadlineChanges() throws {
    let (check, _, _) = try Self.written()
    let s = "요약"
    #expect(check.text(s, 0, 0) == "서울시 문화행사 주간 현황")
    #expect(check.text(s, 1, 0) == "2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)  |  2024.\u{A0}9.\u{A0}9.(월)\u{A0}10:30 수집 기준")
    // The snapshot's id, time, file and count are on 자료 정보, the last sheet.
    let info = "자료 정보"
    let id = try #require(check.row(info, labelled: "스냅숏 ID"))
    #expect(check.text(info, id, 1) == "#12")
    #expect(check.cell(info, id + 1, 1)["py"] as? String == "datetime")
    #expect(check.text(info, id + 1, 1) == "2024-09-09T10:30:00")
    let total = try #require(check.row(info, labelled: "전체 행사"))
    #expect(check.number(info, total, 1) == 13)
    // The week's figures are the report's (one definition, ``WeekView``), beside the
    // previous week's report, with signed changes.
    var report = XLSXFixtures.report
    let view = report.weekView
    report.previousWeek = WeekView(
      isoWeek: ISOWeek(year: 2024, week: 36) ?? report.week, day: report.snapshot.koreaDay,
      current: view.current - 3, running: view.running + 2, starting: 1, ending: 0, registered: 4,
      runningFree: 1, runningByCategory: [], runningByDistrict: [], currentByCategory: [],
      currentByDistrict: [], startingIds: [], endingIds: [], registeredIds: [])
    let (week, _, _) = try Self.written(report: report)
    // Headed as page 1 heads it (구분, not 항목).
    #expect(week.text(s, try #require(week.row(s, labelled: "구분")), 2) == "전주")
    for (label, now, then) in [
      ("운영 중·예정", view.current, view.current - 3), ("이번 주 운영", view.running, view.running + 2),
      ("이번 주 시작", view.starting, 1), ("이번 주 종료", view.ending, 0), ("신규 등록", view.registered, 4),
    ] {
      let row = try #require(week.row(s, labelled: label), "\(label)")
      #expect(week.number(s, row, 1) == Double(now), "\(label)")
      #expect(week.number(s, row, 2) == Double(then), "\(label)")
      #expect(week.number(s, row, 3) == Double(now - then), "\(label)")
    }
    let running = try #require(week.row(s, labelled: "이번 주 운영"))
    #expect(week.cell(s, running, 3)["fmt"] as? String == "\"▲ \"#,##0;\"▼ \"#,##0;0")
    let free = try #require(week.row(s, labelled: "무료 비율(이번 주 운영)"))
    #expect(week.cell(s, free, 1)["fmt"] as? String == "0.0%")
    let added = try #require(check.row(s, labelled: "추가"))
    #expect(check.number(s, added, 1) == 2)
    let kinds = try #require(report.changeKinds)
    #expect(check.number(s, added + 1, 1) == Double(kinds.removedEnded))
    #expect(check.number(s, added + 2, 1) == Double(kinds.removedWithdrawn))
    #expect(check.number(s, added + 3, 1) == Double(kinds.changedMaterial))
  }

  @Test func summaryWithoutComparisonSaysSo() throws {
    var report = XLSXFixtures.report
    report.compareTo = nil
    report.compareTables = nil
    report.compareWeek = nil
    report.changes = nil
    let (check, _, _) = try Self.written(report: report)
    #expect(check.row("요약", labelled: "비교 없음") != nil)
    #expect(check.text("변경 사항", 1, 0) == "비교 없음")
  }

  @Test func tableSheetsHaveHeadersNumbersAndTotals() throws {
    let (check, _, _) = try Self.written()
    let headers = (0..<7).compactMap { check.text("분류별", 0, $0) }
    #expect(headers == ["분류", "건수", "비율", "무료", "유료", "기간 중앙값(일)", "최저요금 중앙값(원)"])
    #expect(check.text("분류별", 1, 0) == "축제-문화/예술")
    #expect(check.cell("분류별", 1, 1)["t"] as? String == "n")
    #expect(check.number("분류별", 1, 1) == 3)
    #expect(check.text("요금대별", 1, 0) == "무료")
    #expect(check.text("기간별", 7, 0) == "기간 오류")
    let totalRow = try #require(check.row("분류별", labelled: "합계"))
    #expect(check.number("분류별", totalRow, 1) == 13)
    #expect(check.map("freeze", "분류별") as? String == "A2")
    #expect(check.text("데이터 품질", 1, 0) == "자치구 없음")
    #expect(check.text("데이터 품질", 1, 1) == "자치구가 비었거나 서울 25개 자치구가 아님 ('미상'으로 집계)")
  }

  @Test func crossTableHasAThreeColourScale() throws {
    let (check, _, _) = try Self.written()
    let rules = check.map("conditional", "분류×자치구") as? [[String: Any]] ?? []
    #expect(rules.count == 1)
    #expect((rules.first?["types"] as? [String]) == ["colorScale"])
    #expect(check.map("freeze", "분류×자치구") as? String == "B2")
  }

  @Test func programsSheetHasTypedCellsLinksFilterAndFrozenHeader() throws {
    let (check, _, _) = try Self.written()
    let p = "프로그램"
    #expect(check.text(p, 0, 0) == "ID")
    #expect(check.text(p, 0, 1) == "공연/행사명")
    #expect(check.map("freeze", p) as? String == "A2")
    // ID … 품질 표시, 문의, 행사시간: the 24 columns of programs.csv.
    #expect(check.map("autofilter", p) as? String == "A1:X14")
    // Row 1: cult:100001, paid, 30,000 won, 2024-09-10 … 2024-09-12.
    #expect(check.text(p, 1, 8) == "유료")
    #expect(check.cell(p, 1, 9)["py"] as? String == "number")
    #expect(check.number(p, 1, 9) == 30000)
    #expect(check.cell(p, 1, 11)["py"] as? String == "datetime")
    #expect(check.text(p, 1, 11) == "2024-09-10T00:00:00")
    #expect(check.cell(p, 1, 11)["fmt"] as? String == #"yyyy". "m". "d".""#)
    #expect(check.number(p, 1, 13) == 3)
    #expect(check.cell(p, 1, 15)["py"] as? String == "number")
    let links = check.map("hyperlinks", p) as? [String: String] ?? [:]
    #expect(links["R2"] == "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=100001")
    // A formula-looking title stays text.
    #expect(check.text(p, 4, 1) == XLSXFixtures.formulaTitle)
    #expect(check.cell(p, 4, 1)["t"] as? String == "s")
    // Too long and non-web URLs are text, not links.
    #expect(links["R14"] == nil)
    #expect(links["S14"] == nil)
    #expect(check.text(p, 13, 18) == "javascript:alert(1)")
    // A control character survives as an escape openpyxl can read.
    #expect(check.text(p, 11, 5)?.hasPrefix("마포구") == true)
  }

  @Test func linksAreHyperlinkFormulasCachingTheirAddress() throws {
    let (_, _, file) = try Self.written()
    // The sheet's XML as Excel reads it: the formula, its cached value and the link style.
    let script = """
      import re, sys, zipfile
      z = zipfile.ZipFile(sys.argv[1])
      names = {m.group(2): m.group(1) for m in re.finditer(r'<sheet name="([^"]+)" sheetId="\\d+" r:id="(rId\\d+)"', z.read("xl/workbook.xml").decode())}
      rels = dict(re.findall(r'Id="(rId\\d+)"[^>]*Target="([^"]+)"', z.read("xl/_rels/workbook.xml.rels").decode()))
      sheet = [rels[r] for r, n in names.items() if n == "프로그램"][0]
      xml = z.read("xl/" + sheet).decode()
      cell = re.search(r'<c r="R2"[^>]*>.*?</c>', xml).group(0)
      print(cell)
      """
    let cell = try TestInspection.python(script, [file.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    let url = "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=100001"
    #expect(cell.contains("<f>HYPERLINK(\"\(url)\")</f>"), "\(cell)")
    #expect(cell.contains("<v>\(url)</v>"), "\(cell)")
    #expect(cell.contains(" s=\""), "no link style: \(cell)")
  }

  @Test func hyperlinkFormulaDoublesQuotesAndKeepsToExcelsTextLimit() {
    #expect(XLSXTableStream.hyperlinkFormula("https://a.kr/x") == "=HYPERLINK(\"https://a.kr/x\")")
    #expect(
      XLSXTableStream.hyperlinkFormula("https://a.kr/\"),1,(\"") == "=HYPERLINK(\"https://a.kr/\"\"),1,(\"\"\")")
    let base = "https://a.kr/"
    let fits = base + String(repeating: "a", count: 255 - base.count)
    #expect(XLSXTableStream.hyperlinkFormula(fits) != nil)
    #expect(XLSXTableStream.hyperlinkFormula(fits + "a") == nil)
    // A doubled quote counts twice.
    #expect(XLSXTableStream.hyperlinkFormula(String(fits.dropLast()) + "\"") == nil)
  }

  @Test func overLongCellIsTruncatedWithAWarning() throws {
    let (check, result, _) = try Self.written()
    #expect((check.text("프로그램", 13, 4) ?? "").count == 32_767)
    #expect(result.warnings.contains { $0.contains("셀 1개") && $0.contains("32,767") })
  }

  @Test func columnWidthsFollowDisplayWidth() throws {
    let (check, _, _) = try Self.written()
    let widths = check.map("widths", "프로그램") as? [String: Double] ?? [:]
    // Korean titles (wide characters) need more room than the ASCII id column, and the
    // 40,000-character place is clamped.
    let id = try #require(widths["A"]), title = try #require(widths["B"]), place = try #require(widths["E"])
    #expect(title > id)
    #expect(title >= 30)
    #expect(title <= 37)  // capped so the printed list keeps a readable scale
    #expect(place <= 61)
  }

  @Test func chartsAreNativeWithQuotedKoreanRangesAndCachedValues() throws {
    let (check, _, _) = try Self.written()
    let charts = check.charts
    // 요약's two (this week's running programs by district and by category, read from
    // 운영 현황), and one under each whole-catalog table.
    #expect(charts.filter { $0["sheet"] as? String == "요약" }.count == 2)
    for sheet in ["분류별", "자치구별", "요금대별", "기간별"] {
      #expect(charts.filter { $0["sheet"] as? String == sheet }.count == 1, "\(sheet)")
    }
    let formulas = charts.flatMap { $0["formulas"] as? [String] ?? [] }
    #expect(formulas.contains { $0.hasPrefix("'운영 현황'!$A$6:$A$") })
    #expect(formulas.contains { $0.hasPrefix("'운영 현황'!$E$6:$E$") })
    #expect(formulas.contains("'분류별'!$B$2:$B$10"))
    #expect(formulas.contains("'분류별'!$A$2:$A$10"))
    #expect(formulas.contains("'자치구별'!$B$2:$B$9"))
    #expect(formulas.contains("'요금대별'!$B$2:$B$8"))
    #expect(formulas.contains("'기간별'!$A$2:$A$8"))
    for chart in charts {
      #expect((chart["numCachePoints"] as? Int ?? 0) > 0, "no cached values in \(chart["path"] ?? "")")
      #expect((chart["strCachePoints"] as? Int ?? 0) > 0)
    }
  }

  /// The catalog's district chart plots the first N rows of 자치구별 itself; the rest is
  /// named under it ("그 외 n개 구"), never drawn as a bar labelled like the category 기타.
  @Test func districtChartShowsTopNAndNamesTheRest() throws {
    let (check, _, _) = try Self.written(ExportOptions(chartTopN: 3))
    let formulas = check.charts.filter { $0["sheet"] as? String == "자치구별" }.flatMap { $0["formulas"] as? [String] ?? [] }
    #expect(formulas == ["'자치구별'!$A$2:$A$4", "'자치구별'!$B$2:$B$4"])
    #expect(check.number("자치구별", 1, 1) == 4)  // 종로구
    // Left out: 영등포구, 강남구, 송파구, 강서구 (one each) and one program of no district,
    // named apart (미상 is not a 구).
    let note = "그 외 4개 구 4건, 자치구 미상 1건은 차트에서 뺐습니다 (전체 표: '자치구별' 시트)."
    #expect(check.rows("자치구별").contains { $0.contains { $0["v"] as? String == note } })
  }

  @Test func documentPropertiesAreReproducible() throws {
    let (check, _, file) = try Self.written()
    let props = check.properties
    #expect(props["creator"] as? String == "Raon")
    #expect(props["title"] as? String == "서울시 문화행사 주간 현황")
    #expect((props["created"] as? String)?.hasPrefix("2024-09-09T01:30:00") == true)
    let again = try Self.written().2
    #expect(try Data(contentsOf: file) == Data(contentsOf: again))
  }

  @Test func englishLabelsWithEnOption() throws {
    let (check, _, _) = try Self.written(ExportOptions(language: .en))
    #expect(check.sheets.first == "Summary")
    #expect(check.sheets.contains("Category × district"))
    #expect(check.text("Programs", 0, 1) == "Title")
    #expect(check.text("Programs", 1, 8) == "Paid")
  }

  /// An English workbook names districts and categories in English in its tables (and so
  /// its charts, which read them); the programs sheet keeps the catalog's values for scripts.
  @Test func englishTablesNameDistrictsAndCategoriesInEnglish() throws {
    let (check, _, _) = try Self.written(ExportOptions(language: .en))
    let korean = Set(XLSXFixtures.programs.flatMap { [$0.district, $0.category] })
    for sheet in check.sheets where sheet != "Programs" && sheet != "Data information" {
      let cells = check.rows(sheet).flatMap { $0.compactMap { $0["v"] as? String } }
      let left = cells.filter(korean.contains)
      #expect(left.isEmpty, "\(sheet) keeps \(left)")
    }
    let byDistrict = check.rows("By district").flatMap { $0.compactMap { $0["v"] as? String } }
    #expect(byDistrict.contains("Jongno-gu"), "\(byDistrict.prefix(12))")
    #expect(check.rows("Programs").contains { $0.contains { $0["v"] as? String == "종로구" } })
  }

  @Test func programsContinueOnNewSheetsPastTheRowLimit() throws {
    let (check, result, _) = try Self.written(writer: XLSXReportWriter(rowLimit: 10))
    // 13 programs, 9 data rows per sheet → 프로그램 and 프로그램 (2).
    // The programs continue on the next sheet (a week's list that outgrows the limit
    // continues after them, as it is filled later; 자료 정보 comes last).
    let first = try #require(check.sheets.firstIndex(of: "프로그램"))
    #expect(check.sheets[first + 1] == "프로그램 (2)")
    #expect(check.sheets.last == "자료 정보")
    #expect(check.map("maxRow", "프로그램") as? Int == 10)
    #expect(check.text("프로그램 (2)", 0, 0) == "ID")
    #expect(check.text("프로그램 (2)", 1, 0) == "cult:100010")
    #expect(check.map("freeze", "프로그램 (2)") as? String == "A2")
    #expect(result.warnings.contains { $0.contains("시트 2개") })
  }

  @Test func bigSheetsAreConstantMemoryAndChartSheetsAreNot() throws {
    let (check, _, _) = try Self.written()
    let inline = check.json["inlineStringSheets"] as? [String: Bool] ?? [:]
    // sheet17 = 프로그램, sheet16 = 변경 사항: streamed (inline strings); sheet10 = 분류별,
    // sheet4 = 이번 주 시작 (filled after the programs) and sheet3 = 운영 현황 (요약's charts
    // read it): not.
    #expect(inline["xl/worksheets/sheet17.xml"] == true)
    #expect(inline["xl/worksheets/sheet16.xml"] == true)
    #expect(inline["xl/worksheets/sheet10.xml"] == false)
    #expect(inline["xl/worksheets/sheet4.xml"] == false)
    #expect(inline["xl/worksheets/sheet3.xml"] == false)
  }

  @Test func changesSheetHasOneRowPerChangedField() throws {
    let (check, _, _) = try Self.written()
    let c = "변경 사항"
    #expect(
      (0..<12).compactMap { check.text(c, 0, $0) } == [
        "구분", "공연/행사명", "항목", "이전 값", "새 값", "분류", "자치구", "세부 구분", "경미", "시작일", "종료일", "ID",
      ])
    #expect(check.text(c, 1, 0) == "추가")
    #expect(check.text(c, 3, 0) == "삭제")
    #expect(check.text(c, 4, 2) == "공연/행사명")
    #expect(check.text(c, 5, 2) == "최저요금(원)")
    #expect(check.text(c, 5, 3) == "50000")
    #expect(check.map("maxRow", c) as? Int == 6)
  }

  @Test func comparisonWorkbookHoldsTheChangesAlone() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx")
    let report = XLSXFixtures.report
    let diff = try #require(report.changes)
    let compare = try #require(report.compareTo)
    let result = try XLSXReportWriter().writeComparison(
      diff, from: compare, to: report.snapshot, into: dir, options: ExportOptions())
    #expect(result.files == ["changes.xlsx"])
    let check = try XLSXCheck(dir.appendingPathComponent("changes.xlsx"))
    #expect(check.sheets == ["변경 사항"])
    // On paper the collection by its time (official form) and size; its snapshot number and
    // file off the print area (A:I), for whoever traces the figures.
    #expect(check.text("변경 사항", 1, 0) == "이전 자료")
    let earlier = (check.text("변경 사항", 1, 1) ?? "").replacingOccurrences(of: "\u{00A0}", with: " ")
    #expect(earlier.hasPrefix("2024. 9. 2.(월) 10:30"), "\(earlier)")
    #expect(check.text("변경 사항", 1, 1)?.contains("#") == false)
    #expect(check.text("변경 사항", 1, 12)?.hasPrefix("#11 · 2024-09-02 10:30 KST") == true)
    #expect(check.text("변경 사항", 5, 0) == "구분")
    #expect(check.map("freeze", "변경 사항") as? String == "A7")
    #expect(check.map("autofilter", "변경 사항") as? String == "A6:L11")
  }

  /// `raon report` begins a held input's workbook with its programs and changes while the
  /// input is recorded (`start(programs:changes:day:)`), and finishes it once the report
  /// is known: the file is the one written in one go, byte for byte. With a row limit of
  /// 4 the five changes need two sheets, which must come before the programs: the workbook
  /// is not begun, leaves nothing, and the one-go order holds.
  @Test(arguments: [XLSXLimits.rowsPerSheet, 10, 4])
  func aWorkbookBegunBeforeItsReportIsTheWorkbookWrittenInOneGo(rowLimit: Int) throws {
    let report = XLSXFixtures.report
    let writer = XLSXReportWriter(rowLimit: rowLimit)
    let once = try Fixtures.temporaryDirectory("raon-xlsx")
    let begun = try Fixtures.temporaryDirectory("raon-xlsx")
    defer { for dir in [once, begun] { try? FileManager.default.removeItem(at: dir) } }
    let weekly = report.weekly()
    let a = try writer.write(weekly, programs: report.programs, into: once, options: ExportOptions())
    let started = try writer.start(
      programs: report.programs, changes: report.changes, day: report.snapshot.koreaDay, into: begun,
      options: ExportOptions())
    if rowLimit == 4 {
      #expect(started == nil)
      #expect(try FileManager.default.contentsOfDirectory(atPath: begun.path).isEmpty)
      let sheets = try XLSXCheck(once.appendingPathComponent("report.xlsx")).sheets
      #expect(Array(sheets.drop { $0 != "변경 사항" }.prefix(3)) == ["변경 사항", "변경 사항 (2)", "프로그램"])
      return
    }
    let b = try #require(started).finish(weekly)
    #expect(a.files == b.files && a.warnings == b.warnings)
    let first = try Data(contentsOf: once.appendingPathComponent("report.xlsx"))
    let second = try Data(contentsOf: begun.appendingPathComponent("report.xlsx"))
    #expect(first == second)
    #expect(try FileManager.default.contentsOfDirectory(atPath: begun.path) == ["report.xlsx"])
  }

  /// A workbook begun and never finished (the figures failed) leaves no file once let go.
  @Test func aWorkbookBegunAndLetGoLeavesNothing() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx")
    defer { try? FileManager.default.removeItem(at: dir) }
    let report = XLSXFixtures.report
    var started = try XLSXReportWriter().start(
      programs: report.programs, changes: report.changes, day: report.snapshot.koreaDay, into: dir,
      options: ExportOptions())
    #expect(started != nil)
    started = nil
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  @Test func failureLeavesNoPartialFile() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx")
    let missing = dir.appendingPathComponent("missing/sub")
    #expect(throws: XLSXExportError.self) {
      try XLSXReportWriter().write(XLSXFixtures.report, into: missing, options: ExportOptions())
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }
}

/// Workbooks saved at the same time on several threads leave standard error where it was
/// (each save briefly sends file descriptor 2 to a file of its own).
@Test func workbooksSavedAtOnceLeaveStandardErrorInPlace() throws {
  // Read while no other workbook (another test's, on another thread) is being saved.
  func identity() -> (UInt64, UInt64) {
    XLSXWorkbook.withStandardErrorInPlace {
      var info = stat()
      guard fstat(2, &info) == 0 else { return (0, 0) }
      return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
  }
  let before = identity()
  // Kept to put standard error back should the test find it redirected, so that the
  // failure can be seen at all (the test library reports on standard error).
  let original = dup(2)
  defer { close(original) }
  let folder = try Fixtures.temporaryDirectory("raon-xlsx-concurrent")
  defer { try? FileManager.default.removeItem(at: folder) }
  let report = XLSXFixtures.report
  for round in 0..<5 {
    DispatchQueue.concurrentPerform(iterations: 4) { i in
      let out = folder.appendingPathComponent("\(round)-\(i)", isDirectory: true)
      try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      _ = try? XLSXReportWriter().write(report, into: out, options: ExportOptions())
    }
    let after = identity()
    if after != before { dup2(original, 2) }
    #expect(after == before, "round \(round): standard error was left redirected")
  }
}
