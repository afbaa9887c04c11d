import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import Testing

/// Page 1's head (보고일 and the office of `[document]`) and its 붙임 as an office writes
/// them, in both catalogs and both languages. The fixture's snapshot is taken on Monday
/// 2025-03-31 (보고일); Seoul's fixture runs 10 programs (종로구 5, 중구 4, 강남구 1), so
/// the city's report has 9 attachments and a pack 7 (1–6 and 자료 정보).
struct PageOneHeadTests {
  typealias F = DocumentFixtures
  static let head = DocumentHead(department: "문화본부 문화정책과", officer: "주무관 홍길동", phone: "02-2133-0000")
  static let nb = "\u{A0}"
  static var reported: String { "보고일 2025.\(nb)3.\(nb)31.(월)" }

  /// The byline of page 1 (the block after the period line), as one text.
  static func byline(_ report: WeeklyReport) -> String? {
    for block in report.document.front {
      if case .byline(let inlines) = block {
        return inlines.map { if case .text(let s) = $0 { return s } else { return "" } }.joined()
      }
    }
    return nil
  }

  static func attachments(_ report: WeeklyReport) -> AttachmentList? {
    for block in report.document.front {
      if case .attachments(let list) = block { return list }
    }
    return nil
  }

  @Test func theHeadNamesTheReportsDayAndTheOfficeInBothCatalogs() throws {
    for (profile, programs) in [(CatalogProfile.seoul, WeeklyReportComposerTests.seoul), (.national, WeeklyReportComposerTests.national)] {
      let report = F.report(try F.figures(programs), profile, head: Self.head)
      #expect(
        Self.byline(report) == "\(Self.reported) · 문화본부 문화정책과 · 담당 주무관 홍길동 (02-2133-0000)", "\(profile.title)")
      #expect(report.pageOne.office == ["문화본부 문화정책과", "담당 주무관 홍길동 (02-2133-0000)"])
    }
    let en = F.report(
      try F.figures(WeeklyReportComposerTests.seoul), .seoul, .en,
      head: DocumentHead(department: "Culture Policy Division", officer: "Hong Gil-dong", phone: "02-2133-0000"))
    #expect(
      Self.byline(en) == "Reported Mon\(Self.nb)31\(Self.nb)Mar\(Self.nb)2025 · Culture Policy Division · Contact: Hong Gil-dong (02-2133-0000)")
  }

  /// Unset parts are left out, never printed as a placeholder; blank ones count as unset.
  @Test func anUnsetHeadLeavesOnlyTheReportsDay() throws {
    let figures = try F.figures(WeeklyReportComposerTests.seoul)
    let cases: [(DocumentHead, String)] = [
      (DocumentHead(), Self.reported),
      (DocumentHead(department: "  ", officer: "", phone: nil), Self.reported),
      (DocumentHead(phone: "02-2133-0000"), "\(Self.reported) · 연락처 02-2133-0000"),
      (DocumentHead(officer: "담당관 김철수"), "\(Self.reported) · 담당관 김철수"),
      (DocumentHead(department: "종로구 문화과", officer: "주무관 이영희"), "\(Self.reported) · 종로구 문화과 · 담당 주무관 이영희"),
    ]
    for (head, expected) in cases {
      let line = Self.byline(F.report(figures, .seoul, head: head))
      #expect(line == expected)
      for word in ["nil", "Optional", "()", "담당 ·", "연락처 ·"] { #expect(line?.contains(word) == false, "\(word)") }
    }
    #expect(DocumentHead(department: " ", officer: "\n").isEmpty)
  }

  /// "붙임  1. … 1부." one per line, "1부." on every item and "끝." after the last; the
  /// printed lines align under the first item.
  @Test func theAttachmentsAreListedAsAnOfficeListsThem() throws {
    let city = F.report(try F.figures(WeeklyReportComposerTests.seoul), .seoul)
    let list = try #require(Self.attachments(city))
    #expect(list.heading == "붙임")
    #expect(list.items.map(\.text) == [
      "이번 주 운영 행사(자치구별) 1부.", "이번 주 시작·종료 1부.", "신규 등록 1부.", "변경 사항 1부.",
      "운영 현황(자치구별·분류별) 1부.", "추이 1부.", "전체 카탈로그 통계 1부.", "데이터 품질 1부.", "자료 정보 1부.",
    ])
    #expect(list.items.map(\.number) == Array(1...9))
    #expect(list.end == "끝.")
    let lines = list.printedLines
    #expect(lines.first == "붙임  1. 이번 주 운영 행사(자치구별) 1부.")
    #expect(lines[1] == "      2. 이번 주 시작·종료 1부.")
    #expect(lines.last == "      9. 자료 정보 1부.  끝.")
    // The same list in the national catalog's words.
    let national = F.report(try F.figures(WeeklyReportComposerTests.national), .national)
    #expect(Self.attachments(national)?.items.first?.text == "이번 주 운영 행사(시·도별) 1부.")
    #expect(Self.attachments(national)?.items[4].text == "운영 현황(시·도별·제공기관별) 1부.")
    // English: the titles alone, no copy count and no closing mark.
    let en = try #require(Self.attachments(F.report(try F.figures(WeeklyReportComposerTests.seoul), .seoul, .en)))
    #expect(en.heading == "Attachments")
    #expect(en.end == nil)
    #expect(en.items.first?.text == "Programs running this week, by district")
    #expect(en.items.allSatisfy { !$0.text.contains("1부") && !$0.text.contains("copy") })
  }

  /// With the workbook, the city's running list is its sheet on paper, and page 1 and the
  /// printed note say so; nothing claims paper sent separately, in either catalog.
  @Test func anAttachmentNotPrintedNamesTheWorkbooksSheet() throws {
    for (profile, programs, region) in [
      (CatalogProfile.seoul, WeeklyReportComposerTests.seoul, "자치구"), (.national, WeeklyReportComposerTests.national, "시·도"),
    ] {
      let report = F.report(try F.figures(programs), profile, workbook: true)
      let first = try #require(Self.attachments(report)?.items.first)
      #expect(first.text == "이번 주 운영 행사(\(region)별) 1부.")
      #expect(first.printText == "이번 주 운영 행사(\(region)별) 1부(엑셀 파일 「이번 주 운영」 시트로 갈음).")
      #expect(Self.attachments(report)?.items.dropFirst().allSatisfy { $0.printText == nil } == true)
      #expect(report.document.sections[0].printNote == "이번 주 운영 행사 10건의 \(region)별 목록은 엑셀 파일 「이번 주 운영」 시트로 갈음합니다.")
      for text in F.texts(report.document) + F.texts(F.report(try F.figures(programs), profile, .en, workbook: true).document) {
        for word in ["인쇄본", "별도 송부", "별도로 보냅니다", "sent separately", "on paper"] {
          #expect(!text.contains(word), "\(word) in \(text)")
        }
      }
    }
  }

  /// A pack's printed note on what starts and ends names the workbook's sheets only when
  /// the workbook goes with it (the screen shows the lists themselves).
  @Test func aPacksNoteNamesOnlyWhatTheReaderHas() throws {
    // 종로구's week: 5 running, of which s1 starts this week and s2 ends this week.
    var programs = WeeklyReportComposerTests.seoul
    programs[0].startDate = F.day("2025-04-01")
    programs[1].endDate = F.day("2025-04-02")
    let city = try F.figures(programs)
    var pack = try F.figures(programs.filter { $0.district == "종로구" })
    pack.district = DistrictScope.of("종로구", in: city.weekView, among: District.all)
    let base = "이번 주 시작 행사 1건과 종료 행사 1건은 모두 이번 주 운영 행사로, 붙임 1의 「이번 주」 열에 「시작」·「종료」로 표시했습니다."
    #expect(F.report(pack, .seoul).document.sections[1].printNote == base)
    #expect(
      F.report(pack, .seoul, workbook: true).document.sections[1].printNote
        == base + " 날짜순 목록은 엑셀 파일 「이번 주 시작」·「이번 주 종료」 시트에 있습니다.")
    let list = try #require(Self.attachments(F.report(pack, .seoul, workbook: true)))
    #expect(list.items.count == 7)
    #expect(list.items.last?.text == "자료 정보 1부.")
    // A pack prints its running list: no item stands for a file.
    #expect(list.items.allSatisfy { $0.printText == nil })
    for text in F.texts(F.report(pack, .seoul).document) { #expect(!text.contains("화면용 보고서"), "\(text)") }
  }

  /// Page 1's chart note points to attachment 5's table; the same chart over its own table
  /// in attachment 5 says "아래 표".
  @Test func page1sChartNotePointsToTheAttachmentsTable() throws {
    var options = DocumentOptions(chartTopN: 1)
    options.profile = .seoul
    guard case .report(let report) = ReportDocument.report(try F.figures(WeeklyReportComposerTests.seoul), options: options)
    else { return }
    #expect(report.pageOne.chart?.note == "그 외 2개 구 5건은 붙임 5의 표에 있습니다.")
    #expect(report.charts.runningByDistrict.note == "그 외 2개 구 5건은 아래 표에 있습니다.")
  }

  /// A message's sentences say the changes without "(붙임 4)": its 붙임 are its files.
  @Test func aMessagesSentencesPointIntoNoAttachment() throws {
    var previous = WeeklyReportComposerTests.seoul
    previous[0].title = "예전 제목"
    let figures = try F.figures(WeeklyReportComposerTests.seoul, previous: previous)
    var options = DocumentOptions()
    #expect(ReportDocument.pageOne(figures, options: options).sentences.last == "지난 수집 이후 내용이 바뀐 행사는 1건입니다(붙임 4).")
    options.refersToAttachments = false
    #expect(ReportDocument.pageOne(figures, options: options).sentences.last == "지난 수집 이후 내용이 바뀐 행사는 1건입니다.")
    options.language = .en
    #expect(ReportDocument.pageOne(figures, options: options).sentences.last == "Since the last collection, 1 program was changed.")
  }
}

