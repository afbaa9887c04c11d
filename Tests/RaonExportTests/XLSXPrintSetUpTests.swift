import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// The workbook prints as it comes: every sheet's page set-up read back from the XML
/// (`pageSetup`, `pageSetUpPr fitToPage`, `headerFooter`, `_xlnm.Print_Titles`) by
/// `Scripts/check_print.py`, an independent reader.
@Suite("XLSX print set-up")
struct XLSXPrintSetUpTests {
  /// One sheet's print set-up as `check_print.py` reads it.
  struct PrintedSheet {
    let json: [String: Any]
    var state: String { json["state"] as? String ?? "" }
    var orientation: String { json["orientation"] as? String ?? "" }
    var paperSize: Int { json["paperSize"] as? Int ?? 0 }
    var fitToPage: Bool { json["fitToPage"] as? Bool ?? false }
    var fitToWidth: Int { json["fitToWidth"] as? Int ?? -1 }
    var fitToHeight: Int { json["fitToHeight"] as? Int ?? -1 }
    var header: String { json["oddHeader"] as? String ?? "" }
    var footer: String { json["oddFooter"] as? String ?? "" }
    var printTitles: String? { json["printTitles"] as? String }
    var printArea: String? { json["printArea"] as? String }
    var margins: [String: Double] { json["margins"] as? [String: Double] ?? [:] }
    var colorScales: [[String: Any]] { json["colorScales"] as? [[String: Any]] ?? [] }
  }

  static func printSetUp(_ file: URL) throws -> [String: PrintedSheet] {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/check_print.py")
    let result = try TestSupport.Python.run([script.path, file.path])
    guard result.status == 0,
      let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    else { throw XLSXCheck.CheckError(message: result.stderr) }
    return object.compactMapValues { ($0 as? [String: Any]).map { PrintedSheet(json: $0) } }
  }

  static func written(
    _ options: ExportOptions = ExportOptions(), writer: XLSXReportWriter = XLSXReportWriter(),
    report: TestReport = XLSXFixtures.report
  ) throws -> (sheets: [String: PrintedSheet], check: XLSXCheck, file: URL) {
    let (check, _, file) = try XLSXReportWriterTests.written(options, writer: writer, report: report)
    return (try printSetUp(file), check, file)
  }

  @Test func everySheetPrintsOnA4FittedOnePageWideWithHeaderAndPageNumbers() throws {
    let (sheets, check, _) = try Self.written()
    #expect(sheets.count == check.sheets.count)
    for name in check.sheets {
      let s = try #require(sheets[name], "\(name) has no print set-up")
      #expect(s.paperSize == 9, "\(name) prints on A4")
      #expect(s.fitToPage, "\(name) is fitted to the page")
      #expect(s.fitToWidth == 1, "\(name) is one page wide")
      #expect(s.header == "&L서울시 문화행사 주간 현황&C2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)&R&A", "\(name): report title, week and sheet name")
      #expect(s.footer == "&C- &P -", "\(name): page n as - n -")
      #expect(s.margins["left"] == 0.4 && s.margins["top"] == 0.6, "\(name) margins")
    }
  }

  @Test func summaryPrintsPortraitOnOnePage() throws {
    let (sheets, _, _) = try Self.written()
    let summary = try #require(sheets["요약"])
    #expect(summary.orientation == "portrait")
    #expect(summary.fitToWidth == 1 && summary.fitToHeight == 1)
    #expect(summary.printTitles == nil)
  }

  @Test func tableSheetsRunOnInLengthAndRepeatTheirHeaderRow() throws {
    let (sheets, check, _) = try Self.written()
    // The whole catalog's tables of a page or less repeat no header row: above a chart
    // that starts a page of its own it headed empty columns (issue 47).
    let short = ["분류별", "자치구별", "요금대별", "기간별", "데이터 품질"]
    // The catalog prints nothing (below).
    for name in check.sheets where name != "요약" && name != "자료 정보" && name != "프로그램" {
      let s = try #require(sheets[name])
      #expect(s.fitToHeight == 0, "\(name) runs on as many pages as it needs")
      if short.contains(name) {
        #expect(s.printTitles == nil, "\(name) repeats \(s.printTitles ?? "")")
        continue
      }
      // 운영 현황's four tables start under its title: their titles and headers repeat.
      let rows = name == "운영 현황" ? "$4:$5" : "$1:$1"
      #expect(s.printTitles?.hasSuffix("'\(name)'!\(rows)") == true, "\(name) repeats \(rows): \(s.printTitles ?? "none")")
    }
  }

