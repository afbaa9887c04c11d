import Foundation

/// The meaning of a source column, whatever the source calls it.
///
/// The portal's CSV uses Korean headers (whose coordinate labels vary between downloads),
/// the Open API upper-case English keys, and the portal's JSON download lower-case keys.
public enum CanonicalField: String, CaseIterable, Sendable, Hashable {
  case category  // 분류 / CODENAME
  case district  // 자치구 / GUNAME
  case title  // 공연/행사명 / TITLE
  case dateText  // 날짜/시간 / DATE  ("2024-12-22~2024-12-22")
  case place  // 장소 / PLACE
  case organizer  // 기관명 / ORG_NAME
  case audience  // 이용대상 / USE_TRGT
  case feeText  // 이용요금 / USE_FEE
  case performers  // 출연자정보 / PLAYER
  case programDescription  // 프로그램소개 / PROGRAM
  case otherInfo  // 기타내용 / ETC_DESC
  case orgLink  // 홈페이지 주소 / ORG_LINK
  case imageURL  // 대표이미지 / MAIN_IMG
  case registeredOn  // 신청일 / RGSTDATE
  case ticket  // 시민/기관 / TICKET
  case startDate  // 시작일 / STRTDATE
  case endDate  // 종료일 / END_DATE
  case theme  // 테마분류 / THEMECODE
  case coordinateA  // 위도(X좌표) / LAT — which axis it really is is decided by value
  case coordinateB  // 경도(Y좌표) / LOT
  case isFree  // 유무료 / IS_FREE
  case portalURL  // 문화포털상세URL / HMPG_ADDR (carries cultcode=NNNNNN)
  case programTime  // 행사시간 / PRO_TIME (2026 on)
  case inquiry  // 문의 / INQUIRY (2026 on); the national data's 전화번호 / phoneNumber
  // The national standard data's own columns (전국공연행사정보표준데이터): see
  // `CatalogProfile.national` for which shared fields above it fills.
  case provider  // 제공기관명 / insttNm
  case providerCode  // 제공기관코드 / insttCode
  case startTime  // 행사시작시각 / eventStartTime
  case endTime  // 행사종료시각 / eventEndTime
  case feeKind  // 요금정보 / chrgeInfo (유료, 무료, 혼합, …)
  case host  // 주최기관명 / auspcInstt
  case sponsor  // 후원기관명 / suprtInstt
  case seats  // 객석수 / seatNumber
  case discount  // 할인정보 / dscntInfo
  case notes  // 유의사항 / atpn
  case booking  // 예매정보 / advantkInfo
  case parking  // 주차장보유여부 / prkplceYn
  case roadAddress  // 소재지도로명주소 / rdnmadr
  case lotAddress  // 소재지지번주소 / lnmadr
  case referenceDate  // 데이터기준일자 / referenceDate

  /// Resolves a source column name; `nil` for a column Raon does not interpret (it is
  /// still kept in the raw record).
  public init?(sourceName: String) {
    guard let field = CanonicalField.aliases[CanonicalField.fold(sourceName)] else { return nil }
    self = field
  }