/// Issue 47's English and percentages: counts agree at 0, 1, 2 and many; a sentence gives a
/// percentage only of a base of 10 or more (below, the counts alone).
struct CountAgreementTests {
  typealias F = DocumentFixtures
  let ko = ReportLabels(.ko)
  let en = ReportLabels(.en)

  @Test func aChangeOnASmallBaseIsSaidInCounts() {
    #expect(CountPhrases.running(now: 2, previous: 4, place: nil, ko) == "이번 주 운영 중인 문화행사는 2건으로 전주(4건)보다 2건 줄었습니다.")
    #expect(CountPhrases.running(now: 11, previous: 9, place: nil, ko) == "이번 주 운영 중인 문화행사는 11건으로 전주(9건)보다 2건 늘었습니다.")
    #expect(CountPhrases.running(now: 12, previous: 10, place: nil, ko) == "이번 주 운영 중인 문화행사는 12건으로 전주(10건)보다 2건(20.0%) 늘었습니다.")
    #expect(CountPhrases.running(now: 1, previous: 2, place: nil, en) == "1 cultural program runs this week, 1 fewer than last week (2).")
    #expect(CountPhrases.running(now: 12, previous: 10, place: nil, en) == "12 cultural programs run this week, 2 (20.0%) more than last week (10).")
  }

