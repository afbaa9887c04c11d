@testable import RaonCore
import Testing

@Suite struct RawRecordTests {
  @Test func numbersEveryCanonicalFieldByItsPositionInAllCases() {
    for (position, field) in CanonicalField.allCases.enumerated() {
      #expect(field.ordinal == position)
    }
  }

  @Test func findsFieldsUnderKoreanAPIAndJSONNames() {
    let csv = RawRecord(["\u{FEFF}분류": "클래식", "위도(Y좌표)": "127.0", "홈페이지?주소": "x"])
    #expect(csv[.category] == "클래식")
    #expect(csv[.coordinateA] == "127.0")
    #expect(csv[.orgLink] == "x")
    let api = RawRecord(["STRTDATE": "2024-12-22", "IS_FREE": "무료", "LOT": "127.0"])
    #expect(api[.startDate] == "2024-12-22" && api[.isFree] == "무료" && api[.coordinateB] == "127.0")
    let json = RawRecord(["end_date": "1734793200000", "guname": nil, "hmpg_addr": "u"])
    #expect(json[.endDate] == "1734793200000" && json[.district] == nil && json[.portalURL] == "u")
    #expect(json[.title] == nil)
  }

  @Test func takesTheFirstOfTwoColumnsWithTheSameMeaning() {
    let record = RawRecord(["TITLE": "first", "공연/행사명": "second"])
    #expect(record[.title] == "first")
  }
}
