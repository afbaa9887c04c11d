import Foundation
import RaonCore
import TestSupport
import Testing

/// Normalisation is total: on arbitrary field maps it never traps, and what it returns
/// keeps the contract's invariants. Seeded, so a failure names the seed that reproduces it.
@Suite struct NormalizerPropertyTests {
  static let names: [String] = [
    "분류", "자치구", "공연/행사명", "날짜/시간", "장소", "기관명", "이용대상", "이용요금", "출연자정보",
    "프로그램소개", "기타내용", "홈페이지 주소", "대표이미지", "신청일", "시민/기관", "시작일", "종료일",
    "테마분류", "위도(X좌표)", "경도(Y좌표)", "유무료", "문화포털상세URL", "CODENAME", "GUNAME",
    "TITLE", "DATE", "USE_FEE", "STRTDATE", "END_DATE", "LAT", "LOT", "IS_FREE", "HMPG_ADDR",
    "strtdate", "end_date", "is_free", "hmpg_addr", "use_fee", "lat", "lot", "_extra_1", "",
    "\u{FEFF}분류", " 이용 요금 ", "위도", "경도", "unknown",
  ]

  static func value(_ name: String, _ g: inout PropertyRandom) -> String? {
    if g.chance(0.05) { return nil }
    switch Int.random(in: 0..<8, using: &g) {
    case 0:
      return g.pick([
        "무료", "유료", "전석 20,000원", "R석 11만원 /S석 9만원", "1만5천원", "1~3만원", "₩20,000",
        "99999999999999999999원", "9223372036854775807원", "-5,000원", "0원", "1.5만원", "3000천원",
        "10,000~30,000원", "20.000원", "만원", "천원", "원", "1만 5천원", "9999999999999만원",
      ])
    case 1:
      return g.pick([
        "2024-09-09 00:00:00.0", "2024.9.9", "20240909", "2024년 9월 9일", "1734793200000",
        "-62135596800000", "253402300799999", "99999999999999999999", "0000-00-00", "9999-12-31",
        "0001-01-01", "2024-02-30", "2024-09-01~2024-09-30", "2024-12-22~12-25", "00:00.0",
        "1e308", "-1e308", "NaN", "1734793200000.999", "2024-13-01",
      ])
    case 2:
      return g.pick([
        "37.5665", "126.978", "127.0", "37.5", "0", "-0", "1e309", "nan", "inf", "-inf", "180.1",
        "37.5665000000000000000000001", "  37.5 ", "3.7566e1", "", "Y", "N", "0x1p5",
      ])
    case 3:
      let code = g.pick(["150001", "0", "999999999999999999999", "-1", "abc", "", "1 2"])
      return "https://culture.seoul.go.kr/view.do?cultcode=\(code)&menuNo=200008"
    case 4:
      return g.anyScalars()
    case 5:
      return g.pick(District.all) + g.text(maxLength: 2)
    default:
      return g.text()
    }
  }

  static func check(_ p: Program, _ context: @autoclosure () -> String) {
    #expect(p.id.hasPrefix("cult:") || p.id.hasPrefix("h:"), "\(context())")
    if let a = p.feeMinKRW, let b = p.feeMaxKRW {
      #expect(0 <= a && a <= b, "fees \(a)…\(b) \(context())")
    }
    #expect((p.feeMinKRW == nil) == (p.feeMaxKRW == nil), "\(context())")
    if p.isFree == true { #expect(p.feeMinKRW == 0 && p.feeMaxKRW == 0, "\(context())") }
    #expect(p.district == District.unknown || District.all.contains(p.district), "\(context())")
    #expect(p.latitude.map(\.isFinite) ?? true, "\(context())")
    #expect(p.longitude.map(\.isFinite) ?? true, "\(context())")
    if let s = p.startDate, let e = p.endDate {
      #expect((e < s) == p.qualityFlags.contains(.endBeforeStart), "\(context())")
      if let d = p.durationDays { #expect(d >= 1, "\(context())") }
    } else {
      #expect(p.qualityFlags.contains(.datesMissing), "\(context())")
    }
    #expect(p.csvValues.count == Program.csvColumns.count, "\(context())")
  }

  @Test(arguments: 0..<8) func normalisationNeverTrapsOnArbitraryFieldMaps(batch: Int) {
    for n in 0..<400 {
      let seed = UInt64(batch * 10_000 + n)
      var g = PropertyRandom(seed: seed)
      let width = Int.random(in: 0...30, using: &g)
      var names: [String] = []
      var values: [String?] = []
      for _ in 0..<width {
        let name = g.chance(0.85) ? g.pick(Self.names) : g.anyScalars(maxLength: 6)
        names.append(name)
        values.append(Self.value(name, &g))
      }
      let record = RawRecord(
        names: FieldNames(names), values: values, invalidBytesReplaced: g.chance(0.1))
      let program = ProgramNormalizer.normalize(record)
      Self.check(program, "seed \(seed)")
      // Pure: the same record gives the same program.
      #expect(ProgramNormalizer.normalize(record) == program, "seed \(seed)")
      #expect(program.qualityFlags.contains(.invalidBytesReplaced) == record.invalidBytesReplaced)
    }
  }

  @Test func theFieldParsersAreTotalOnArbitraryText() {
    var g = PropertyRandom(seed: 42)
    for _ in 0..<5_000 {
      let text = g.chance(0.5) ? g.text(maxLength: 40) : g.anyScalars(maxLength: 40)
      if let fee = FeeParser.range(in: text) { #expect(0 <= fee.min && fee.min <= fee.max, "\(text.debugDescription)") }
      if let day = CatalogDateParser.day(from: text) { #expect((1...9999).contains(day.year)) }
      if let range = CatalogDateParser.range(from: text) {
        #expect((1...9999).contains(range.start.year) && (1...9999).contains(range.end.year))
      }
      if let d = CoordinateResolver.degrees(text) { #expect(d.isFinite, "\(text.debugDescription)") }
      _ = FreeFlagParser.parse(text)
      _ = ProgramID.fromPortalURL(text)
    }
  }
}
