import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import Testing

/// The weekly report's document composed in each catalog's words: its sections, page 1's
/// sentences and headline, its tables and notes. Every expected text is written out by hand
/// from the fixture's programs (their counts are known by construction).
struct WeeklyReportComposerTests {
  typealias F = DocumentFixtures

  /// Seoul's programs: 종로구 5 (콘서트), 중구 4 (교육/체험), 강남구 1 (연극), and two ended.
  static let seoul: [Program] =
    (1...5).map { F.running("s\($0)", "종로구", "콘서트") } + (6...9).map { F.running("s\($0)", "중구", "교육/체험") }
    + [F.running("s10", "강남구", "연극", free: false), F.ended("s11", "종로구", "콘서트"), F.ended("s12", "중구", "연극")]
  /// The national data's: 부산광역시 해운대구 5, 경기도 수원시 4, 강원특별자치도 춘천시 1.
  static let national: [Program] =
    (1...5).map { F.running("n\($0)", "부산광역시", "부산광역시 해운대구") }
    + (6...9).map { F.running("n\($0)", "경기도", "경기도 수원시") }
    + [F.running("n10", "강원특별자치도", "강원특별자치도 춘천시", free: false)]
  /// The third catalog's: 동부 5 (무용), 서부 4 (국악), 중부 1 (클래식).
  static let third: [Program] =
    (1...5).map { F.running("t\($0)", "동부", "무용") } + (6...9).map { F.running("t\($0)", "서부", "국악") }
    + [F.running("t10", "중부", "클래식", free: false)]

