import RaonCore

/// The English names of Seoul's districts (the official romanization, as the districts
/// spell themselves: `종로구` → `Jongno-gu`) and of the catalog's categories, in one table.
/// An English document reads them everywhere a person reads a name: its sentences, tables,
/// headings and charts. A name the table does not know stays as the catalog gives it.
/// CSV and JSON keep the catalog's values (codes for scripts).
public enum EnglishNames {
  /// The 25 districts and the value for a record without one.
  public static let districts: [String: String] = [
    "종로구": "Jongno-gu", "중구": "Jung-gu", "용산구": "Yongsan-gu", "성동구": "Seongdong-gu",
    "광진구": "Gwangjin-gu", "동대문구": "Dongdaemun-gu", "중랑구": "Jungnang-gu", "성북구": "Seongbuk-gu",
    "강북구": "Gangbuk-gu", "도봉구": "Dobong-gu", "노원구": "Nowon-gu", "은평구": "Eunpyeong-gu",
    "서대문구": "Seodaemun-gu", "마포구": "Mapo-gu", "양천구": "Yangcheon-gu", "강서구": "Gangseo-gu",
    "구로구": "Guro-gu", "금천구": "Geumcheon-gu", "영등포구": "Yeongdeungpo-gu", "동작구": "Dongjak-gu",
    "관악구": "Gwanak-gu", "서초구": "Seocho-gu", "강남구": "Gangnam-gu", "송파구": "Songpa-gu",
    "강동구": "Gangdong-gu", "미상": "Unknown district",
  ]

  /// The categories of Seoul's catalog (분류).
  public static let categories: [String: String] = [
    "교육/체험": "Education/Experience", "전시/미술": "Exhibition/Art", "클래식": "Classical",
    "콘서트": "Concert", "국악": "Korean traditional music", "연극": "Theatre", "기타": "Other",
    "영화": "Film", "뮤지컬/오페라": "Musical/Opera", "독주/독창회": "Recital", "무용": "Dance",
    "축제-문화/예술": "Festival: culture/arts", "축제-기타": "Festival: other",
    "축제-전통/역사": "Festival: tradition/history", "축제-자연/경관": "Festival: nature/scenery",
    "축제-시민화합": "Festival: community",
  ]

  /// Every name, longest first, so a name inside a longer one (`기타` in `축제-기타`) is
  /// replaced as the longer one.
  static let all: [(korean: String, english: String)] = (districts.map { ($0.key, $0.value) }
    + categories.map { ($0.key, $0.value) }).sorted { $0.0.count != $1.0.count ? $0.0.count > $1.0.count : $0.0 < $1.0 }

  /// `name` in English when the table knows it (a whole cell, a bar's label), else `name`.
  public static func name(_ name: String) -> String {
    districts[name] ?? categories[name] ?? name
  }

  /// `text`, a sentence or a heading the document wrote, with each known name in English.
  /// Never applied to a program's title or place (data, kept as the catalog gives it).
  public static func sentence(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value >= 0xAC00 && $0.value <= 0xD7A3 }) else { return text }
    var out = text
    for (korean, english) in all where out.contains(korean) {
      out = out.replacingOccurrences(of: korean, with: english)
    }
    return out
  }
}

extension ReportLabels {
  /// A district's or category's name as a table cell of this report's language says it:
  /// in English from ``EnglishNames`` (unknown names stay Korean), else as the catalog has it.
  public func named(_ name: String) -> String {
    language == .en ? EnglishNames.name(name) : name
  }
}
