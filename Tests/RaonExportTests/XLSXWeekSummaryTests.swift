import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// The workbook opens on the week (issue 24): 요약's charts plot this week's running
/// programs, this week's running programs are listed in full, free programs say 무료, and
/// every printed page names the report, the week and the district.
@Suite("XLSX week summary")
struct XLSXWeekSummaryTests {
  /// W = 2024-W37: Monday 2024-09-09 … Sunday 2024-09-15, counted here from the fixture's
  /// dates as text, without Raon's week rules.
  static func isRunning(_ p: Program) -> Bool {
    guard let s = p.startDate?.description, let e = p.endDate?.description else { return false }
    return s <= "2024-09-15" && e >= "2024-09-09"
  }

  static func runningByDistrict(_ programs: [Program]) -> [String: Int] {
    programs.filter(isRunning).reduce(into: [:]) { $0[$1.district, default: 0] += 1 }
  }

  /// `'운영 현황'!$A$6:$A$12` → sheet, column index, first and last zero-based rows.
  static func range(_ formula: String) -> (sheet: String, col: Int, first: Int, last: Int)? {
    let parts = formula.split(separator: "!")
    guard parts.count == 2 else { return nil }
    let sheet = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "'"))
    let cells = parts[1].replacingOccurrences(of: "$", with: "").split(separator: ":")
    guard cells.count == 2, let c = cells[0].first?.asciiValue,
      let first = Int(cells[0].dropFirst()), let last = Int(cells[1].dropFirst())
    else { return nil }
    return (sheet, Int(c - 65), first - 1, last - 1)
  }

  /// The key → value pairs a chart plots, read from the cells its two ranges name.
  static func plotted(_ check: XLSXCheck, _ chart: [String: Any]) throws -> [String: Int] {
    let formulas = chart["formulas"] as? [String] ?? []
    let keys = try #require(formulas.compactMap(range).first)
    let values = try #require(formulas.compactMap(range).last)
    #expect(keys.first == values.first && keys.last == values.last && keys.sheet == values.sheet)
    var out: [String: Int] = [:]
    for row in keys.first...keys.last {
      let key = try #require(check.text(keys.sheet, row, keys.col))
      out[key] = Int(try #require(check.number(values.sheet, row, values.col)))
    }
    return out
  }

  @Test func firstSheetChartsPlotThisWeeksRunningProgramsByDistrict() throws {
    let (check, _, _) = try XLSXReportWriterTests.written(report: XLSXFixtures.report)
    #expect(check.sheets.first == "요약")
    let summaryCharts = check.charts.filter { $0["sheet"] as? String == "요약" }
    #expect(summaryCharts.count == 2, "by district and by category")
    let byDistrict = try #require(summaryCharts.first { ($0["title"] as? String)?.contains("자치구별") == true })
    let formulas = byDistrict["formulas"] as? [String] ?? []
    #expect(formulas.allSatisfy { $0.hasPrefix("'운영 현황'!") }, "\(formulas)")
    let expected = Self.runningByDistrict(XLSXFixtures.programs)
    #expect(expected.count > 1 && expected.values.reduce(0, +) < XLSXFixtures.programs.count)
    #expect(try Self.plotted(check, byDistrict) == expected)
    // The category chart plots this week's running programs too.
    let byCategory = try #require(summaryCharts.first { ($0["title"] as? String)?.contains("분류별") == true })
    let categories = XLSXFixtures.programs.filter(Self.isRunning).reduce(into: [String: Int]()) { $0[$1.category, default: 0] += 1 }
    #expect(try Self.plotted(check, byCategory) == categories)
  }

  @Test func summaryChartsLeaveTheRestOutAndNameIt() throws {
    let (check, _, _) = try XLSXReportWriterTests.written(ExportOptions(chartTopN: 2), report: XLSXFixtures.report)
    let chart = try #require(
      check.charts.first { $0["sheet"] as? String == "요약" && ($0["title"] as? String)?.contains("자치구별") == true })
    let plotted = try Self.plotted(check, chart)
    let all = Self.runningByDistrict(XLSXFixtures.programs)
    #expect(plotted.count == 2)
    #expect(plotted.keys.allSatisfy { !$0.contains("기타") && !$0.contains("그 외") })
    let rest = all.filter { plotted[$0.key] == nil }
    // 미상 is named apart, not counted as one more 구.
    let unknown = rest[District.unknown] ?? 0
    let districts = rest.filter { $0.key != District.unknown }
    let note =
      "그 외 \(districts.count)개 구 \(districts.values.reduce(0, +))건" + (unknown > 0 ? ", 자치구 미상 \(unknown)건" : "")
      + "은 차트에서 뺐습니다 (전체 표: '운영 현황' 시트)."
    #expect(check.rows("요약").contains { row in row.contains { $0["v"] as? String == note } }, "\(note)")
  }

  /// A pack of one district: no one-bar chart by district; 요약 says what the pack covers.
  @Test func packSummaryHasNoOneBarDistrictChart() throws {
    let report = Self.pack("종로구")
    let (check, _, _) = try XLSXReportWriterTests.written(report: report)
    let summaryCharts = check.charts.filter { $0["sheet"] as? String == "요약" }
    #expect(summaryCharts.count == 1)
    #expect((summaryCharts.first?["title"] as? String)?.contains("분류별") == true)
    #expect(check.rows("요약").contains { row in row.contains { ($0["v"] as? String)?.contains("이 자료는 종로구의 행사만 다룹니다.") == true } })
    let district = check.charts.filter { $0["sheet"] as? String == "자치구별" }
    #expect(district.isEmpty, "the whole-catalog 자치구별 sheet of a pack has one row: no chart")
  }

  static func pack(_ name: String) -> TestReport {
    let mine = XLSXFixtures.programs.filter { $0.district == name }
    var report = ReportData(
      snapshot: SnapshotInfo(id: 12, takenAt: XLSXFixtures.takenAt, source: "seoul.csv", programCount: mine.count),
      compareTo: nil, week: XLSXFixtures.week, programs: mine, tables: XLSXFixtures.tables(mine),
      thisWeek: WeekFigures(
        week: XLSXFixtures.week, active: 0, starting: 0, activeFree: 0, activeByCategory: [], activeByDistrict: [],
        startingByCategory: [], startingByDistrict: []),
      compareTables: nil, compareWeek: nil, changes: nil)
    report.district = DistrictScope(
      name: name, runningRank: 1, currentRank: 1, runningShare: 0.5, currentShare: 0.5, districtCount: 25)
    return TestReport(report, programs: mine)
  }

  @Test func runningListHoldsEveryRunningProgramByDistrictThenStartDay() throws {
    let (check, _, _) = try XLSXReportWriterTests.written(report: XLSXFixtures.report)
    let sheet = "이번 주 운영"
    #expect(check.text(sheet, 0, 0) == "자치구")
    let rows = check.rows(sheet).dropFirst().filter { !($0.first?["v"] is NSNull) && $0.first?["v"] != nil }
    let headers = check.rows(sheet).first?.compactMap { $0["v"] as? String } ?? []
    let idCol = try #require(headers.firstIndex(of: "ID"))
    let startCol = try #require(headers.firstIndex(of: "시작일"))
    let ids = rows.compactMap { $0[idCol]["v"] as? String }
    let expected = XLSXFixtures.programs.filter(Self.isRunning)
    #expect(Set(ids) == Set(expected.map(\.id)))
    #expect(ids.count == expected.count)
    // Grouped by district (미상 last), then by start day.
    let keys = rows.map { ($0[0]["v"] as? String ?? "", $0[startCol]["v"] as? String ?? "") }
    let ordered = keys.sorted { a, b in
      let ua = a.0 == District.unknown, ub = b.0 == District.unknown
      if ua != ub { return ub }
      return a.0 != b.0 ? a.0 < b.0 : a.1 <= b.1
    }
    #expect(keys.map(\.0) == ordered.map(\.0))
    #expect(keys.map(\.1) == ordered.map(\.1))
  }

  @Test func freeProgramsWithNoFeeTextShowFreeInEveryList() throws {
    var programs = XLSXFixtures.programs
    for i in programs.indices where programs[i].isFree == true { programs[i].feeText = "" }
    let base = XLSXFixtures.report
    let report = TestReport(
      ReportData(
        snapshot: base.snapshot, compareTo: base.compareTo, week: base.week, programs: programs,
        tables: base.tables, thisWeek: base.thisWeek, compareTables: base.compareTables,
        compareWeek: base.compareWeek, changes: base.changes),
      programs: programs)
    let (check, _, _) = try XLSXReportWriterTests.written(report: report)
    let free = Set(programs.filter { $0.isFree == true }.map(\.id))
    var seen = 0
    for sheet in ["이번 주 운영", "이번 주 시작", "이번 주 종료"] {
      let headers = check.rows(sheet).first?.compactMap { $0["v"] as? String } ?? []
      let idCol = try #require(headers.firstIndex(of: "ID"), "\(sheet)")
      let feeCol = try #require(headers.firstIndex(of: "이용요금"), "\(sheet)")
      for row in check.rows(sheet).dropFirst() {
        guard let id = row[idCol]["v"] as? String else { continue }
        if free.contains(id) {
          #expect(row[feeCol]["v"] as? String == "무료", "\(sheet) \(id)")
          seen += 1
        } else {
          #expect(row[feeCol]["v"] as? String != "무료", "\(sheet) \(id)")
        }
      }
    }
    #expect(seen > 0)
  }

  @Test func endingListIsSortedByEndDay() throws {
    let (check, _, _) = try XLSXReportWriterTests.written(report: XLSXFixtures.report)
    let sheet = "이번 주 종료"
    let headers = check.rows(sheet).first?.compactMap { $0["v"] as? String } ?? []
    let endCol = try #require(headers.firstIndex(of: "종료일"))
    let ends = check.rows(sheet).dropFirst().compactMap { $0[endCol]["v"] as? String }
    let expected = XLSXFixtures.programs.compactMap(\.endDate?.description).filter { $0 >= "2024-09-09" && $0 <= "2024-09-15" }
    #expect(ends.count == expected.count && ends.count > 2)
    #expect(ends == ends.sorted())
  }

  @Test func everyPrintedPageNamesTheReportTheWeekAndThePage() throws {
    let (sheets, check, _) = try XLSXPrintSetUpTests.written()
    #expect(!check.sheets.isEmpty)
    for name in check.sheets {
      let s = try #require(sheets[name])
      #expect(s.header == "&L서울시 문화행사 주간 현황&C2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)&R&A", "\(name): \(s.header)")
      #expect(s.footer == "&C- &P -", "\(name): \(s.footer)")
    }
    let (packSheets, packCheck, _) = try XLSXPrintSetUpTests.written(report: Self.pack("종로구"))
    for name in packCheck.sheets {
      #expect(packSheets[name]?.header.hasPrefix("&L종로구 문화행사 주간 현황&C2024.\u{A0}9.\u{A0}9.(월)") == true, "\(name)")
    }
  }

  @Test func registeredAndAddedHoldingTheSameProgramsAreOneSheet() throws {
    var programs = XLSXFixtures.programs
    let added = Set(XLSXFixtures.report.changes?.added.map(\.id) ?? [])
    for i in programs.indices {
      programs[i].registeredOn = added.contains(programs[i].id) ? CalendarDay(iso: "2024-09-08") : CalendarDay(iso: "2024-08-01")
    }
    let base = XLSXFixtures.report
    let report = TestReport(
      ReportData(
        snapshot: base.snapshot, compareTo: base.compareTo, week: base.week, programs: programs,
        tables: base.tables, thisWeek: base.thisWeek, compareTables: base.compareTables,
        compareWeek: base.compareWeek, changes: base.changes),
      programs: programs)
    #expect(Set(report.lists.registered.map(\.id)) == added)
    let (sheets, _, _) = try XLSXPrintSetUpTests.written(report: report)
    #expect(sheets["신규 등록"]?.state == "visible")
    // Not hidden (LibreOffice prints hidden sheets): it prints nothing, its print area one
    // empty cell right of the list (L1).
    #expect(sheets["새로 추가"]?.state == "visible")
    #expect(sheets["새로 추가"]?.printArea == "'새로 추가'!$L$1")
    // Different programs: both lists show.
    let (both, _, _) = try XLSXPrintSetUpTests.written()
    #expect(both["새로 추가"]?.state == "visible")
  }

  @Test func headlineMarksChangesAndWritesADashForAShareOfNothing() throws {
    var report = XLSXFixtures.report
    let view = report.weekView
    report.previousWeek = WeekView(
      isoWeek: ISOWeek(year: 2024, week: 36) ?? report.week, day: report.snapshot.koreaDay,
      current: view.current - 3, running: 0, starting: 1, ending: 0, registered: 4,
      runningFree: 0, runningByCategory: [], runningByDistrict: [], currentByCategory: [],
      currentByDistrict: [], startingIds: [], endingIds: [], registeredIds: [])
    let (check, _, _) = try XLSXReportWriterTests.written(report: report)
    let s = "요약"
    #expect(check.text(s, 1, 0) == "2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)  |  2024.\u{A0}9.\u{A0}9.(월)\u{A0}10:30 수집 기준")
    let running = try #require(check.row(s, labelled: "이번 주 운영"))
    #expect(check.cell(s, running, 3)["fmt"] as? String == "\"▲ \"#,##0;\"▼ \"#,##0;0")
    let free = try #require(check.row(s, labelled: "무료 비율(이번 주 운영)"))
    #expect(check.text(s, free, 2) == "–")
    #expect(check.text(s, free, 3) == "–")
    #expect(check.cell(s, free, 1)["fmt"] as? String == "0.0%")
    // No snapshot id or source file on the first page: they are on 자료 정보.
    let texts = check.rows(s).flatMap { $0.compactMap { $0["v"] as? String } }
    #expect(!texts.contains { $0.contains("#12") || $0.contains(".csv") || $0.contains("2024-W37") }, "\(texts)")
    #expect(check.sheets.last == "자료 정보")
    #expect(check.rows("자료 정보").flatMap { $0.compactMap { $0["v"] as? String } }.contains("#12"))
  }
}
