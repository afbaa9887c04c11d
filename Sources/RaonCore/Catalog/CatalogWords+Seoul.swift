extension CatalogWords {
  /// 서울시 문화행사 정보: its 25 자치구, its 분류, its 프로그램 — and in English its
  /// districts and categories by their own English names.
  public static let seoul: CatalogWords = {
    var words = seoulWithoutOwner
    words.regionsOwner = "Seoul's"
    return words
  }()

  static let seoulWithoutOwner = CatalogWords(
    region: Noun("자치구", "district", plural: "districts"),
    regionCounter: "구",
    group: Noun("분류", "category", plural: "categories"),
    groupCounter: "분류",
    groupPlaces: "개",
    item: Noun("프로그램", "program", plural: "programs"),
    catalog: Phrase("서울시 문화행사", "Seoul cultural events"),
    subject: Phrase("문화행사", "cultural events"),
    fileStem: "서울시_문화행사_주간현황",
    whole: Phrase("서울시", "the city's"),
    wholeArea: Phrase("서울시 전체", "Whole city"),
    sourceLine: Phrase(
      "출처: 서울 열린데이터광장 「서울시 문화행사 정보」(공공누리 제1유형)",
      "Source: Seoul Open Data Plaza, “Seoul cultural events” (서울시 문화행사 정보), KOGL Type 1"),
    keywords: Phrase("서울시, 문화행사, 서울 열린데이터광장, Raon", "Seoul, cultural events, open data, Raon"),
    registeredBy: Phrase("신청일", "registration day"),
    registeredOn: Phrase("등록일", "Registered"),
    minorChanges: [Phrase("좌표 50m 미만 이동", "coordinates moved under 50 m"), Phrase("대표 이미지", "the image")],
    sessions: Phrase("회차 수", "Sessions"),
    unknownRegion: "미상",
    englishNames: seoulEnglishNames,
    flags: seoulFlags,
    files: FileWords(
      region: "district", group: "category", jsonRegion: "District", jsonGroup: "Category", jsonNamesCatalog: false,
      labelsChangedFields: false, packFolder: "districts", csv: CSVWords(programs: "programs.csv", headers: nil)),
    layout: Layout(packNameOnOwnLine: false, changesPrintStartDate: false))

  /// The 25 districts by the official romanization, as the districts spell themselves
  /// (`종로구` → `Jongno-gu`), and the catalog's categories.
  static let seoulEnglishNames: [String: String] = [
    "종로구": "Jongno-gu", "중구": "Jung-gu", "용산구": "Yongsan-gu", "성동구": "Seongdong-gu",
    "광진구": "Gwangjin-gu", "동대문구": "Dongdaemun-gu", "중랑구": "Jungnang-gu", "성북구": "Seongbuk-gu",
    "강북구": "Gangbuk-gu", "도봉구": "Dobong-gu", "노원구": "Nowon-gu", "은평구": "Eunpyeong-gu",
    "서대문구": "Seodaemun-gu", "마포구": "Mapo-gu", "양천구": "Yangcheon-gu", "강서구": "Gangseo-gu",
    "구로구": "Guro-gu", "금천구": "Geumcheon-gu", "영등포구": "Yeongdeungpo-gu", "동작구": "Dongjak-gu",
    "관악구": "Gwanak-gu", "서초구": "Seocho-gu", "강남구": "Gangnam-gu", "송파구": "Songpa-gu",
    "강동구": "Gangdong-gu", "미상": "Unknown district",
    "교육/체험": "Education/Experience", "전시/미술": "Exhibition/Art", "클래식": "Classical",
    "콘서트": "Concert", "국악": "Korean traditional music", "연극": "Theatre", "기타": "Other",
    "영화": "Film", "뮤지컬/오페라": "Musical/Opera", "독주/독창회": "Recital", "무용": "Dance",
    "축제-문화/예술": "Festival: culture/arts", "축제-기타": "Festival: other",
    "축제-전통/역사": "Festival: tradition/history", "축제-자연/경관": "Festival: nature/scenery",
    "축제-시민화합": "Festival: community",
  ]

  /// The flags Seoul's normalisation sets (``ProgramNormalizer``).
  static let seoulFlags: [FlagWords] = [
    FlagWords.endBeforeStart,
    FlagWords(
      code: "district_missing", koreanName: "자치구 없음", englishName: "District missing",
      koreanExplanation: "자치구가 비었거나 서울 25개 자치구가 아님 ('미상'으로 집계)",
      englishExplanation: "District empty or not one of Seoul's 25 (counted as Unknown district)"),
    FlagWords.coordinatesMissing,
    FlagWords(
      code: "coords_outside_seoul", koreanName: "좌표가 서울 밖", englishName: "Coordinates outside Seoul",
      koreanExplanation: "좌표가 서울 밖을 가리킴", englishExplanation: "Coordinates outside Seoul"),
    FlagWords.freeButPriced(feeLabel: "이용요금"),
    FlagWords(
      code: "dates_from_range_text", koreanName: "날짜/시간 문구에서 날짜 복원",
      englishName: "Dates from the range text",
      koreanExplanation: "시작일·종료일이 없거나 손상돼 '날짜/시간' 항목에서 읽음",
      englishExplanation: "Start/end dates missing or damaged; read from the date-range text"),
    FlagWords.invalidBytesReplaced,
    FlagWords.datesMissing,
    FlagWords(
      code: "id_from_hash", koreanName: "포털 코드 없음(해시 ID)", englishName: "No portal code (hashed id)",
      koreanExplanation: "문화포털 주소에 cultcode가 없어 제목·장소·시작일로 ID를 만듦",
      englishExplanation: "No cultcode in the portal URL; id made from title, place and start date"),
    FlagWords(
      code: "free_flag_missing", koreanName: "유무료 표시 없음", englishName: "Free/paid flag missing",
      koreanExplanation: "유무료 값이 없거나 알 수 없음 (요금 문구가 분명하면 그에 따르고, 아니면 유무료 미상)",
      englishExplanation:
        "Free/paid value missing or unknown (taken from the fee text when that is unambiguous, else unknown)"),
    FlagWords.endDateImplausible,
    FlagWords.feeWithoutAmount(feeLabel: "이용요금"),
  ]
}

