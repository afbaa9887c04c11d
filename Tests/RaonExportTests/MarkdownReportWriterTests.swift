import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

@Suite struct MarkdownReportWriterTests {
  let fixture = TextExportFixture.self

  func written(
    _ report: TestReport? = nil, options: ExportOptions = ExportOptions(),
    writer: MarkdownReportWriter = MarkdownReportWriter()
  ) throws -> (URL, ExportResult, String) {
    let out = try Fixtures.temporaryDirectory("raon-md")
    let result = try writer.write(report ?? fixture.report, into: out, options: options)
    let text = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
    return (out, result, text)
  }

  /// The cells of a table row, split on pipes that are not escaped.
  static func cells(_ line: String) -> [String] {
    var cells: [String] = []
    var current = ""
    var escaped = false
    for ch in line {
      if escaped {
        current.append(ch)
        escaped = false
      } else if ch == "\\" {
        current.append(ch)
        escaped = true
      } else if ch == "|" {
        cells.append(current)
        current = ""
      } else {
        current.append(ch)
      }
    }
    cells.append(current)
    // "| a | b |" splits into "", " a ", " b ", "".
    return Array(cells.dropFirst().dropLast())
  }

  /// Every table of a Markdown text: its lines, header first.
  static func tables(_ markdown: String) -> [[String]] {
    var tables: [[String]] = []
    var current: [String] = []
    for line in markdown.components(separatedBy: "\n") {
      if line.hasPrefix("|") {
        current.append(line)
      } else if !current.isEmpty {
        tables.append(current)
        current = []
      }
    }
    if !current.isEmpty { tables.append(current) }
    return tables
  }

  @Test func everyTableRowHasTheHeadersColumnCount() throws {
    var report = fixture.report
    report.tables.byCategory[0].key = "음악|공연\n야외"
    report.tables.byDistrict[0].key = "a\\|b"
    let (_, _, text) = try written(report)
    let tables = Self.tables(text)
    // Running this week (start ≤ Sunday 15 September, end ≥ Monday 9 September): one table
    // per district, counted here from the programs by that rule.
    let monday = try #require(CalendarDay(iso: "2024-09-09")), sunday = try #require(CalendarDay(iso: "2024-09-15"))
    let runningDistricts = Set(
      fixture.programs.filter { p in
        guard let s = p.startDate, let e = p.endDate else { return false }
        return s <= sunday && e >= monday
      }.map(\.district))
    // Page 1's headline; running by district; the lists of the week that are not empty
    // (starting 5, ending 6, registered 0, added 3); what is on by district and by
    // category; the whole catalog's category, district, fee, duration and category ×
    // district; quality. (The fixture has no trend.)
    #expect(tables.count == 1 + runningDistricts.count + 3 + 2 + 5 + 1)
    for table in tables {
      let width = Self.cells(table[0]).count
      #expect(table.count >= 3, "a table has a header, a delimiter row and rows")
      for row in table {
        #expect(Self.cells(row).count == width, "\(row)")
      }
      #expect(table[1].allSatisfy { "|-: ".contains($0) })
    }
    #expect(text.contains("| 음악\\|공연 야외 |"))
    #expect(text.contains("| a\\\\\\|b |"))
  }