  /// Folds a header for lookup, so labels rewritten by spreadsheets and scripts still
  /// match: Unicode NFC, no BOM, no white space (U+00A0 and U+3000 included), none of
  /// `_ ? / ( ) [ ] - .` (the portal writes `홈페이지?주소` for a character CP949 lacks, a
  /// script writes `경도_X좌표_`), lower case, and without a trailing `X좌표`/`Y좌표` (the
  /// coordinate columns are matched by their leading word, 위도/경도, since their axis
  /// labels differ between downloads).
  ///
  /// ```swift
  /// CanonicalField.fold("경도_X좌표_") == CanonicalField.fold("경도(Y좌표)")  // "경도"
  /// ```
  public static func fold(_ name: String) -> String {
    var out = ""
    out.reserveCapacity(name.utf8.count)
    for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
      switch scalar {
      case "\u{FEFF}", "\u{200B}", " ", "\t", "\n", "\r", "?", "_", "/", "(", ")", "[", "]", "-", ".",
        "\u{00A0}", "\u{3000}", "\u{FF08}", "\u{FF09}", "\u{FF0F}", "\u{FF3F}":
        continue
      default:
        if scalar.properties.isWhitespace { continue }
        out.unicodeScalars.append(scalar)
      }
    }
    out = out.lowercased()
    for suffix in ["x좌표", "y좌표"] where out.hasSuffix(suffix) && out.count > suffix.count {
      out.removeLast(suffix.count)
      break
    }
    return out
  }

  /// Whether a column label is a leading row number (`번호`, `No.`, `#`, `순번`) that a
  /// spreadsheet or script prepended: it is kept in the raw record and needs no warning.
  public static func isRowNumberLabel(_ name: String) -> Bool {
    ["번호", "no", "#", "순번", "연번", ""].contains(fold(name))
  }

  /// Folded source names → meaning. The coordinate columns are matched by their leading
  /// word only (위도/경도), because their axis labels differ between downloads.
  static let aliases: [String: CanonicalField] = {
    var map: [String: CanonicalField] = [:]
    func add(_ field: CanonicalField, _ names: String...) {
      for n in names { map[fold(n)] = field }
    }
    add(.category, "분류", "CODENAME", "codename")
    add(.district, "자치구", "GUNAME", "guname")
    add(.title, "공연/행사명", "TITLE")
    add(.dateText, "날짜/시간", "DATE")
    add(.place, "장소", "PLACE")
    add(.organizer, "기관명", "ORG_NAME")
    add(.audience, "이용대상", "USE_TRGT")
    add(.feeText, "이용요금", "USE_FEE")
    add(.performers, "출연자정보", "PLAYER")
    add(.programDescription, "프로그램소개", "PROGRAM")
    add(.otherInfo, "기타내용", "ETC_DESC")
    add(.orgLink, "홈페이지 주소", "ORG_LINK")
    add(.imageURL, "대표이미지", "MAIN_IMG")
    add(.registeredOn, "신청일", "RGSTDATE")
    add(.ticket, "시민/기관", "TICKET")
    add(.startDate, "시작일", "STRTDATE")
    add(.endDate, "종료일", "END_DATE")
    add(.theme, "테마분류", "THEMECODE")
    add(.coordinateA, "위도", "LAT")
    add(.coordinateB, "경도", "LOT")
    add(.isFree, "유무료", "IS_FREE")
    add(.portalURL, "문화포털상세URL", "HMPG_ADDR")
    add(.programTime, "PRO_TIME", "공연시간", "행사시간")
    add(.inquiry, "문의", "INQUIRY")
    // The national standard data: its CSV's Korean headers and the Open API's keys (both
    // spellings the portal has used for some of them).
    add(.title, "행사명", "eventNm")
    add(.place, "opar")
    add(.programDescription, "행사내용", "eventCo")
    add(.startDate, "행사시작일자", "eventStartDate")
    add(.endDate, "행사종료일자", "eventEndDate")
    add(.organizer, "주관기관명", "mnnst", "mnnstNm")
    add(.inquiry, "전화번호", "phoneNumber")
    add(.feeText, "관람요금", "admfee")
    add(.audience, "입장연령", "entncAge")
    add(.orgLink, "homepageUrl")
    add(.coordinateA, "latitude")
    add(.coordinateB, "longitude")
    add(.provider, "제공기관명", "insttNm", "instt_nm")
    add(.providerCode, "제공기관코드", "insttCode", "instt_code")
    add(.startTime, "행사시작시각", "eventStartTime")
    add(.endTime, "행사종료시각", "eventEndTime")
    add(.feeKind, "요금정보", "chrgeInfo")
    add(.host, "주최기관명", "auspcInstt", "auspcInsttNm")
    add(.sponsor, "후원기관명", "suprtInstt", "suprtInsttNm")
    add(.seats, "객석수", "seatNumber")
    add(.discount, "할인정보", "dscntInfo")
    add(.notes, "유의사항", "atpn")
    add(.booking, "예매정보", "advantkInfo", "advanceBkngUrl")
    add(.parking, "주차장보유여부", "prkplceYn")
    add(.roadAddress, "소재지도로명주소", "rdnmadr")
    add(.lotAddress, "소재지지번주소", "lnmadr")
    add(.referenceDate, "데이터기준일자", "referenceDate")
    return map
  }()

}

extension CanonicalField {
  /// The number of canonical fields.
  static let count = allCases.count

  /// The field's position in `allCases`, for array-indexed lookups: hashing the raw string
  /// on every lookup is measurable when a million records are read field by field.
  var ordinal: Int {
    switch self {
    case .category: return 0
    case .district: return 1
    case .title: return 2
    case .dateText: return 3
    case .place: return 4
    case .organizer: return 5
    case .audience: return 6
    case .feeText: return 7
    case .performers: return 8
    case .programDescription: return 9
    case .otherInfo: return 10
    case .orgLink: return 11
    case .imageURL: return 12
    case .registeredOn: return 13
    case .ticket: return 14
    case .startDate: return 15
    case .endDate: return 16
    case .theme: return 17
    case .coordinateA: return 18
    case .coordinateB: return 19
    case .isFree: return 20
    case .portalURL: return 21
    case .programTime: return 22
    case .inquiry: return 23
    case .provider: return 24
    case .providerCode: return 25
    case .startTime: return 26
    case .endTime: return 27
    case .feeKind: return 28
    case .host: return 29
    case .sponsor: return 30
    case .seats: return 31
    case .discount: return 32
    case .notes: return 33
    case .booking: return 34
    case .parking: return 35
    case .roadAddress: return 36
    case .lotAddress: return 37
    case .referenceDate: return 38
    }
  }
}
