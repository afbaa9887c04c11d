import RaonCore
import TestSupport
import Testing

/// Records shaped like the sources: the portal CSV's Korean header, the Open API's keys.
private enum Records {
  static let koreanHeader = [
    "분류", "자치구", "공연/행사명", "날짜/시간", "장소", "기관명", "이용대상", "이용요금", "출연자정보",
    "프로그램소개", "기타내용", "홈페이지?주소", "대표이미지", "신청일", "시민/기관", "시작일", "종료일",
    "테마분류", "위도(X좌표)", "경도(Y좌표)", "유무료", "문화포털상세URL",
  ]
  static let koreanNames = FieldNames(koreanHeader)

  /// The sample's first row, with fields replaced by `changes` (header name → value).
  static func csv(_ changes: [String: String?] = [:]) -> RawRecord {
    let base: [String: String?] = [
      "분류": "클래식", "자치구": "강남구", "공연/행사명": "2024 파리나무십자가 소년합창단 특별초청공연",
      "날짜/시간": "2024-12-22~2024-12-22", "장소": "예술의전당 콘서트홀", "기관명": "기타",
      "이용대상": "초등학생이상 관람가", "이용요금": "R석 11만원 /S석 9만원 /A석 7만원 /B석 5만원 /C석 4만원",
      "출연자정보": "파리나무십자가소년합창단", "프로그램소개": "하나되는 세상", "기타내용": "",
      "홈페이지?주소": "https://tickets.interpark.com/goods/24012229",
      "대표이미지": "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=ac53&thumb=Y",
      "신청일": "2024-08-29", "시민/기관": "시민", "시작일": "2024-12-22 00:00:00.0",
      "종료일": "2024-12-22 00:00:00.0", "테마분류": "기타", "위도(X좌표)": "37.4802401962069",
      "경도(Y좌표)": "127.014215239186", "유무료": "유료",
      "문화포털상세URL":
        "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=149289&menuNo=200008",
    ]
    let values = koreanHeader.map { name -> String? in
      if let changed = changes[name] { return changed }
      return base[name] ?? nil
    }
    return RawRecord(names: koreanNames, values: values)
  }
}

@Suite struct ProgramNormalizerTests {
  @Test func normalisesARealSampleRow() throws {
    let p = ProgramNormalizer.normalize(Records.csv())
    #expect(p.id == "cult:149289")
    #expect(p.title == "2024 파리나무십자가 소년합창단 특별초청공연")
    #expect(p.category == "클래식")
    #expect(p.district == "강남구")
    #expect(p.place == "예술의전당 콘서트홀")
    #expect(p.organizer == "기타")
    #expect(p.audience == "초등학생이상 관람가")
    #expect(p.isFree == false)
    #expect(p.feeMinKRW == 40_000 && p.feeMaxKRW == 110_000)
    #expect(p.startDate?.description == "2024-12-22")
    #expect(p.endDate?.description == "2024-12-22")
    #expect(p.durationDays == 1)
    #expect(p.registeredOn?.description == "2024-08-29")
    #expect(p.theme == "기타")
    #expect(p.latitude == 37.4802401962069 && p.longitude == 127.014215239186)
    #expect(p.orgLink == "https://tickets.interpark.com/goods/24012229")
    #expect(p.imageURL.hasPrefix("https://culture.seoul.go.kr/cmmn/file/getImage.do"))
    #expect(p.portalURL.hasSuffix("cultcode=149289&menuNo=200008"))
    #expect(p.qualityFlags.isEmpty)
  }

  @Test func normalisesAnOpenAPIRowTheSameWay() {
    let record = RawRecord([
      "CODENAME": "클래식", "GUNAME": "강남구", "TITLE": " 공연 ", "DATE": "2024-12-22~2024-12-24",
      "PLACE": "예술의전당", "USE_FEE": "전석 20,000원", "STRTDATE": "2024-12-22 00:00:00.0",
      "END_DATE": "2024-12-24 00:00:00.0", "LAT": "127.01", "LOT": "37.48", "IS_FREE": "유료",
      "HMPG_ADDR": "https://culture.seoul.go.kr/view.do?cultcode=1", "RGSTDATE": "2024-08-29",
      "NEW_KEY": "kept in the raw record only",
    ])
    let p = ProgramNormalizer.normalize(record)
    #expect(p.id == "cult:1")
    #expect(p.title == "공연")
    #expect(p.feeMinKRW == 20_000 && p.feeMaxKRW == 20_000)
    #expect(p.durationDays == 3)
    #expect(p.latitude == 37.48 && p.longitude == 127.01)
    #expect(p.qualityFlags.isEmpty)
  }

