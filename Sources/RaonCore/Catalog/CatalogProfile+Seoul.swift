extension CatalogProfile {
  /// 서울시 문화행사 정보: the Seoul Open Data Plaza's cultural-events catalog
  /// (`culturalEventInfo`, dataset OA-15486), grouped by its 25 자치구 and its 분류.
  public static let seoul = CatalogProfile(
    name: .seoul,
    title: "서울시 문화행사 정보",
    englishTitle: "Seoul cultural events",
    fields: [
      CatalogField(.category, "분류", "CODENAME"),
      CatalogField(.district, "자치구", "GUNAME"),
      CatalogField(.title, "공연/행사명", "TITLE"),
      CatalogField(.dateText, "날짜/시간", "DATE"),
      CatalogField(.place, "장소", "PLACE"),
      CatalogField(.organizer, "기관명", "ORG_NAME"),
      CatalogField(.audience, "이용대상", "USE_TRGT"),
      CatalogField(.feeText, "이용요금", "USE_FEE"),
      CatalogField(.performers, "출연자정보", "PLAYER"),
      CatalogField(.programDescription, "프로그램소개", "PROGRAM"),
      CatalogField(.otherInfo, "기타내용", "ETC_DESC"),
      CatalogField(.orgLink, "홈페이지 주소", "ORG_LINK"),
      CatalogField(.imageURL, "대표이미지", "MAIN_IMG"),
      CatalogField(.registeredOn, "신청일", "RGSTDATE"),
      CatalogField(.ticket, "시민/기관", "TICKET"),
      CatalogField(.startDate, "시작일", "STRTDATE"),
      CatalogField(.endDate, "종료일", "END_DATE"),
      CatalogField(.theme, "테마분류", "THEMECODE"),
      CatalogField(.coordinateA, "위도(X좌표)", "LAT"),
      CatalogField(.coordinateB, "경도(Y좌표)", "LOT"),
      CatalogField(.isFree, "유무료", "IS_FREE"),
      CatalogField(.portalURL, "문화포털상세URL", "HMPG_ADDR"),
      CatalogField(.programTime, "행사시간", "PRO_TIME"),
      CatalogField(.inquiry, "문의", "INQUIRY"),
    ],
    // 유무료 is not required: catalogs before 2024 lack it, and their free flag is read
    // from the fee text or left unknown.
    required: [.category, .district, .title, .place],
    // 문의 and 행사시간 came in 2026; earlier files lack them.
    expected: [
      .category, .district, .title, .dateText, .place, .organizer, .audience, .feeText,
      .performers, .programDescription, .otherInfo, .orgLink, .imageURL, .registeredOn, .ticket,
      .startDate, .endDate, .theme, .coordinateA, .coordinateB, .isFree, .portalURL,
    ],
    regions: RegionScheme(
      primaryLabel: "자치구", primaryEnglishLabel: "District", secondaryLabel: "분류",
      secondaryEnglishLabel: "Category", unknown: "미상",
      names: [
        "강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구",
        "도봉구", "동대문구", "동작구", "마포구", "서대문구", "서초구", "성동구", "성북구", "송파구",
        "양천구", "영등포구", "용산구", "은평구", "종로구", "중구", "중랑구",
      ],
      prefixes: ["서울특별시", "서울시", "서울"], lineage: nil),
    identity: .portalCode,
    normalisation: .perRecord,
    // The city spans about 37.413…37.715 N and 126.764…127.184 E; a little margin.
    coordinates: CoordinateBounds(
      latitudes: 37.41...37.72, longitudes: 126.76...127.19, centre: (37.5, 127.0),
      outsideFlag: .coordsOutsideSeoul),
    api: CatalogAPIShape(
      style: .keyInPath(service: "culturalEventInfo"),
      defaultBase: "http://openapi.seoul.go.kr:8088", keyVariable: "SEOUL_API_KEY",
      keyPortal: "data.seoul.go.kr", maxPageSize: 1_000),
    sourceLine: "출처: 서울특별시 서울 열린데이터광장 (서울시 문화행사 정보)",
    licence: "공공누리 제1유형",
    bundledSample: "seoul-cultural-events-2024-09-09.cp949.csv")
}