  /// The free share of fewer than 10 running programs, in counts, at 0, 1, 2 and many free.
  @Test func theFreeShareOfAFewIsSaidInCounts() throws {
    func sentence(free: Int, running: Int, _ language: ReportLanguage) throws -> String {
      let programs = (0..<running).map { F.running("f\($0)", "종로구", "연극", free: $0 < free) }
      return F.report(try F.figures(programs), .seoul, language).pageOne.sentences[2]
    }
    #expect(try sentence(free: 0, running: 1, .ko) == "이번 주 운영 행사 1건은 유료입니다.")
    #expect(try sentence(free: 1, running: 1, .ko) == "이번 주 운영 행사 1건은 무료입니다.")
    #expect(try sentence(free: 0, running: 2, .ko) == "이번 주 운영 행사 2건 중 무료 행사는 없습니다.")
    #expect(try sentence(free: 2, running: 2, .ko) == "이번 주 운영 행사 2건은 모두 무료입니다.")
    #expect(try sentence(free: 3, running: 5, .ko) == "이번 주 운영 행사 5건 중 무료 행사는 3건입니다.")
    #expect(try sentence(free: 7, running: 10, .ko) == "이번 주 운영 행사 중 무료 행사 비율은 70.0%입니다.")
    #expect(try sentence(free: 1, running: 1, .en) == "The 1 program running is free.")
    #expect(try sentence(free: 0, running: 1, .en) == "The 1 program running is not free.")
    #expect(try sentence(free: 2, running: 2, .en) == "Both programs running are free.")
    #expect(try sentence(free: 0, running: 3, .en) == "None of the 3 programs running is free.")
    #expect(try sentence(free: 1, running: 5, .en) == "1 of the 5 programs running is free.")
    #expect(try sentence(free: 3, running: 5, .en) == "3 of the 5 programs running are free.")
  }

  @Test func englishCountsAgreeAtZeroOneTwoAndMany() {
    #expect(en.addedShownAbove(1, attachment: 3) == "The 1 program added is listed in attachment 3.")
    #expect(en.addedShownAbove(2, attachment: 3) == "The 2 programs added are listed in attachment 3.")
    #expect(en.allRunningIn("Theatre", 1) == "The 1 program running this week is in Theatre.")
    #expect(en.allRunningIn("Theatre", 2) == "Both programs running this week are in Theatre.")
    #expect(en.allRunningIn("Theatre", 5) == "All 5 programs running this week are in Theatre.")
    #expect(
      en.packStartingEndingPrintNote(starting: 1, ending: 0, workbook: false)
        == "The 1 program starting this week runs this week: attachment 1 marks it in its “This week” column.")
    #expect(
      en.packStartingEndingPrintNote(starting: 1, ending: 1, workbook: false)
        == "The 1 program starting and 1 ending this week all run this week: attachment 1 marks them in its “This week” column.")
    #expect(
      en.packStartingEndingPrintNote(starting: 0, ending: 3, workbook: false)
        == "The 3 programs ending this week all run this week: attachment 1 marks them in its “This week” column.")
    #expect(
      ko.packStartingEndingPrintNote(starting: 0, ending: 3, workbook: false)
        == "이번 주 종료 행사 3건은 모두 이번 주 운영 행사로, 붙임 1의 「이번 주」 열에 「종료」로 표시했습니다.")
    #expect(
      ko.packStartingEndingPrintNote(starting: 1, ending: 0, workbook: false)
        == "이번 주 시작 행사 1건은 이번 주 운영 행사로, 붙임 1의 「이번 주」 열에 「시작」으로 표시했습니다.")
    #expect(en.programCountText(1) == "1 program" && en.programCountText(2) == "2 programs")
  }
}
