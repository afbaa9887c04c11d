import RaonCore

/// The national data's words where Seoul's report has its own: 시·도 for 자치구, 제공기관
/// (a 시·군·구 office or another body) for 분류, 행사 (an event, whatever its sessions) for
/// 프로그램, and the dataset's own name and source. One table, so the labels
/// (``ReportLabels/say(_:_:)``) and the composed document (``NationalReportComposer``) say
/// the same thing.
public enum NationalWords {
  /// Whole phrases first, then single words: `서울시 문화행사` before `자치구`.
  static let korean: [(String, String)] = [
    // 신규 등록 counts 데이터기준일자 (the national data has no registration day), and no
    // event has an image that a minor change could be.
    ("신청일이", "데이터기준일자가"),
    ("좌표 50m 미만 이동, 대표 이미지, 띄어쓰기만", "좌표 50m 미만 이동, 띄어쓰기만"),
    ("서울특별시 서울 열린데이터광장 (서울시 문화행사 정보)", "공공데이터포털 (전국공연행사정보표준데이터)"),
    ("서울 열린데이터광장 「서울시 문화행사 정보」", "공공데이터포털 「전국공연행사정보표준데이터」"),
    ("서울시 문화행사 정보", "전국공연행사정보표준데이터"),
    ("서울시 문화행사", "전국 공연·행사"),
    ("서울시 이번 주", "전국 이번 주"),
    ("개 구 중", "개 시·도 중"),
    ("서울 25개 자치구", "시·도"),
    ("자치구", "시·도"),
    ("분류", "제공기관"),
    ("프로그램", "행사"),
    // The national data's own column labels (CatalogProfile.national's fields).
    ("공연/행사명", "행사명"),
    ("이용요금", "관람요금"),
  ]

  static let english: [(String, String)] = [
    ("registration day within", "reference date (데이터기준일자) within"),
    ("coordinates moved under 50 m, the image, or text", "coordinates moved under 50 m, or text"),
    ("under 50 m, the image, text", "under 50 m, text"),
    ("Seoul Open Data Plaza, “Seoul cultural events” (서울시 문화행사 정보)",
     "the public data portal, “national performances and events” (전국공연행사정보표준데이터)"),
    ("Seoul cultural events", "Korea's performances and events"),
    ("Seoul's 25", "the provinces"),
    ("districts", "provinces"), ("Districts", "Provinces"),
    ("district", "province"), ("District", "Province"),
    ("categories", "providers"), ("Categories", "Providers"),
    ("category", "provider"), ("Category", "Provider"),
    ("programs", "events"), ("Programs", "Events"),
    ("program", "event"), ("Program", "Event"),
  ]

  /// The words of a file's name (a chart's, as its CSV tables are named): `by_category` →
  /// `by_provider`, `running_by_district` → `running_by_region`.
  static let fileWords: [(String, String)] = [("category", "provider"), ("district", "region")]

  /// A file name of Seoul's report (``Chart/file``) in the national data's words.
  public static func fileName(_ seoul: String) -> String {
    fileWords.reduce(seoul) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
  }

  /// `text` in the national data's words.
  public static func adapt(_ text: String, _ language: ReportLanguage) -> String {
    var out = text
    for (seoul, national) in language == .ko ? korean : english where out.contains(seoul) {
      out = out.replacingOccurrences(of: seoul, with: national)
    }
    return out
  }

  /// 요금정보's kinds (``NationalAnalysis/Tables/byFeeKind``'s keys) for people.
  public static func feeKindName(_ key: String, _ L: ReportLabels) -> String {
    let names: [String: (String, String)] = [
      "free": ("무료", "Free"), "paid": ("유료", "Paid"), "mixed": ("혼합", "Mixed"), "unknown": ("미상", "Unknown"),
    ]
    return names[key].map { L.say($0.0, $0.1) } ?? key
  }

  /// 입장연령's bands (``NationalAnalysis/Tables/byAge``'s keys) for people.
  public static func ageName(_ key: String, _ L: ReportLabels) -> String {
    let names: [String: (String, String)] = [
      "all": ("전체 관람", "All ages"), "0-6": ("영유아(0~6세)", "0–6"), "7-12": ("어린이(7~12세)", "7–12"),
      "13-18": ("청소년(13~18세)", "13–18"), "19+": ("성인(19세 이상)", "19+"), "unknown": ("미상", "Unknown"),
    ]
    return names[key].map { L.say($0.0, $0.1) } ?? key
  }

  /// A compared field's label (``EventComparison``'s names: the canonical field, `sessions`,
  /// `latitude`, `longitude`) as the national data's download heads it: `feeText` → 관람요금;
  /// in English, the profile's English label (`Admission fee`).
  public static func fieldLabel(_ code: String, _ language: ReportLanguage) -> String? {
    let profile = CatalogProfile.national
    func label(_ field: CanonicalField) -> String {
      language == .ko ? profile.label(of: field) : profile.englishLabel(of: field)
    }
    switch code {
    case "sessions": return language == .ko ? "회차 수" : "Sessions"
    case "latitude": return label(.coordinateA)
    case "longitude": return label(.coordinateB)
    default:
      guard let field = CanonicalField(rawValue: code), profile.fields.contains(where: { $0.field == field })
      else { return nil }
      return label(field)
    }
  }

  /// The flags only the national data sets, for people (the codes stay in CSV and JSON).
  static let qualityFlags: [QualityFlagText] = [
    QualityFlagText(
      code: "coords_outside_korea", koreanName: "좌표가 국내 밖", englishName: "Coordinates outside Korea",
      koreanExplanation: "위도·경도가 대한민국(북위 33.0~38.7°, 동경 124.5~132.0°) 밖을 가리킴",
      englishExplanation: "Latitude/longitude outside Korea (33.0–38.7 N, 124.5–132.0 E)"),
    QualityFlagText(
      code: "paid_but_free", koreanName: "유료인데 관람요금 무료", englishName: "Paid, fee says free",
      koreanExplanation: "요금정보는 유료인데 관람요금이 0원이나 무료라고 함",
      englishExplanation: "The fee kind says paid but the admission fee quotes 0 or free"),
    QualityFlagText(
      code: "duplicate_row", koreanName: "중복 행", englishName: "Duplicate row",
      koreanExplanation: "모든 값이 같은 행이 두 번 이상 있음 (행사는 한 번 셈)",
      englishExplanation: "Two or more identical rows (the event counts once)"),
    QualityFlagText(
      code: "region_unknown", koreanName: "지역 미상", englishName: "Region unknown",
      koreanExplanation: "제공기관과 주소로 시·도를 알 수 없음 ('기타 기관'으로 집계)",
      englishExplanation: "No province from the provider or the address (counted under 기타 기관)"),
    QualityFlagText(
      code: "reference_date_stale", koreanName: "데이터기준일자 1년 경과", englishName: "Reference date over a year old",
      koreanExplanation: "데이터기준일자가 보고 기준일보다 365일 넘게 앞섬",
      englishExplanation: "The reference date is more than 365 days before the report's day"),
  ]
}