  @Test func programsAndChangesRepeatTheirIdAndTitleColumns() throws {
    let (sheets, _, _) = try Self.written()
    let programs = try #require(sheets["프로그램"])
    #expect(programs.orientation == "landscape")
    // The whole catalog is for the screen: its print area is one empty cell right of the
    // table (Y1), which LibreOffice leaves out; no titles repeat.
    #expect(programs.printTitles == nil)
    #expect(programs.printArea == "'프로그램'!$Y$1")
    let changes = try #require(sheets["변경 사항"])
    #expect(changes.printTitles == "'변경 사항'!$A:$B,'변경 사항'!$1:$1")
    // The week's lists repeat their title column and print up to the fee (the ID, H, and
    // what follows stay on screen).
    #expect(sheets["이번 주 시작"]?.printTitles == "'이번 주 시작'!$A:$A,'이번 주 시작'!$1:$1")
    #expect(sheets["이번 주 시작"]?.printArea == "'이번 주 시작'!$A:$G")
    let cross = try #require(sheets["분류×자치구"])
    #expect(cross.printTitles == "'분류×자치구'!$A:$A,'분류×자치구'!$1:$1")
  }

  @Test func programsContinuedOnMoreSheetsPrintAlike() throws {
    let (sheets, check, _) = try Self.written(writer: XLSXReportWriter(rowLimit: 10))
    let continued = check.sheets.filter { $0.hasPrefix("프로그램") }
    #expect(continued.count == 2)
    for name in continued {
      let s = try #require(sheets[name])
      #expect(s.fitToPage && s.fitToWidth == 1 && s.orientation == "landscape")
      #expect(s.printTitles == nil)
      #expect(s.printArea == "'\(name)'!$Y$1")
    }
  }

  @Test func wideSheetsAreLandscapeAndNarrowOnesPortrait() throws {
    let (sheets, _, _) = try Self.written()
    #expect(sheets["요금대별"]?.orientation == "portrait")
    #expect(sheets["기간별"]?.orientation == "portrait")
    #expect(sheets["분류×자치구"]?.orientation == "portrait")  // 9 districts fit a portrait page
    #expect(sheets["프로그램"]?.orientation == "landscape")
    // All 25 districts and 미상 across: landscape, still one page wide.
    var report = XLSXFixtures.report
    let districts = District.all + [District.unknown]
    let categories = ["전시/미술", "클래식", "축제-문화/예술"]
    report.tables.categoryByDistrict = CrossTable(
      rowKeys: categories, columnKeys: districts,
      counts: categories.indices.map { r in districts.indices.map { ($0 * 7 + r * 13) % 120 } })
    let (wide, _, _) = try Self.written(report: report)
    #expect(wide["분류×자치구"]?.orientation == "landscape")
    #expect(wide["분류×자치구"]?.fitToWidth == 1)
  }

