import RaonCore
import Testing

@Suite struct DistrictTests {
  @Test(arguments: [
    ("강남구", "강남구"), (" 강남구 ", "강남구"), ("강남", "강남구"), ("서울특별시 강남구", "강남구"),
    ("서울시 중구", "중구"), ("서울 동대문구", "동대문구"), ("동대문 구", "동대문구"), ("중", "중구"),
  ])
  func recognisesTheDistrictInItsVariousSpellings(text: String, expected: String) {
    #expect(District.canonical(text) == expected)
  }

  @Test(arguments: ["", "  ", "미상", "부산 해운대구", "수원시", "강남구청", "서울"])
  func givesNothingForEmptyOrUnknownDistricts(text: String) {
    #expect(District.canonical(text) == nil)
  }

  @Test func listsTheTwentyFiveDistricts() {
    #expect(District.all.count == 25)
    #expect(Set(District.all).count == 25)
  }
}