  @Test func readsTheJSONDownloadsMillisecondsAndNulls() {
    let record = RawRecord([
      "codename": "전시/미술", "guname": nil, "title": "전시", "date": nil, "place": nil,
      "use_fee": nil, "strtdate": "1734793200000", "end_date": "1735657200000", "lat": nil,
      "lot": nil, "is_free": "무료", "hmpg_addr": nil,
    ])
    let p = ProgramNormalizer.normalize(record)
    // 1735657200000 ms = 2024-12-31T15:00Z = 2025-01-01 in Korea (Python).
    #expect(p.startDate?.description == "2024-12-22")
    #expect(p.endDate?.description == "2025-01-01")
    #expect(p.place == "" && p.feeText == "")
    #expect(p.isFree == true && p.feeMinKRW == 0 && p.feeMaxKRW == 0)
    #expect(p.qualityFlags == [.districtMissing, .coordsMissing, .idFromHash])
    #expect(p.id == ProgramID.hashed(title: "전시", place: "", startDate: p.startDate))
  }

  @Test func takesBothDatesFromRangeTextWhenASpreadsheetDestroyedThem() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["시작일": "00:00.0", "종료일": "00:00.0", "날짜/시간": "2024-12-22 ~ 2025-01-05"]))
    #expect(p.startDate?.description == "2024-12-22")
    #expect(p.endDate?.description == "2025-01-05")
    #expect(p.durationDays == 15)
    #expect(p.qualityFlags == .datesFromRangeText)
  }

  @Test func takesBothDatesFromRangeTextWhenOnlyOneIsUnreadable() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["시작일": "2024-12-20", "종료일": "", "날짜/시간": "2024-12-22~2024-12-23"]))
    #expect(p.startDate?.description == "2024-12-22")
    #expect(p.endDate?.description == "2024-12-23")
    #expect(p.qualityFlags == .datesFromRangeText)
  }

  @Test func flagsMissingDatesWhenNothingCanBeRead() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["시작일": "00:00.0", "종료일": "00:00.0", "날짜/시간": "상시"]))
    #expect(p.startDate == nil && p.endDate == nil && p.durationDays == nil)
    #expect(p.qualityFlags == .datesMissing)
  }

  @Test func keepsAnEndBeforeItsStartButFlagsIt() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["시작일": "2024-12-22 00:00:00.0", "종료일": "2024-12-01 00:00:00.0"]))
    #expect(p.startDate?.description == "2024-12-22")
    #expect(p.endDate?.description == "2024-12-01")
    #expect(p.durationDays == nil)
    #expect(p.qualityFlags == .endBeforeStart)
  }

  @Test func runsAPermanentExhibitionUntil2099() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["시작일": "2024-09-09 00:00:00.0", "종료일": "2099-12-31 00:00:00.0"]))
    #expect(p.durationDays == 27_507)  // 27,506 days apart (Python), both days counted
    #expect(p.qualityFlags.isEmpty)
  }

  @Test func givesAFreeProgramZeroFees() {
    let p = ProgramNormalizer.normalize(Records.csv(["유무료": "무료", "이용요금": "무료"]))
    #expect(p.isFree == true && p.feeMinKRW == 0 && p.feeMaxKRW == 0)
    #expect(p.qualityFlags.isEmpty)
  }

  @Test func flagsAFreeProgramWhoseTextQuotesAPrice() {
    let p = ProgramNormalizer.normalize(Records.csv(["유무료": "무료", "이용요금": "전석 20,000원"]))
    #expect(p.isFree == true && p.feeMinKRW == 0 && p.feeMaxKRW == 0)
    #expect(p.feeText == "전석 20,000원")
    #expect(p.qualityFlags == .freeButPriced)
    let zero = ProgramNormalizer.normalize(Records.csv(["유무료": "무료", "이용요금": "0원"]))
    #expect(zero.qualityFlags.isEmpty)
  }

  @Test func leavesAPaidProgramsUnreadableFeeEmptyAndFlagsIt() {
    let p = ProgramNormalizer.normalize(Records.csv(["유무료": "유료", "이용요금": "프로그램별 상이"]))
    #expect(p.isFree == false && p.feeMinKRW == nil && p.feeMaxKRW == nil)
    #expect(p.qualityFlags == .feeWithoutAmount)
    // An empty fee text says nothing wrong; a free program needs no amount.
    #expect(ProgramNormalizer.normalize(Records.csv(["유무료": "유료", "이용요금": ""])).qualityFlags.isEmpty)
    #expect(ProgramNormalizer.normalize(Records.csv(["유무료": "무료", "이용요금": "홈페이지 참조"])).qualityFlags.isEmpty)
  }

  @Test func leavesAnEndNoOneCanMeanEmptyAndFlagsIt() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["시작일": "2025-11-23 00:00:00.0", "종료일": "2205-11-23 00:00:00.0"]))
    #expect(p.startDate?.description == "2025-11-23")
    #expect(p.endDate == nil && p.durationDays == nil)
    #expect(p.qualityFlags == .endDateImplausible)
    #expect(p.qualityFlags.joinedNames == "end_date_implausible")
  }

  @Test func decidesAMissingFreeFlagFromTheFeeText() {
    // Unambiguous texts decide; anything else leaves the flag unknown (issue 17).
    let free = ProgramNormalizer.normalize(Records.csv(["유무료": "", "이용요금": "전석 무료"]))
    #expect(free.isFree == true && free.feeMinKRW == 0)
    #expect(free.qualityFlags == .freeFlagMissing)

    let paid = ProgramNormalizer.normalize(Records.csv(["유무료": "", "이용요금": "전석 20,000원"]))
    #expect(paid.isFree == false && paid.feeMinKRW == 20_000 && paid.feeMaxKRW == 20_000)
    #expect(paid.qualityFlags == .freeFlagMissing)

    // Says 무료 and quotes an amount: ambiguous.
    let priced = ProgramNormalizer.normalize(Records.csv(["유무료": "?", "이용요금": "무료(예약금 5,000원)"]))
    #expect(priced.isFree == nil && priced.feeMinKRW == 5_000 && priced.feeMaxKRW == 5_000)
    #expect(priced.qualityFlags == .freeFlagMissing)

    let invited = ProgramNormalizer.normalize(Records.csv(["유무료": nil, "이용요금": "전석 초대"]))
    #expect(invited.isFree == nil && invited.feeMinKRW == nil)

    let silent = ProgramNormalizer.normalize(Records.csv(["유무료": nil, "이용요금": ""]))
    #expect(silent.isFree == nil && silent.feeMinKRW == nil)
    #expect(silent.qualityFlags == .freeFlagMissing)

    // No 유무료 column at all (catalogs before 2024).
    let old = ProgramNormalizer.normalize(RawRecord(["분류": "전시", "이용요금": "무료"]))
    #expect(old.isFree == true)
  }

  @Test(arguments: ["", " ", "미상", "부산진구"])
  func marksAnEmptyOrUnknownDistrictUnknown(district: String) {
    let p = ProgramNormalizer.normalize(Records.csv(["자치구": district]))
    #expect(p.district == "미상")
    #expect(p.qualityFlags == .districtMissing)
  }

  @Test func acceptsADistrictWithCityPrefixOrWithoutSuffix() {
    #expect(ProgramNormalizer.normalize(Records.csv(["자치구": "서울특별시 종로구"])).district == "종로구")
    #expect(ProgramNormalizer.normalize(Records.csv(["자치구": "마포"])).district == "마포구")
  }

  @Test func assignsSwappedCoordinatesByValue() {
    let p = ProgramNormalizer.normalize(
      Records.csv(["위도(X좌표)": "126.9760053", "경도(Y좌표)": "37.5726241"]))
    #expect(p.latitude == 37.5726241 && p.longitude == 126.9760053)
    #expect(p.qualityFlags.isEmpty)
  }

  @Test func flagsMissingAndOutsideCoordinates() {
    let missing = ProgramNormalizer.normalize(Records.csv(["위도(X좌표)": "", "경도(Y좌표)": "0"]))
    #expect(missing.latitude == nil && missing.longitude == nil)
    #expect(missing.qualityFlags == .coordsMissing)
    let sejong = ProgramNormalizer.normalize(
      Records.csv(["위도(X좌표)": "36.4866171885619", "경도(Y좌표)": "127.267380381461"]))
    #expect(sejong.latitude == 36.4866171885619)
    #expect(sejong.qualityFlags == .coordsOutsideSeoul)
  }

  @Test func fallsBackToAHashedIDWithoutACultcode() {
    let p = ProgramNormalizer.normalize(
      Records.csv([
        "문화포털상세URL": "", "공연/행사명": " 테스트 공연 ", "장소": "세종대극장",
        "시작일": "2024-12-22 00:00:00.0",
      ]))
    // Python: "h:" + sha256("테스트 공연\x1f세종대극장\x1f2024-12-22".encode()).hexdigest()[:16]
    #expect(p.id == "h:c79e5db2617783ba")
    #expect(p.qualityFlags == .idFromHash)
  }

  @Test func flagsReplacedInvalidBytes() {
    var record = Records.csv(["홈페이지?주소": "https://example.org/?Month=04\u{FFFD}&act=View"])
    record.invalidBytesReplaced = true
    #expect(ProgramNormalizer.normalize(record).qualityFlags == .invalidBytesReplaced)
  }

  @Test func trimsEveryTextField() {
    let p = ProgramNormalizer.normalize(
      Records.csv([
        "분류": "\u{FEFF} 클래식\t", "공연/행사명": "\u{3000}제목\u{00A0}", "장소": "\n장소\r\n",
        "기관명": " 기관 ", "이용대상": " 누구나 ", "이용요금": " 전석 20,000원 ", "테마분류": " 기타 ",
      ]))
    #expect(p.category == "클래식" && p.title == "제목" && p.place == "장소")
    #expect(p.organizer == "기관" && p.audience == "누구나" && p.feeText == "전석 20,000원")
    #expect(p.theme == "기타")
  }

  @Test func normalisesAnEmptyRecord() {
    let p = ProgramNormalizer.normalize(RawRecord([:]))
    #expect(p.title == "" && p.district == "미상" && p.isFree == nil)
    #expect(p.id == "h:b8c9e440ead3ddac")  // Python: sha256("\x1f\x1f") as above
    #expect(
      p.qualityFlags == [.districtMissing, .coordsMissing, .datesMissing, .idFromHash, .freeFlagMissing])
  }

  @Test func neverTrapsOnThousandsOfRandomGarbageRecords() {
    var random = SplitMix64(seed: 0x5EED_2024_0909)
    let pieces = [
      "0", "1", "9", "2024", "12", "31", "29", "02", "99999999999999999999", "-", "~", "～", ".", ",",
      ":", "/", " ", "\t", "\n", "원", "만", "천", "₩", "KRW", "무료", "유료", "Y", "N", "년", "월", "일",
      "°", "'", "\"", "N", "E", "cultcode=", "37.5", "127.0", "1734793200000", "00:00.0", "e", "E400",
      "\u{FFFD}", "\u{FEFF}", "\u{3000}", "강남구", "서울특별시", "R석", "nan", "inf", "😀", "\u{0}",
    ]
    let apiNames = FieldNames([
      "CODENAME", "GUNAME", "TITLE", "DATE", "PLACE", "USE_FEE", "STRTDATE", "END_DATE", "RGSTDATE",
      "LAT", "LOT", "IS_FREE", "HMPG_ADDR",
    ])
    for round in 0..<4_000 {
      let names = round.isMultiple(of: 2) ? Records.koreanNames : apiNames
      var values: [String?] = []
      for _ in names.names {
        if random.next() % 8 == 0 {
          values.append(nil)
          continue
        }
        var text = ""
        for _ in 0..<(random.next() % 12) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
        values.append(text)
      }
      let p = ProgramNormalizer.normalize(RawRecord(names: names, values: values))
      #expect(p.id.hasPrefix("cult:") || (p.id.hasPrefix("h:") && p.id.count == 18))
      #expect(p.district == District.unknown || District.all.contains(p.district))
      if let low = p.feeMinKRW, let high = p.feeMaxKRW { #expect(low <= high) }
      #expect((p.feeMinKRW == nil) == (p.feeMaxKRW == nil))
      if p.isFree == true { #expect(p.feeMinKRW == 0 && p.feeMaxKRW == 0) }
      #expect((p.latitude == nil) == (p.longitude == nil))
      #expect((p.latitude == nil) == p.qualityFlags.contains(.coordsMissing))
      #expect((p.startDate == nil || p.endDate == nil) == p.qualityFlags.contains(.datesMissing))
      if p.qualityFlags.contains(.endBeforeStart) { #expect(p.durationDays == nil) }
      _ = p.csvValues
    }
  }
}
