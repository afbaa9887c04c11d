import RaonCore

extension CanonicalField {
  /// The column's label in the portal's CSV download, for messages to people who look at
  /// that file (e.g. "the file lacks 분류, 자치구").
  public var koreanLabel: String {
    switch self {
    case .category: return "분류"
    case .district: return "자치구"
    case .title: return "공연/행사명"
    case .dateText: return "날짜/시간"
    case .place: return "장소"
    case .organizer: return "기관명"
    case .audience: return "이용대상"
    case .feeText: return "이용요금"
    case .performers: return "출연자정보"
    case .programDescription: return "프로그램소개"
    case .otherInfo: return "기타내용"
    case .orgLink: return "홈페이지 주소"
    case .imageURL: return "대표이미지"
    case .registeredOn: return "신청일"
    case .ticket: return "시민/기관"
    case .startDate: return "시작일"
    case .endDate: return "종료일"
    case .theme: return "테마분류"
    case .coordinateA: return "위도(X좌표)"
    case .coordinateB: return "경도(Y좌표)"
    case .isFree: return "유무료"
    case .portalURL: return "문화포털상세URL"
    case .programTime: return "행사시간"
    case .inquiry: return "문의"
    }
  }

  /// The Open API's upper-case key for this field.
  public var apiKey: String {
    switch self {
    case .category: return "CODENAME"
    case .district: return "GUNAME"
    case .title: return "TITLE"
    case .dateText: return "DATE"
    case .place: return "PLACE"
    case .organizer: return "ORG_NAME"
    case .audience: return "USE_TRGT"
    case .feeText: return "USE_FEE"
    case .performers: return "PLAYER"
    case .programDescription: return "PROGRAM"
    case .otherInfo: return "ETC_DESC"
    case .orgLink: return "ORG_LINK"
    case .imageURL: return "MAIN_IMG"
    case .registeredOn: return "RGSTDATE"
    case .ticket: return "TICKET"
    case .startDate: return "STRTDATE"
    case .endDate: return "END_DATE"
    case .theme: return "THEMECODE"
    case .coordinateA: return "LAT"
    case .coordinateB: return "LOT"
    case .isFree: return "IS_FREE"
    case .portalURL: return "HMPG_ADDR"
    case .programTime: return "PRO_TIME"
    case .inquiry: return "INQUIRY"
    }
  }
}
