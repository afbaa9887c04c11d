import Foundation
import RaonCore
import TestSupport
import Testing

/// The natural key of docs/NATIONAL.md and the fold of sessions into events, on the real
/// download against an independent Python reading of the same rules.
@Suite("National key and sessions")
struct NationalKeyTests {
  @Test func foldingIgnoresSpacingWidthAndCase() {
    #expect(TextKey.fold(" 2025 토요명품 ") == "2025토요명품")
    #expect(TextKey.fold("ＡＢＣ\u{3000}Hall\u{200B}") == "abchall")
    #expect(TextKey.fold("A\tB\nC") == "abc")
    #expect(TextKey.fold("뮤지컬 <앤>") != TextKey.fold("뮤지컬 앤"))
  }

  @Test func theKeyIsTheProviderLineageTitlePlaceAndStartDay() {
    let a = NationalKey.id(lineage: "경북 안동시", title: "웅부 음악회", start: "2025-03-01", place: "웅부홀")
    #expect(a.hasPrefix("n:") && a.count == 18)
    #expect(a == NationalKey.id(lineage: "경북 안동시", title: " 웅부  음악회", start: "2025-03-01", place: "웅부홀 "))
    #expect(a != NationalKey.id(lineage: "경북 영주시", title: "웅부 음악회", start: "2025-03-01", place: "웅부홀"))
    #expect(a != NationalKey.id(lineage: "경북 안동시", title: "웅부 음악회", start: "2025-03-02", place: "웅부홀"))
    let day = CalendarDay(iso: "2025-03-01")
    #expect(NationalKey.start(day, text: "2025.03.01") == "2025-03-01")
    #expect(NationalKey.start(nil, text: " 미정 ") == "미정")
  }

  @Test func everyRowOfTheRealDownloadGetsTheKeyPythonComputes() throws {
    let download = try NationalDownload.read()
    let programs = NationalNormalizer.normalize(download.records)
    #expect(programs.count == download.rows.count)
    #expect(programs.map(\.id) == download.keys)
    // Rows sharing a key are one event: every row carries the same program.
    var byID: [String: Program] = [:]
    for program in programs {
      if let seen = byID[program.id] { #expect(seen == program) } else { byID[program.id] = program }
    }
    #expect(byID.count == Set(download.keys).count)
  }

  @Test func rowOrderNeverChangesAnEvent() throws {
    let download = try NationalDownload.read()
    let records = download.records
    var generator = SplitMix64(seed: 36)
    let shuffled = records.shuffled(using: &generator)
    let first = Dictionary(NationalNormalizer.normalize(records).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let second = Dictionary(NationalNormalizer.normalize(shuffled).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    #expect(first == second)
  }

  static let header = [
    "행사명", "장소", "행사시작일자", "행사종료일자", "행사시작시각", "행사종료시각", "요금정보", "관람요금", "입장연령",
    "위도", "경도", "데이터기준일자", "제공기관코드", "제공기관명", "소재지도로명주소",
  ]

  static func records(_ rows: [[String]]) -> [RawRecord] {
    let names = FieldNames(header)
    return rows.map { RawRecord(names: names, values: $0.map { Optional($0) }) }
  }

  @Test func sessionsFoldIntoOneEvent() throws {
    let programs = NationalNormalizer.normalize(Self.records([
      ["웅부 음악회", "웅부홀", "2025-03-01", "2025-03-02", "19:30", "21:00", "유료", "R 30000 + S 20000", "8세 이상",
       "36.56", "128.72", "2025-02-01", "5070000", "경상북도 안동시", "경상북도 안동시 퇴계로 115"],
      ["웅부  음악회", "웅부홀", "2025-03-01", "2025-03-05", "14:00", "15:30", "무료", "", "전체관람가",
       "", "", "2025-03-01", "5070000", "경상북도 안동시", "경상북도 안동시 퇴계로 115"],
    ]))
    #expect(programs.count == 2 && programs[0] == programs[1])
    let event = programs[0]
    // Sessions in time order: the 14:00 one is first.
    #expect(event.title == "웅부  음악회")
    #expect(event.endDate == CalendarDay(iso: "2025-03-05"))
    #expect(event.eventTime == "14:00~15:30, 19:30~21:00")
    #expect(event.theme == "혼합" && event.isFree == nil)
    #expect(event.feeMinKRW == 20_000 && event.feeMaxKRW == 30_000)
    #expect(event.audience == "전체관람가 / 8세 이상")
    #expect(event.latitude == 36.56 && event.longitude == 128.72)
    #expect(!event.qualityFlags.contains(.coordsMissing))
    #expect(event.registeredOn == CalendarDay(iso: "2025-03-01"))
    #expect(event.category == "경북 안동시" && event.district == "경북")
  }

  @Test func qualityFlagsNameWhatIsWrong() throws {
    let programs = NationalNormalizer.normalize(Self.records([
      ["A", "P", "2025-03-02", "2025-03-01", "", "", "무료", "전석 15000원", "", "35.0", "140.0", "", "", "경기도 광명시", ""],
      ["B", "P", "2025-03-01", "2025-03-01", "", "", "유료", "0", "", "", "", "", "", "서울시설공단", ""],
      ["C", "P", "2025-03-01", "2025-03-01", "", "", "유료", "10000", "", "", "", "", "", "어느재단", "주소 없음"],
      ["C", "P", "2025-03-01", "2025-03-01", "", "", "유료", "10000", "", "", "", "", "", "어느재단", "주소 없음"],
      ["D", "P", "2025-03-01", "2025-03-01", "", "", "유료", "3000원(어린이+청소년 무료)", "", "", "", "", "", "경기도 광명시", ""],
      ["E", "P", "2025-03-01", "2025-03-01", "", "", "유료", "전석 무료", "", "", "", "", "", "경기도 광명시", ""],
    ]))
    #expect(programs[0].qualityFlags == [.endBeforeStart, .freeButPriced, .coordsOutsideKorea])
    #expect(programs[0].feeMinKRW == 0)
    #expect(programs[1].qualityFlags == [.paidButFree, .coordsMissing, .regionUnknown])
    #expect(programs[1].district == RegionLineage.otherBodies)
    #expect(programs[2].qualityFlags.contains(.duplicateRow))
    #expect(programs[2].feeMinKRW == 10_000)
    #expect(!programs[4].qualityFlags.contains(.paidButFree) && programs[4].feeMinKRW == 3_000)
    #expect(programs[5].qualityFlags.contains(.paidButFree))
  }

  @Test func feesInWonWithOrWithoutTheUnit() {
    func range(_ text: String) -> [Int]? { NationalFee.range(in: text).map { [$0.min, $0.max] } }
    #expect(range("10000") == [10_000, 10_000])
    #expect(range("R 90000 + S 70000 + A 50000") == [50_000, 90_000])
    #expect(range("1층 : 15000 2층 : 10000") == [10_000, 15_000])
    #expect(range("전석 2만원") == [20_000, 20_000])
    #expect(range("8세 이상 5000") == [5_000, 5_000])
    #expect(range("2018.12.31 이전 출생자") == nil)
    #expect(range("0") == [0, 0])
    #expect(range("홈페이지 참조") == nil)
    #expect(NationalFee.Kind("무료+유료") == .mixed && NationalFee.Kind(" 유료 ") == .paid && NationalFee.Kind("") == .unknown)
  }
}