/// The flags any catalog's normalisation may set, worded alike.
extension FlagWords {
  public static let endBeforeStart = FlagWords(
    code: "end_before_start", koreanName: "종료일이 시작일보다 앞섬", englishName: "End before start",
    koreanExplanation: "종료일이 시작일보다 앞섬 (기간은 비워 둠)",
    englishExplanation: "End date before start date (no duration)")

  public static let coordinatesMissing = FlagWords(
    code: "coords_missing", koreanName: "좌표 없음", englishName: "Coordinates missing",
    koreanExplanation: "좌표(위도·경도)가 없거나 읽을 수 없음",
    englishExplanation: "Coordinates missing or unreadable")

  public static let invalidBytesReplaced = FlagWords(
    code: "invalid_bytes_replaced", koreanName: "깨진 문자 대체", englishName: "Invalid bytes replaced",
    koreanExplanation: "원본의 잘못된 문자 바이트를 대체 문자(�)로 바꿈",
    englishExplanation: "Invalid bytes in the source replaced with �")

  public static let datesMissing = FlagWords(
    code: "dates_missing", koreanName: "날짜 없음", englishName: "Dates missing",
    koreanExplanation: "시작일·종료일을 읽을 수 없음",
    englishExplanation: "No start or end date could be read")

  public static let endDateImplausible = FlagWords(
    code: "end_date_implausible", koreanName: "종료일 오기 의심", englishName: "Implausible end date",
    koreanExplanation: "종료일이 시작일보다 20년 넘게 뒤임 (오기로 보고 비워 둠; 이번 주 운영에 넣지 않음)",
    englishExplanation: "End date over 20 years after the start (taken as a typo and left empty; not counted as running)")

  /// A fee text without a fee, in the words of the catalog's fee column.
  public static func feeWithoutAmount(feeLabel: String) -> FlagWords {
    FlagWords(
      code: "fee_without_amount", koreanName: "요금 금액 없음", englishName: "Fee without an amount",
      koreanExplanation: "무료가 아닌데 \(feeLabel)에 금액 없이 안내만 있음 (예: 홈페이지 참조)",
      englishExplanation: "Not free, and the fee text names no amount (e.g. \"see the website\")")
  }

  /// A free program quoting an amount, in the words of the catalog's fee column.
  public static func freeButPriced(feeLabel: String) -> FlagWords {
    FlagWords(
      code: "free_but_priced", koreanName: "무료인데 요금 기재", englishName: "Free, yet priced",
      koreanExplanation: "무료로 표시됐으나 \(feeLabel)에 금액이 있음",
      englishExplanation: "Marked free, yet the fee text quotes an amount")
  }
}
