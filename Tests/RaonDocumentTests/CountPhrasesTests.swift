@testable import RaonAnalytics
import RaonDocument
import Testing

/// Page 1's sentence rules at counts 0, 1, 2 and many. Every expected sentence is written
/// out by hand (percentages: 8 / 314 = 2.55% → 2.5%; 234 / 1,000 = 23.4%; 1 / 2 = 50.0%).
struct CountPhrasesTests {
  let ko = ReportLabels(.ko)
  let en = ReportLabels(.en)

  func rows(_ pairs: [(String, Int)]) -> [BandCount] { pairs.map { BandCount(key: $0.0, count: $0.1) } }

  @Test func runningAgainstLastWeekAtZeroOneTwoAndMany() {
    #expect(CountPhrases.running(now: 0, previous: nil, place: nil, ko) == "이번 주 운영 중인 문화행사는 없습니다.")
    #expect(CountPhrases.running(now: 1, previous: nil, place: nil, ko) == "이번 주 운영 중인 문화행사는 1건입니다.")
    #expect(
      CountPhrases.running(now: 0, previous: 0, place: "강동구", ko)
        == "강동구에서 이번 주 운영 중인 문화행사는 전주와 마찬가지로 없습니다.")
    #expect(CountPhrases.running(now: 0, previous: 3, place: nil, ko) == "이번 주 운영 중인 문화행사는 없습니다(전주 3건).")
    #expect(
      CountPhrases.running(now: 2, previous: 0, place: nil, ko) == "이번 주 운영 중인 문화행사는 2건으로, 전주에는 없었습니다.")
    #expect(CountPhrases.running(now: 2, previous: 2, place: nil, ko) == "이번 주 운영 중인 문화행사는 2건으로 전주와 같습니다.")
    #expect(
      CountPhrases.running(now: 1, previous: 2, place: nil, ko)
        == "이번 주 운영 중인 문화행사는 1건으로 전주(2건)보다 1건 줄었습니다.")
    #expect(
      CountPhrases.running(now: 306, previous: 314, place: nil, ko)
        == "이번 주 운영 중인 문화행사는 306건으로 전주(314건)보다 8건(2.5%) 줄었습니다.")
    #expect(
      CountPhrases.running(now: 1_234, previous: 1_000, place: nil, ko)
        == "이번 주 운영 중인 문화행사는 1,234건으로 전주(1,000건)보다 234건(23.4%) 늘었습니다.")
    // English: one program runs, several run; none is said in words.
    #expect(CountPhrases.running(now: 1, previous: nil, place: nil, en) == "1 cultural program runs this week.")
    #expect(CountPhrases.running(now: 2, previous: 2, place: nil, en) == "2 cultural programs run this week, as many as last week.")
    #expect(CountPhrases.running(now: 0, previous: 0, place: nil, en) == "No cultural program runs this week, as last week.")
  }

  @Test func registeredStartingAndEndingNeverSayZeroCounts() {
    #expect(
      CountPhrases.registeredStartingEnding(registered: 0, starting: 0, ending: 0, ko)
        == "새로 등록된 행사는 없으며, 이번 주에 시작하거나 끝나는 행사도 없습니다.")
    #expect(
      CountPhrases.registeredStartingEnding(registered: 1, starting: 0, ending: 0, ko)
        == "새로 등록된 행사는 1건이며, 이번 주에 시작하거나 끝나는 행사는 없습니다.")
    #expect(
      CountPhrases.registeredStartingEnding(registered: 1, starting: 1, ending: 0, ko)
        == "새로 등록된 행사는 1건이며, 이번 주에 1건이 시작하고 끝나는 행사는 없습니다.")
    #expect(
      CountPhrases.registeredStartingEnding(registered: 2, starting: 0, ending: 2, ko)
        == "새로 등록된 행사는 2건이며, 이번 주에 시작하는 행사는 없고 2건이 끝납니다.")
    #expect(
      CountPhrases.registeredStartingEnding(registered: 70, starting: 62, ending: 1_066, ko)
        == "새로 등록된 행사는 70건이며, 이번 주에 62건이 시작하고 1,066건이 끝납니다.")
    #expect(
      CountPhrases.registeredStartingEnding(registered: 0, starting: 1, ending: 1, en)
        == "No program was newly registered; 1 starts and 1 ends this week.")
    #expect(
      CountPhrases.registeredStartingEnding(registered: 2, starting: 2, ending: 0, en)
        == "2 programs were newly registered; 2 start this week and none ends.")
  }

  @Test func leadingGroupsAreSaidByTheirCounts() {
    #expect(CountPhrases.leading([], keep: 2, unit: "분류", ko) == nil)
    #expect(CountPhrases.leading(rows([("전시/미술", 0)]), keep: 2, unit: "분류", ko) == nil)
    // One group: no ranking.
    #expect(CountPhrases.leading(rows([("전시/미술", 2)]), keep: 2, unit: "분류", ko) == "모두 전시/미술(2건)입니다")
    // Two bars of 1: equal, not "순으로 많습니다".
    #expect(
      CountPhrases.leading(rows([("클래식", 1), ("전시/미술", 1)]), keep: 2, unit: "분류", ko)
        == "전시/미술·클래식 각 1건입니다")
    #expect(
      CountPhrases.leading(rows([("클래식", 1), ("전시/미술", 1)]), keep: 2, unit: "분류", ending: .connective, ko)
        == "전시/미술·클래식 각 1건이고")
    // Several first, one behind.
    #expect(
      CountPhrases.leading(rows([("연극", 1), ("클래식", 2), ("전시/미술", 2)]), keep: 2, unit: "분류", ko)
        == "전시/미술·클래식 각 2건으로 가장 많습니다")
    // Many equal groups are counted, not listed.
    #expect(
      CountPhrases.leading(rows([("가", 1), ("나", 1), ("다", 1), ("라", 1), ("마", 1)]), keep: 2, unit: "분류", ko)
        == "5개 분류가 각 1건입니다")
    // Many: a ranking of the first `keep`.
    #expect(
      CountPhrases.leading(
        rows([("종로구", 105), ("동대문구", 26), ("중구", 53), ("노원구", 26), ("은평구", 24)]), keep: 3, unit: "구",
        ending: .connective, ko)
        == "종로구(105건), 중구(53건), 노원구(26건) 순으로 많고")
    #expect(
      CountPhrases.leading(rows([("Jongno-gu", 3), ("Jung-gu", 1)]), keep: 2, unit: "districts", en)
        == "Jongno-gu (3), Jung-gu (1) lead")
    #expect(CountPhrases.leading(rows([("Theatre", 1), ("Classical", 1)]), keep: 2, unit: "categories", en) == "Classical, Theatre, 1 each")
  }

  @Test func aChartsRestNeverCountsTheUnknownDistrictAsOne() {
    let fifteen = (1...15).map { BandCount(key: "구\($0)", count: $0 <= 4 ? 9 : 4) }  // 4×9 + 11×4 = 80
    var rest = fifteen
    rest.insert(BandCount(key: "미상", count: 7), at: 3)
    #expect(
      CountPhrases.chartRest(rest, unit: "구", unknownKey: "미상", ko) == "그 외 15개 구 80건, 자치구 미상 7건은 아래 표에 있습니다.")
    #expect(CountPhrases.chartRest(rows([("미상", 7)]), unit: "구", unknownKey: "미상", ko) == "자치구 미상 7건은 아래 표에 있습니다.")
    #expect(CountPhrases.chartRest(rows([("중구", 1)]), unit: "구", unknownKey: "미상", ko) == "그 외 1개 구 1건은 아래 표에 있습니다.")
    #expect(
      CountPhrases.chartRest(rows([("중구", 1), ("미상", 0)]), unit: "구", unknownKey: "미상", ko)
        == "그 외 1개 구 1건은 아래 표에 있습니다.")
    #expect(
      CountPhrases.chartRest(rows([("연극", 2), ("미상", 3)]), unit: "분류", unknownKey: nil, ko)
        == "그 외 2개 분류 5건은 아래 표에 있습니다.")
    #expect(CountPhrases.chartRest([], unit: "구", unknownKey: "미상", ko) == nil)
    // Page 1's chart, whose table is in an attachment, names it.
    #expect(
      CountPhrases.chartRest(rest, unit: "구", unknownKey: "미상", inAttachment: 5, ko)
        == "그 외 15개 구 80건, 자치구 미상 7건은 붙임 5의 표에 있습니다.")
  }

  /// The topic particle after a name: 은 after a final consonant, else 는 (by hand: 원 has ㄴ,
  /// 구/도/시 none).
  @Test func theTopicParticleFollowsTheName() {
    #expect(CountPhrases.topic("문화체육관광부 국립국악원") == "문화체육관광부 국립국악원은")
    #expect(CountPhrases.topic("서울시설공단") == "서울시설공단은")
    #expect(CountPhrases.topic("서대문구") == "서대문구는")
    #expect(CountPhrases.topic("경상북도 안동시") == "경상북도 안동시는")
    #expect(CountPhrases.topic("강원특별자치도") == "강원특별자치도는")
  }
}