  @Test func comparisonWorkbookPrintsToo() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-print")
    let report = XLSXFixtures.report
    let diff = try #require(report.changes)
    let compare = try #require(report.compareTo)
    _ = try XLSXReportWriter().writeComparison(
      diff, from: compare, to: report.snapshot, into: dir, options: ExportOptions(language: .en))
    let sheets = try Self.printSetUp(dir.appendingPathComponent("changes.xlsx"))
    let changes = try #require(sheets["Changes"])
    #expect(changes.fitToPage && changes.paperSize == 9)
    // The header row sits below the from/to block (row 6).
    #expect(changes.printTitles == "Changes!$A:$B,Changes!$6:$6")
    #expect(changes.header == "&LChanges&CMon\u{A0}2\u{A0}Sep\u{A0}2024 → Mon\u{A0}9\u{A0}Sep\u{A0}2024&R&A")
  }

  // MARK: - Cross table and chart data

  @Test func crossTableColourScaleRunsFromZeroToTheMaximum() throws {
    let (sheets, check, _) = try Self.written()
    let scales = try #require(sheets["분류×자치구"]).colorScales
    #expect(scales.count == 1)
    let cfvo = scales.first?["cfvo"] as? [[String: String]] ?? []
    #expect(cfvo.map { $0["type"] } == ["num", "max"])
    #expect(cfvo.first?["val"] == "0")
    #expect((scales.first?["colors"] as? [String]) == ["FFFFFFFF", "FF5B9BD5"])
    // It covers the counts, not the totals.
    let table = XLSXFixtures.tables(XLSXFixtures.programs).categoryByDistrict
    let last = XLSXSheet.cellName(row: table.rowKeys.count, col: table.columnKeys.count)
    #expect(scales.first?["sqref"] as? String == "B2:\(last)")
    #expect(check.text("분류×자치구", 0, 1) == table.columnKeys.first)
  }

  @Test func everySheetIsVisibleAndChartsReadTheTablesTheyStandUnder() throws {
    let (sheets, check, _) = try Self.written()
    // The fixture's registered and added lists differ: no sheet is hidden.
    for name in check.sheets { #expect(sheets[name]?.state == "visible", "\(name)") }
    let formulas = check.charts.flatMap { $0["formulas"] as? [String] ?? [] }
    #expect(formulas.contains("'자치구별'!$A$2:$A$9"))
    #expect(!formulas.contains { $0.hasPrefix("'차트 자료'") })
  }

  // MARK: - Quality flags

  /// The fixture report with `coords_missing` on five programs, so the examples are cut.
  static var reportWithFiveMissingCoordinates: TestReport {
    var programs = XLSXFixtures.programs
    for i in [0, 2, 4, 6, 8] { programs[i].qualityFlags.insert(.coordsMissing) }
    var report = XLSXFixtures.report.with(programs: programs)
    report.tables.quality.append(QualityCount(key: "coords_missing", count: 5))
    return report
  }

  @Test func qualitySheetNamesFlagsInKoreanWithTheirCodes() throws {
    let (_, check, _) = try Self.written()
    let q = "데이터 품질"
    #expect(check.text(q, 0, 0) == "품질 표시")
    #expect(check.text(q, 1, 0) == "자치구 없음")
    #expect(check.text(q, 2, 0) == "종료일이 시작일보다 앞섬")
    #expect(check.text(q, 3, 0) == "포털 코드 없음(해시 ID)")
    #expect(check.text(q, 1, 4) == "district_missing")
    // The programs sheet's 품질 표시 column (V) too.
    let hashed = try #require(check.rows("프로그램").firstIndex { ($0.first?["v"] as? String)?.hasPrefix("h:") == true })
    #expect(check.text("프로그램", hashed, 21) == "자치구 없음, 포털 코드 없음(해시 ID)")
    let (_, english, _) = try Self.written(ExportOptions(language: .en))
    #expect(english.text("Data quality", 1, 0) == "District missing")
  }

  @Test func qualitySheetListsTheSameThreeExamplesPerFlagAsTheMarkdown() throws {
    let report = Self.reportWithFiveMissingCoordinates
    let (_, check, _) = try Self.written(report: report)
    let examples = check.rows("데이터 품질").filter {
      // The id sits right of the printed table (F): on screen, not on paper.
      ($0.first?["v"] as? String) == "좌표 없음" && (($0.count > 5 ? $0[5]["v"] : nil) as? String)?.hasPrefix("cult:") == true
    }.compactMap { $0[5]["v"] as? String }
    #expect(examples == ["cult:100001", "cult:100003", "cult:100005"])

    let markdown = try MarkdownReportWriter().render(report, options: ExportOptions()).markdown
    let line = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- 좌표 없음: ") })
    // The Markdown names them by title, linked to their portal pages (no id in printed text).
    let ids = line.matches(of: /cultcode=(\d+)/).map { "cult:" + $0.1 }
    #expect(ids == examples)
    #expect(!line.contains("cult:"))
    // The titles are links to the portal.
    let links = check.map("hyperlinks", "데이터 품질") as? [String: String] ?? [:]
    #expect(links.values.contains { $0.hasSuffix("cultcode=100001") })
  }

  // MARK: - Percentages

  @Test func percentagesHaveOneDecimalEverywhere() {
    #expect(Percentage.text(0.07) == "7.0%")
    #expect(Percentage.text(0.043) == "4.3%")
    #expect(Percentage.text(1) == "100.0%")
    #expect(Percentage.text(0) == "0.0%")
    #expect(Percentage.text(0.0435) == "4.4%")  // half away from zero on the decimal value
    #expect(Percentage.text(.nan) == "—%")
    #expect(Percentage.pointsText(0, suffix: "%p") == "0.0%p")
    #expect(Percentage.pointsText(0.01, suffix: "%p") == "+1.0%p")
    #expect(Percentage.pointsText(-0.005, suffix: " pp") == "−0.5 pp")
    #expect(MarkdownText.percent(0.07) == "7.0%")
  }

  /// Every share of n out of a total reads as the exact rational rounded half up, and the
  /// workbook stores what the text says.
  @Test(arguments: [7, 13, 200, 4_998])
  func percentageRoundingMatchesExactArithmetic(total: Int) {
    for n in 0...total {
      let tenths = (n * 2_000 + total) / (2 * total)  // round(n / total × 1000), half up
      let expected = "\(tenths / 10).\(tenths % 10)%"
      #expect(Percentage.text(Double(n) / Double(total)) == expected, "\(n)/\(total)")
      #expect(Percentage.rounded(Double(n) / Double(total)) == Double(tenths) / 1000, "\(n)/\(total)")
    }
  }

  @Test func workbookSharesAreStoredAsTheMarkdownRoundsThem() throws {
    let (_, check, _) = try Self.written()
    let report = XLSXFixtures.report
    let markdown = try MarkdownReportWriter().render(report, options: ExportOptions()).markdown
    for (i, g) in report.tables.byCategory.enumerated() {
      let stored = try #require(check.number("분류별", i + 1, 2))
      #expect(check.cell("분류별", i + 1, 2)["fmt"] as? String == "0.0%")
      #expect(stored == Percentage.rounded(g.share))
      #expect(markdown.contains("| \(g.key) | \(g.count) | \(Percentage.text(stored)) |"))
    }
  }
}
