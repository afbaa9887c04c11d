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

/// A district named on the command line or in a config by its official romanization.
@Suite struct DistrictRomanizationTests {
  @Test(arguments: [
    ("Jongno-gu", "종로구"), ("jongno-gu", "종로구"), ("JONGNO", "종로구"), ("Jongno gu", "종로구"),
    ("Jung-gu", "중구"), ("jung", "중구"), ("Jungnang-gu", "중랑구"), ("Gangnam-gu", "강남구"),
    ("Gangdong", "강동구"), ("Yeongdeungpo-gu", "영등포구"), ("종로구", "종로구"),
  ])
  func findsTheDistrictByItsRomanization(name: String, expected: String) {
    #expect(District.named(name) == expected)
  }

  @Test(arguments: ["Seoul", "Jongno-ro", "gu", "", "Busan", "Haeundae-gu"])
  func refusesWhatIsNoDistrict(name: String) {
    #expect(District.named(name) == nil)
  }

  /// Every district round-trips through the English name the report prints.
  @Test func everyEnglishNameNamesItsDistrict() {
    for district in District.all {
      let english = CatalogProfile.seoul.words.englishNames[district]
      #expect(english.flatMap(District.named) == district, "\(district)")
    }
  }
}
