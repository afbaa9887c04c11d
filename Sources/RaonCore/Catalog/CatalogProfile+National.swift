extension CatalogProfile {
  /// 전국공연행사정보표준데이터: the public data portal's standard data of performances and
  /// events, published by every local government and some other public bodies. No program
  /// id and no category: events are keyed by docs/NATIONAL.md's natural key and grouped by
  /// 시·도 and providing body, through the region lineage.
  ///
  /// Its fields fill the normalised program so: 행사명 → `title`, 장소 → `place`, 주관기관명 →
  /// `organizer`, 입장연령 → `audience`, 관람요금 → `feeText`, 요금정보 → `isFree` (and its
  /// kind, 무료/유료/혼합, in `theme`), the sessions' times → `eventTime`, 전화번호 →
  /// `inquiry`, 홈페이지주소 → `orgLink`, 데이터기준일자 → `registeredOn`; the 시·도 goes to
  /// `district` and the providing body to `category` (as lineage ids, named at a report's
  /// date by ``RegionLineage``). Every other column stays in the raw records.
  public static let national = CatalogProfile(
    name: .national,
    title: "전국공연행사정보표준데이터",
    englishTitle: "Korea's performances and events (national standard data)",
    fields: [
      CatalogField(.title, "행사명", "eventNm", english: "Event name"),
      CatalogField(.place, "장소", "opar", english: "Place"),
      CatalogField(.programDescription, "행사내용", "eventCo", english: "Description"),
      CatalogField(.startDate, "행사시작일자", "eventStartDate", english: "Start date"),
      CatalogField(.endDate, "행사종료일자", "eventEndDate", english: "End date"),
      CatalogField(.startTime, "행사시작시각", "eventStartTime", english: "Start time"),
      CatalogField(.endTime, "행사종료시각", "eventEndTime", english: "End time"),
      CatalogField(.feeKind, "요금정보", "chrgeInfo", english: "Fee kind"),
      CatalogField(.organizer, "주관기관명", "mnnst", english: "Organizer"),
      CatalogField(.host, "주최기관명", "auspcInstt", english: "Host"),
      CatalogField(.inquiry, "전화번호", "phoneNumber", english: "Phone"),
      CatalogField(.sponsor, "후원기관명", "suprtInstt", english: "Sponsor"),
      CatalogField(.seats, "객석수", "seatNumber", english: "Seats"),
      CatalogField(.feeText, "관람요금", "admfee", english: "Admission fee"),
      CatalogField(.audience, "입장연령", "entncAge", english: "Admission age"),
      CatalogField(.discount, "할인정보", "dscntInfo", english: "Discounts"),
      CatalogField(.notes, "유의사항", "atpn", english: "Notes"),
      CatalogField(.orgLink, "홈페이지주소", "homepageUrl", english: "Website"),
      CatalogField(.booking, "예매정보", "advantkInfo", english: "Booking"),
      CatalogField(.parking, "주차장보유여부", "prkplceYn", english: "Parking"),
      CatalogField(.roadAddress, "소재지도로명주소", "rdnmadr", english: "Road address"),
      CatalogField(.lotAddress, "소재지지번주소", "lnmadr", english: "Lot address"),
      CatalogField(.coordinateA, "위도", "latitude", english: "Latitude"),
      CatalogField(.coordinateB, "경도", "longitude", english: "Longitude"),
      CatalogField(.referenceDate, "데이터기준일자", "referenceDate", english: "Reference date"),
      CatalogField(.providerCode, "제공기관코드", "insttCode", english: "Provider code"),
      CatalogField(.provider, "제공기관명", "insttNm", english: "Provider"),
    ],
    // Without the provider there is no key (and no region); without a start date neither.
    required: [.title, .place, .startDate, .provider],
    expected: [
      .title, .place, .programDescription, .startDate, .endDate, .startTime, .endTime, .feeKind,
      .organizer, .host, .inquiry, .sponsor, .seats, .feeText, .audience, .discount, .notes,
      .orgLink, .booking, .parking, .roadAddress, .lotAddress, .coordinateA, .coordinateB,
      .referenceDate, .providerCode, .provider,
    ],
    regions: RegionScheme(
      primaryLabel: "시·도", primaryEnglishLabel: "Province", secondaryLabel: "제공기관",
      secondaryEnglishLabel: "Provider", unknown: RegionLineage.otherBodies,
      names: RegionLineage.shipped.provinceIDs, prefixes: [], lineage: RegionLineage.shipped),
    identity: .naturalKey,
    normalisation: .sessions,
    // Korea with its islands: 마라도 33.11 N … 강원 고성 38.61 N, 백령도 124.6 E … 독도 131.87 E.
    coordinates: CoordinateBounds(
      latitudes: 33.0...38.7, longitudes: 124.5...132.0, centre: (36.5, 127.8),
      outsideFlag: .coordsOutsideKorea),
    api: CatalogAPIShape(
      style: .keyInQuery(operation: "tn_pubr_public_pblprfr_event_info_api"),
      defaultBase: "http://api.data.go.kr/openapi", keyVariable: "DATA_GO_KR_KEY",
      keyPortal: "data.go.kr", maxPageSize: 1_000),
    sourceLine: "출처: 공공데이터포털 (전국공연행사정보표준데이터)",
    licence: "공공누리 제1유형", words: .national, extras: ReportExtra.national, configSection: "national")
}
