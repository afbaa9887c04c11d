extension CatalogWords {
  /// 전국공연행사정보표준데이터: its 시·도, its 제공기관 (a 시·군·구 office or another body), its
  /// 행사 (an event, whatever its sessions); names stay as the data gives them in English.
  public static let national: CatalogWords = {
    var words = nationalWithoutColumns
    // What the national data keeps in these columns (NationalNormalizer).
    words.columnTitles = [
      .theme: Phrase("요금정보", "Fee kind"), .registeredOn: Phrase("데이터기준일자", "Reference date"),
    ]
    return words
  }()

  private static let nationalWithoutColumns = CatalogWords(
    region: Noun("시·도", "province", plural: "provinces"),
    regionCounter: "시·도",
    group: Noun("제공기관", "provider", plural: "providers"),
    groupCounter: "제공기관",
    groupPlaces: "곳",
    item: Noun("행사", "event", plural: "events"),
    catalog: Phrase("전국 공연·행사", "Korea's performances and events"),
    subject: Phrase("공연·행사", "performances and events"),
    fileStem: "전국_공연행사_주간현황",
    whole: Phrase("전국", "the country's"),
    wholeArea: Phrase("전국", "Whole country"),
    sourceLine: Phrase(
      "출처: 공공데이터포털 「전국공연행사정보표준데이터」(공공누리 제1유형)",
      "Source: the public data portal, “national performances and events” (전국공연행사정보표준데이터), KOGL Type 1"),
    keywords: Phrase("전국, 공연·행사, 공공데이터포털, Raon", "Korea, performances and events, open data, Raon"),
    // The national data has no registration day: 신규 등록 counts 데이터기준일자.
    registeredBy: Phrase("데이터기준일자", "reference date (데이터기준일자)"),
    registeredOn: Phrase("데이터기준일자", "Reference date"),
    // No event has an image that a minor change could be.
    minorChanges: [Phrase("좌표 50m 미만 이동", "coordinates moved under 50 m")],
    sessions: Phrase("회차 수", "Sessions"),
    unknownRegion: nil,
    englishNames: [:],
    flags: nationalFlags,
    files: FileWords(
      region: "region", group: "provider", jsonRegion: "Region", jsonGroup: "Provider", jsonNamesCatalog: true,
      labelsChangedFields: true, packFolder: "regions", groupFolder: "providers",
      csv: CSVWords(programs: "events.csv", headers: nationalCSVHeaders)),
    layout: Layout(packNameOnOwnLine: true, changesPrintStartDate: true))

  /// The flags the national data's normalisation and analysis set.
  static let nationalFlags: [FlagWords] = [
    FlagWords.endBeforeStart, FlagWords.coordinatesMissing, FlagWords.freeButPriced(feeLabel: "관람요금"),
    FlagWords.invalidBytesReplaced, FlagWords.datesMissing, FlagWords.endDateImplausible,
    FlagWords.feeWithoutAmount(feeLabel: "관람요금"),
    FlagWords(
      code: "coords_outside_korea", koreanName: "좌표가 국내 밖", englishName: "Coordinates outside Korea",
      koreanExplanation: "위도·경도가 대한민국(북위 33.0~38.7°, 동경 124.5~132.0°) 밖을 가리킴",
      englishExplanation: "Latitude/longitude outside Korea (33.0–38.7 N, 124.5–132.0 E)"),
    FlagWords(
      code: "paid_but_free", koreanName: "유료인데 관람요금 무료", englishName: "Paid, fee says free",
      koreanExplanation: "요금정보는 유료인데 관람요금이 0원이나 무료라고 함",
      englishExplanation: "The fee kind says paid but the admission fee quotes 0 or free"),
    FlagWords(
      code: "duplicate_row", koreanName: "중복 행", englishName: "Duplicate row",
      koreanExplanation: "모든 값이 같은 행이 두 번 이상 있음 (행사는 한 번 셈)",
      englishExplanation: "Two or more identical rows (the event counts once)"),
    FlagWords(
      code: "region_unknown", koreanName: "지역 미상", englishName: "Region unknown",
      koreanExplanation: "제공기관과 주소로 시·도를 알 수 없음 ('기타 기관'으로 집계)",
      englishExplanation: "No province from the provider or the address (counted under 기타 기관)"),
    FlagWords(
      code: "reference_date_stale", koreanName: "데이터기준일자 1년 경과", englishName: "Reference date over a year old",
      koreanExplanation: "데이터기준일자가 보고 기준일보다 365일 넘게 앞섬",
      englishExplanation: "The reference date is more than 365 days before the report's day"),
  ]

  /// Excel opens these files: Korean headers always, the download's column names where it
  /// has them (행사명, 장소, 제공기관명 …). `events.csv` has no image, portal page or 테마분류
  /// column (the national data has none).
  static let nationalCSVHeaders = FixedCSVHeaders(
    programs: [
      (.id, "행사 키"), (.title, "행사명"), (.category, "제공기관명"), (.district, "시·도"), (.place, "장소"),
      (.startDate, "행사시작일자"), (.endDate, "행사종료일자"), (.eventTime, "행사시각"), (.durationDays, "기간(일)"),
      (.theme, "요금정보"), (.feeText, "관람요금"), (.isFree, "무료 여부"), (.feeMinKRW, "최저요금(원)"),
      (.feeMaxKRW, "최고요금(원)"), (.audience, "입장연령"), (.organizer, "주관기관명"), (.inquiry, "전화번호"),
      (.orgLink, "홈페이지주소"), (.latitude, "위도"), (.longitude, "경도"), (.registeredOn, "데이터기준일자"),
      (.qualityFlags, "품질 표시"),
    ],
    groupFigures: ["행사 수", "무료", "유료", "기간 중앙값(일)", "최저요금 중앙값(원)", "비율", "무료·유료 미상"],
    region: "시·도", group: "제공기관명",
    fee: ["요금대 코드", "행사 수", "관람요금대"], duration: ["기간 코드", "행사 수", "기간"],
    crossFirst: "제공기관명", crossTotal: "합계",
    changes: [
      "구분", "행사 키", "행사명", "항목", "이전 값", "새 값", "제공기관명", "시·도", "행사시작일자", "행사종료일자",
      "변경 종류", "경미한 변경", "항목 코드",
    ])
}