  @Test func titleSnapshotAndComparisonLines() throws {
    let (_, _, text) = try written()
    let lines = text.components(separatedBy: "\n")
    // The period and the time of the data in official form, no-break spaces inside a date.
    #expect(lines[0] == "# 서울시 문화행사 주간 현황")
    #expect(lines[2] == "**2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)** · 2024.\u{A0}9.\u{A0}9.(월)\u{A0}00:00 수집 기준")
    // Snapshot ids, the ISO week and the source file only in the closing "자료 정보".
    let about = try #require(text.range(of: "## 붙임 9. 자료 정보"))
    let page = String(text[..<about.lowerBound])
    for developerTerm in ["#2", "#1", "2024-W37", "seoul-cultural-events", "스냅숏", "ISO", "csv/", ".xlsx", "cult:"] {
      #expect(!page.contains(developerTerm), "\(developerTerm) before 자료 정보")
    }
    #expect(
      text.contains(
        "- **이번 자료**: #2 · 수집 시각 2024-09-09 00:00 KST · 출처 seoul-cultural-events-2024-09-09.cp949.csv · 행사 12건"))
    #expect(text.contains("- **비교 자료**: #1 · 수집 시각 2024-09-02 00:00 KST"))
    #expect(text.contains("- **보고 주간**: 2024-W37 (2024-09-09 ~ 2024-09-15)"))
    let (_, _, english) = try written(options: ExportOptions(language: .en))
    #expect(english.hasPrefix("# Seoul cultural events — weekly status\n\n**Mon\u{A0}9\u{A0}Sep – Sun\u{A0}15\u{A0}Sep\u{A0}2024**"))
  }

  /// The fixture's week by hand (W37, 9–15 September; the snapshot's day is 9 September):
  /// all 12 programs end on or after Monday or have no end (current 12); 9 run during the
  /// week, 5 of them free; 5 start and 6 end within it (one ends before it starts);
  /// none registered from 3 to 9 September.
  @Test func headlineShowsTheWeekBesideThePreviousWeek() throws {
    var report = fixture.report
    report.previousWeek = WeekView(
      isoWeek: ISOWeek(year: 2024, week: 36) ?? report.week, day: CalendarDay(iso: "2024-09-02") ?? report.snapshot.koreaDay,
      current: 10, running: 7, starting: 5, ending: 2, registered: 3, runningFree: 3,
      runningByCategory: [], runningByDistrict: [], currentByCategory: [], currentByDistrict: [],
      startingIds: [], endingIds: [], registeredIds: [])
    let (_, _, text) = try written(report)
    #expect(text.contains("| 구분 | 이번 주 | 전주 | 증감 |"))
    #expect(text.contains("| 운영 중·예정 | 12 | 10 | ▲ 2 |"))
    #expect(text.contains("| 이번 주 운영 | 9 | 7 | ▲ 2 |"))
    #expect(text.contains("| 이번 주 시작 | 5 | 5 | 0 |"))
    #expect(text.contains("| 이번 주 종료 | 6 | 2 | ▲ 4 |"))
    #expect(text.contains("| 신규 등록 | 0 | 3 | ▼ 3 |"))
    #expect(text.contains("| 무료 비율(이번 주 운영) | 55.6% | 42.9% | ▲ 12.7%p |"))
    // The summary's sentences from the same figures: 9 against 7 is 2 more; 5 of 9 free —
    // bases under 10, so counts rather than percentages (the table keeps its shares); one
    // withdrawn, two changed materially.
    #expect(text.contains("- 이번 주 운영 중인 문화행사는 9건으로 전주(7건)보다 2건 늘었습니다.\n"))
    #expect(text.contains("- 새로 등록된 행사는 없으며, 이번 주에 5건이 시작하고 6건이 끝납니다.\n"))
    #expect(text.contains("- 이번 주 운영 행사 9건 중 무료 행사는 5건입니다.\n"))
    #expect(text.contains("- 지난 수집 이후 행사 1건이 종료일 전에 철회되었고, 2건은 내용이 바뀌었습니다(붙임 4).\n"))
    #expect(MarkdownText.signed(-1234) == "−1,234")
    #expect(MarkdownText.signedPoints(-0.005, suffix: "%p") == "−0.5%p")
  }

  @Test func withoutComparisonTheHeadlineHasOneValueColumn() throws {
    let (_, _, text) = try written(fixture.reportWithoutComparison)
    #expect(text.contains("- **비교 자료**: 비교 없음"))
    #expect(text.contains("| 이번 주 운영 | 9 |\n"))
    #expect(text.contains("## 붙임 4. 변경 사항\n\n비교 없음\n"))
    #expect(text.contains("- 이번 주 운영 중인 문화행사는 9건입니다.\n"))
  }

  /// The lists of the week by hand: five programs start in W37, on 9 (100005), 10 (100003),
  /// 11 (the hashed 동네 책 축제), 13 (100001) and 14 September (100007): listed in that order.
  @Test func theWeeksListsAreOrderedAndLinked() throws {
    let (_, _, text) = try written()
    #expect(text.contains("### 이번 주 시작 (5건)"))
    #expect(text.contains("### 이번 주 종료 (6건)"))
    // Registered (none) and added (3) differ here, so both are listed.
    #expect(text.contains("### 신규 등록 (0건)\n\n없음\n"))
    #expect(text.contains("### 지난 수집 이후 추가 (3건)"))
    let starting = try #require(text.range(of: "### 이번 주 시작 (5건)"))
    let ending = try #require(text.range(of: "### 이번 주 종료 (6건)"))
    // Ending: by end day, as sorted here from the programs ending in W37.
    let endingSection = String(text[ending.upperBound...].prefix { _ in true })
      .components(separatedBy: "## 붙임 3.").first ?? ""
    let monday = try #require(CalendarDay(iso: "2024-09-09")), sunday = try #require(CalendarDay(iso: "2024-09-15"))
    let endDays = fixture.programs.compactMap { p -> (CalendarDay, String)? in
      guard let e = p.endDate, e >= monday, e <= sunday else { return nil }
      return (e, p.title)
    }
    let titleOrder = endingSection.split(separator: "\n").filter { $0.hasPrefix("| [") || $0.hasPrefix("| ") }
    var lastEnd: CalendarDay?
    for row in titleOrder {
      guard let (end, _) = endDays.first(where: { row.contains(MarkdownText.inline($0.1)) }) else { continue }
      if let lastEnd { #expect(lastEnd <= end, "ending list out of end-day order at \(row)") }
      lastEnd = end
    }
    #expect(lastEnd != nil)
    let section = String(text[starting.upperBound..<ending.lowerBound])
    let marks = ["cultcode=100005", "cultcode=100003", "동네 책 축제", "cultcode=100001", "cultcode=100007"]
    let positions = marks.compactMap { section.range(of: $0)?.lowerBound }
    #expect(positions.count == 5)
    #expect(positions == positions.sorted())
    #expect(section.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 1 + 5)  // header, rows
  }

  @Test func chartsAreWrittenLinkedAndWellFormed() throws {
    let (out, result, text) = try written()
    let charts = [
      "running_by_district", "running_by_category", "by_category", "by_district", "by_fee",
      "by_duration",
    ].map { "charts/\($0).svg" }
    #expect(result.files == ["report.md"] + charts)
    for chart in charts {
      #expect(text.contains("](\(chart))"))
      let data = try Data(contentsOf: out.appendingPathComponent(chart))
      let parser = XMLParser(data: data)
      #expect(parser.parse(), "\(chart): \(String(describing: parser.parserError))")
    }
    #expect(text.contains("![분류별](charts/by_category.svg)"))
  }

  @Test func districtChartShowsTopNPlusOtherButTheTableIsComplete() throws {
    let (out, _, text) = try written(options: ExportOptions(chartTopN: 3))
    let svg = try String(contentsOf: out.appendingPathComponent("charts/by_district.svg"), encoding: .utf8)
    // The rest is named in a note, never drawn as one more (and the longest) bar.
    #expect(!svg.contains(">그 외</text>") && !svg.contains(">기타"))
    #expect(svg.components(separatedBy: "<rect").count - 1 == 1 + 3)  // background + 3
    for district in fixture.tables.byDistrict.map(\.key) {
      #expect(text.contains("| \(district) | "))
    }
    let ranked = fixture.tables.byDistrict.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
    let rest = ranked.dropFirst(3)
    #expect(rest.count >= 2)
    // 미상 is named apart, never counted as one more 구.
    let districts = rest.filter { $0.key != District.unknown }
    let unknown = rest.filter { $0.key == District.unknown }.reduce(0) { $0 + $1.count }
    let named = "그 외 \(districts.count)개 구 \(districts.reduce(0) { $0 + $1.count })건" + (unknown > 0 ? ", 자치구 미상 \(unknown)건" : "")
    // The whole catalog's chart stands right over its table.
    #expect(text.contains(named + "은 아래 표에 있습니다."), "\(named)")
  }

  @Test func changesAreListedLinkedAndCapped() throws {
    let (_, _, text) = try written()
    #expect(text.contains("추가 3건 · 종료로 삭제 1건 · 철회 1건 · 내용 변경 2건 · 경미한 변경 0건"))
    // Withdrawn first, then material changes, then what ended; what was added is listed
    // once, in attachment 3, and only named here.
    let order = ["### 철회(종료일 전 삭제) (1건)", "### 내용 변경 (2건)", "### 종료로 삭제 (1건)", "새로 추가된 행사 3건은 붙임 3에 있습니다."].map {
      text.range(of: $0)?.lowerBound
    }
    #expect(order.allSatisfy { $0 != nil })
    #expect(zip(order, order.dropFirst()).allSatisfy { a, b in a.flatMap { a in b.map { a < $0 } } ?? false })
    #expect(!text.contains("### 추가 ("))
    // Each entry with its period and district; before → after quoted.
    #expect(text.contains("- [서울 재즈 페스티벌 2024](https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=100001&menuNo=200009) — 콘서트 · 마포구 · 2024.\u{A0}9.\u{A0}13. ~ 9.\u{A0}15.\n"))
    #expect(text.contains("  - 이용요금: 「전석 40,000원」 → 「전석 50,000원」\n"))
    #expect(text.contains("  - 장소: (없음) → 「대학로 예술극장」\n"))
    #expect(text.contains("  - 최저요금(원): 「40,000」 → 「50,000」\n"))
    #expect(text.contains("여름밤 \\| 영화제"))
    // raon diff's document caps its lists.
    let capped = MarkdownReportWriter().renderComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, options: ExportOptions(), listLimit: 2)
    #expect(capped.contains("- 외 1건\n"))
    let english = MarkdownReportWriter().renderComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, options: ExportOptions(language: .en), listLimit: 2)
    #expect(english.contains("- and 1 more\n"))
  }

  @Test func qualityHasExplanationsAndExamples() throws {
    let (_, _, text) = try written()
    // Korean names in the Korean report; the codes stay in CSV and JSON.
    #expect(text.contains("| 좌표 없음 | 좌표(위도·경도)가 없거나 읽을 수 없음 | 2 | 16.7% |"))
    #expect(text.contains("- 종료일이 시작일보다 앞섬: [거꾸로 된 날짜 전시]("))
    // Programs by title (linked to the portal), never by id: 동네 책 축제 has no portal page.
    #expect(text.contains("- 포털 코드 없음(해시 ID): 동네 책 축제\n"))
    #expect(!text.contains("h:0123456789abcdef"))
    #expect(!text.contains("coords_missing"))
  }

  @Test func endsWithTheAttribution() throws {
    let (_, _, text) = try written()
    // The one source line, as page 1 words it.
    #expect(text.hasSuffix("출처: 서울 열린데이터광장 「서울시 문화행사 정보」(공공누리 제1유형)\n"))
  }

  @Test func inlineEscapingKeepsKoreanBracketsReadable() {
    #expect(MarkdownText.inline("<햄릿>") == "<햄릿>")
    #expect(MarkdownText.inline("<script>") == "\\<script>")
    #expect(MarkdownText.inline("a|b*c_d`e[f]\\") == "a\\|b\\*c\\_d\\`e\\[f\\]\\\\")
    #expect(MarkdownText.inline("첫 줄\r\n둘째 줄\n셋") == "첫 줄 둘째 줄 셋")
    #expect(MarkdownText.link("x", url: "javascript:alert(1)") == "x")
    #expect(MarkdownText.link("x", url: "https://culture.seoul.go.kr/c (d)") == "[x](https://culture.seoul.go.kr/c%20%28d%29)")
  }

  @Test func writeComparisonWritesChangesMD() throws {
    let out = try Fixtures.temporaryDirectory("raon-md-diff")
    let result = try MarkdownReportWriter().writeComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, into: out,
      options: ExportOptions())
    #expect(result.files == ["changes.md"])
    let data = try Data(contentsOf: out.appendingPathComponent("changes.md"))
    // Titled by the collections' days (no snapshot number outside 자료 정보).
    #expect(String(decoding: data, as: UTF8.self).hasPrefix("# 변경 사항 — 2024.\u{A0}9.\u{A0}2.(월) → 2024.\u{A0}9.\u{A0}9.(월)\n"))
    try Golden.check(data, "changes.md")
  }

  @Test func goldenReportMarkdownAndChart() throws {
    let (out, _, _) = try written()
    try Golden.checkFile("report.md", in: out)
    try Golden.checkFile("charts/by_category.svg", in: out)
    try Golden.checkFile("charts/by_fee.svg", in: out)
    let (english, _, _) = try written(options: ExportOptions(language: .en))
    try Golden.checkFile("report.md", in: english, as: "en/report.md")
  }
}