  @Test func theSectionsAreTheCatalogsAttachmentsInItsWords() throws {
    let expected: [(CatalogProfile, [Program], String, String)] = [
      (.seoul, Self.seoul, "자치구별", "운영 현황(자치구별·분류별)"),
      (.national, Self.national, "시·도별", "운영 현황(시·도별·제공기관별)"),
      (F.third, Self.third, "권역별", "운영 현황(권역별·장르별)"),
    ]
    for (profile, programs, byRegion, status) in expected {
      let report = F.report(try F.figures(programs), profile)
      #expect(
        report.document.sections.map(\.title) == [
          "붙임 1. 이번 주 운영 행사(\(byRegion))", "붙임 2. 이번 주 시작·종료", "붙임 3. 신규 등록", "붙임 4. 변경 사항",
          "붙임 5. \(status)", "붙임 6. 추이", "붙임 7. 전체 카탈로그 통계", "붙임 8. 데이터 품질", "붙임 9. 자료 정보",
        ], "\(profile.title)")
      // Page 1 names them, each "… 1부."; without the workbook the running list is printed.
      #expect(report.pageOne.attachments.items.first?.text == "이번 주 운영 행사(\(byRegion)) 1부.")
      #expect(report.pageOne.attachments.items.allSatisfy { $0.printText == nil })
      #expect(report.document.sections.allSatisfy { $0.printNote == nil })
      #expect(report.pageOne.title == "\(profile.words.catalog.ko) 주간 현황")
      #expect(report.document.closing == profile.words.sourceLine.ko)
    }
  }

  /// The national data's 요금정보 and 입장연령 come from its profile's extras, in 붙임 7 after
  /// the cross table; Seoul's and the third catalog's reports have none.
  @Test func theCatalogsExtraTablesCloseTheWholeCatalogsStatistics() throws {
    var figures = try F.figures(Self.national)
    figures.extras = ReportExtras.tables(CatalogProfile.national.extras, Self.national)
    let blocks = F.report(figures, .national).document.sections[6].blocks
    let headings = blocks.compactMap { block -> String? in
      if case .heading(let inlines) = block, case .text(let s) = inlines.first { return s }
      return nil
    }
    #expect(Array(headings.suffix(3)) == ["제공기관×시·도", "요금정보별", "입장연령별"], "\(headings)")
    guard case .table(let fee) = blocks[blocks.count - 3] else { Issue.record("no 요금정보 table"); return }
    // Every fixture event has an empty 요금정보: 미상 10 of 10.
    #expect(fee.rows.map { $0.map(\.text) } == [
      ["무료", "0", "0.0%"], ["유료", "0", "0.0%"], ["혼합", "0", "0.0%"], ["미상", "10", "100.0%"],
      ["합계", "10", "100.0%"],
    ])
    for (profile, programs) in [(CatalogProfile.seoul, Self.seoul), (F.third, Self.third)] {
      let texts = F.texts(F.report(try F.figures(programs), profile).document)
      #expect(!texts.contains("요금정보별") && !texts.contains("입장연령별"))
    }
  }

  /// Page 1's first sentence at 0, 1, 2 and many programs running (no comparison).
  @Test func pageOnesFirstSentenceAtZeroOneTwoAndMany() throws {
    let ended = [F.ended("e1", "종로구", "연극")]
    let cases: [(Int, String)] = [
      (0, "이번 주 운영 중인 문화행사는 없습니다."), (1, "이번 주 운영 중인 문화행사는 1건입니다."),
      (2, "이번 주 운영 중인 문화행사는 2건입니다."), (12, "이번 주 운영 중인 문화행사는 12건입니다."),
    ]
    for (n, sentence) in cases {
      let programs = ended + (0..<n).map { F.running("r\($0)", "종로구", "연극") }
      let page = F.report(try F.figures(programs), .seoul).pageOne
      #expect(page.sentences.first == sentence)
      // No comparison: the headline has this week's column only.
      #expect(page.headline.columns.map(\.header) == ["구분", "이번 주"])
    }
    let en = F.report(try F.figures(ended + [F.running("r", "동부", "무용")]), F.third, .en).pageOne
    #expect(en.sentences.first == "1 cultural performance runs this week.")
  }

  /// Where and what (sentence 4) in each catalog's words, with the particle after the names
  /// the data brings: 수원시(4건)가, 콘서트(4건)가, 국악(4건)이.
  @Test func whereAndWhatIsSaidInTheCatalogsWordsWithTheRightParticles() throws {
    let expected: [(CatalogProfile, [Program], String)] = [
      (.seoul, Self.seoul, "자치구별로는 종로구(5건), 중구(4건), 강남구(1건) 순으로 많고, 분류별로는 콘서트(5건), 교육/체험(4건)이 전체의 90.0%입니다."),
      (.national, Self.national,
       "시·도별로는 부산광역시(5건), 경기도(4건), 강원특별자치도(1건) 순으로 많고, 제공기관별로는 부산광역시 해운대구(5건), 경기도 수원시(4건)가 전체의 90.0%입니다."),
      (F.third, Self.third, "권역별로는 동부(5건), 서부(4건), 중부(1건) 순으로 많고, 장르별로는 무용(5건), 국악(4건)이 전체의 90.0%입니다."),
    ]
    for (profile, programs, sentence) in expected {
      let sentences = F.report(try F.figures(programs), profile).pageOne.sentences
      #expect(sentences.count == 4, "\(sentences)")
      #expect(sentences.first == "이번 주 운영 중인 문화행사는 10건입니다.")
      #expect(sentences.last == sentence)
    }
    // A particle after a name that ends in a vowel: Seoul's 콘서트 second.
    let concert = (1...5).map { F.running("a\($0)", "종로구", "교육/체험") } + (6...9).map { F.running("a\($0)", "중구", "콘서트") }
      + [F.running("a10", "강남구", "연극")]
    #expect(
      F.report(try F.figures(concert), .seoul).pageOne.sentences.last?.hasSuffix("교육/체험(5건), 콘서트(4건)가 전체의 90.0%입니다.")
        == true)
    let en = F.report(try F.figures(Self.national), .national, .en).pageOne.sentences.last
    #expect(en == "By province, 부산광역시 (5), 경기도 (4), 강원특별자치도 (1) lead; by provider, 부산광역시 해운대구 (5) and 경기도 수원시 (4) make up 90.0% of them.")
  }

  /// A pack's place among its peers: a region among the regions (Seoul's 25 구, the third's
  /// 권역), a provider among the providers.
  @Test func aPacksPlaceIsSaidAmongItsPeers() throws {
    let city = try F.figures(Self.national)
    var pack = try F.figures(Array(Self.national.prefix(5)))
    var scope = DistrictScope.of("부산광역시", in: city.weekView, among: ["부산광역시", "경기도", "강원특별자치도"])
    scope.name = "부산광역시 해운대구"
    scope.amongProviders = true
    pack.district = scope
    let sentences = F.report(pack, .national).pageOne.sentences
    #expect(sentences.last == "부산광역시 해운대구는 전국 이번 주 운영 행사의 50.0%로 제공기관 3곳 중 1위입니다.", "\(sentences)")

    let thirdCity = try F.figures(Self.third)
    var zone = try F.figures(Array(Self.third.prefix(5)))
    zone.district = DistrictScope.of("동부", in: thirdCity.weekView, among: ["동부", "서부", "중부"])
    let report = F.report(zone, F.third)
    #expect(report.pageOne.sentences.last == "동부는 부산시 이번 주 운영 행사의 50.0%로 3개 권역 중 1위이며, 장르별로는 모두 무용(5건)입니다.")
    #expect(report.pageOne.title == "동부 공연 주간 현황")
    // In English a pack names its district in English everywhere (Seoul's names).
    let seoulCity = try F.figures(Self.seoul)
    var jongno = try F.figures(Array(Self.seoul.prefix(5)))
    jongno.district = DistrictScope.of("종로구", in: seoulCity.weekView, among: ["종로구", "중구", "강남구"])
    let english = F.report(jongno, .seoul, .en).pageOne
    #expect(english.sentences.first == "5 cultural programs run this week in Jongno-gu.")
    #expect(english.sentences.last == "Jongno-gu holds 50.0% of the city's programs running this week, #1 of 3 districts; by category, all in Concert (5).")
    #expect(english.title == "Jongno-gu cultural events — weekly status")
    // A pack prints 붙임 1–7; its catalog statistics and data quality are references.
    #expect(report.document.sections.map(\.title).suffix(2) == ["붙임 7. 자료 정보", "참고 1. 전체 카탈로그 통계"])
  }

  /// 전주 only for the week before: against a collection 65 weeks older, page 1, the
  /// headline and every text of the document name that collection's day, in both languages.
  @Test func lastWeekOnlyForTheWeekBeforeElseTheComparedCollectionsDay() throws {
    // 12 before (a base of 10 or more, so the sentences give percentages), all free.
    let previous = (1...12).map { F.running("n\($0)", "부산광역시", "부산광역시 해운대구") }
    let weekBefore = try F.figures(Self.national, previous: previous, previousAt: F.takenAt.addingTimeInterval(-7 * 86_400))
    let lastWeek = F.report(weekBefore, .national).pageOne
    #expect(lastWeek.headline.columns.map(\.header) == ["구분", "이번 주", "전주", "증감"])
    #expect(lastWeek.sentences.first == "이번 주 운영 중인 문화행사는 10건으로 전주(12건)보다 2건(16.7%) 줄었습니다.")

    // 65 weeks before Monday 2025-03-31 is Monday 2024-01-01; the compared programs ran then too.
    let older = previous.map { p -> Program in
      var p = p
      p.startDate = F.day("2023-06-01")
      return p
    }
    let farBack = try F.figures(Self.national, previous: older, previousAt: F.takenAt.addingTimeInterval(-65 * 7 * 86_400))
    let day = "2024.\u{A0}1.\u{A0}1.(월)"
    let ko = F.report(farBack, .national)
    #expect(ko.pageOne.headline.columns.map(\.header) == ["구분", "이번 주", "비교 시점 \(day)", "증감"])
    #expect(ko.pageOne.sentences[0] == "이번 주 운영 중인 문화행사는 10건으로 비교 시점 \(day)의 12건보다 2건(16.7%) 줄었습니다.")
    #expect(ko.pageOne.sentences[2] == "이번 주 운영 행사 중 무료 행사 비율은 90.0%로 비교 시점 \(day)보다 10.0%p 낮습니다.")
    let en = F.report(farBack, .national, .en)
    #expect(en.pageOne.headline.columns[2].header == "As of Mon\u{A0}1\u{A0}Jan\u{A0}2024")
    #expect(
      en.pageOne.sentences[0]
        == "10 cultural events run this week, 2 (16.7%) fewer than on Mon\u{A0}1\u{A0}Jan\u{A0}2024 (12).")
    for text in F.texts(ko.document) + F.texts(en.document) + ko.pageOne.sentences + en.pageOne.sentences {
      for word in ["전주", "last week", "Last week"] { #expect(!text.contains(word), "\(word) in \(text)") }
    }
    // The same figures against the week before say 전주 again: the rule is the week, not the data.
    #expect(F.texts(F.report(weekBefore, .national).document).contains { $0.contains("전주") })
  }

  /// A chart's note names what it leaves out in the catalog's counter, the unknown region
  /// apart: 그 외 2개 구 / 시·도 / 권역 (one bar drawn, the rest of 4 + 1 named).
  @Test func aChartsRestIsCountedInTheCatalogsWords() throws {
    var options = DocumentOptions(chartTopN: 1)
    let cases: [(CatalogProfile, [Program], String)] = [
      (.seoul, Self.seoul + [F.running("u", "미상", "연극")], "그 외 2개 구 5건, 자치구 미상 1건은 아래 표에 있습니다."),
      (.national, Self.national, "그 외 2개 시·도 5건은 아래 표에 있습니다."),
      (F.third, Self.third, "그 외 2개 권역 5건은 아래 표에 있습니다."),
    ]
    for (profile, programs, note) in cases {
      options.profile = profile
      guard case .report(let report) = ReportDocument.report(try F.figures(programs), options: options) else { return }
      #expect(report.charts.runningByDistrict.note == note, "\(profile.title)")
    }
  }

  /// No word of another catalog in a document (nor an internal placeholder), in either
  /// language.
  @Test func aDocumentSpeaksOnlyItsOwnCatalogsWords() throws {
    let foreign: [(CatalogProfile, [Program], [String])] = [
      (.seoul, Self.seoul, ["시·도", "제공기관", "province", "provider", "부산", "권역", "zone", "genre"]),
      (.national, Self.national, ["자치구", "분류", "프로그램", "서울", "개 구", "district", "categor", "program", "Seoul", "city"]),
      (F.third, Self.third, ["자치구", "분류", "프로그램", "서울", "시·도", "제공기관", "district", "categor", "program", "Seoul", "province", "provider"]),
    ]
    for (profile, programs, words) in foreign {
      for language in ReportLanguage.allCases {
        let previous = Array(programs.dropLast(2))
        let report = F.report(try F.figures(programs, previous: previous), profile, language)
        for text in F.texts(report.document) {
          for word in words { #expect(!text.contains(word), "\(profile.title) \(language): \(word) in \(text)") }
          #expect(!text.contains("{"), "\(text)")
        }
      }
    }
  }
}