extension ReportExtra {
  /// The national data's own tables: 요금정보 (유료/무료/혼합) and 입장연령 bands, in events.
  public static let national: [ReportExtra] = [
    ReportExtra(
      measure: .feeKind, jsonKey: "byFeeKind", csvFile: "by_fee_kind.csv", csvHeader: ["요금정보 코드", "행사 수", "요금정보"],
      title: CatalogWords.Phrase("요금정보별", "By fee kind"), header: CatalogWords.Phrase("요금정보", "Fee kind"),
      bands: [
        ("free", CatalogWords.Phrase("무료", "Free")), ("paid", CatalogWords.Phrase("유료", "Paid")),
        ("mixed", CatalogWords.Phrase("혼합", "Mixed")), ("unknown", CatalogWords.Phrase("미상", "Unknown")),
      ]),
    ReportExtra(
      measure: .admissionAge, jsonKey: "byAge", csvFile: "by_age.csv", csvHeader: ["입장연령 코드", "행사 수", "입장연령"],
      title: CatalogWords.Phrase("입장연령별", "By admission age"), header: CatalogWords.Phrase("입장연령", "Admission age"),
      bands: [
        ("all", CatalogWords.Phrase("전체 관람", "All ages")), ("0-6", CatalogWords.Phrase("영유아(0~6세)", "0–6")),
        ("7-12", CatalogWords.Phrase("어린이(7~12세)", "7–12")), ("13-18", CatalogWords.Phrase("청소년(13~18세)", "13–18")),
        ("19+", CatalogWords.Phrase("성인(19세 이상)", "19+")), ("unknown", CatalogWords.Phrase("미상", "Unknown")),
      ]),
  ]
}
