import RaonCore

/// The language of a report's labels. Korean by default: Raon's readers are Korean.
public enum ReportLanguage: String, CaseIterable, Sendable {
  case ko, en
}

/// The words a report uses, in one language. Writers take their labels from here so a
/// table is called the same thing in the workbook, the Markdown and the charts.
public struct ReportLabels: Sendable {
  public let language: ReportLanguage
  /// The catalog the words are for: the national data's labels say 시·도, 제공기관 and 행사
  /// where Seoul's say 자치구, 분류 and 프로그램 (``NationalWords``).
  public let catalog: CatalogProfile.Name

  public init(_ language: ReportLanguage, catalog: CatalogProfile.Name = .seoul) {
    self.language = language
    self.catalog = catalog
  }

  /// The one way a label is stated: its Korean and its English words, side by side.
  public func say(_ ko: String, _ en: String) -> String {
    let text = language == .ko ? ko : en
    return catalog == .national ? NationalWords.adapt(text, language) : text
  }

  // MARK: - Report and sections
  public var reportTitle: String { say("서울시 문화행사 주간 현황", "Seoul cultural events — weekly status") }
  public var summary: String { say("요약", "Summary") }
  public var snapshot: String { say("스냅숏", "Snapshot") }
  public var comparedTo: String { say("비교 대상", "Compared to") }
  public var noComparison: String { say("비교 없음", "No comparison") }
  public var week: String { say("주간", "Week") }
  public var thisWeek: String { say("이번 주", "This week") }
  public var byCategory: String { say("분류별", "By category") }
  public var byDistrict: String { say("자치구별", "By district") }
  public var byFee: String { say("요금대별", "By fee") }
  public var byDuration: String { say("기간별", "By duration") }
  public var categoryByDistrict: String { say("분류×자치구", "Category × district") }
  public var changes: String { say("변경 사항", "Changes") }
  public var quality: String { say("데이터 품질", "Data quality") }
  public var programs: String { say("프로그램", "Programs") }
  /// The sum of the groups a chart or table does not show one by one; never "기타", which
  /// is a category of its own.
  public var other: String { say("그 외", "Others") }
  public var total: String { say("합계", "Total") }

  // MARK: - Headline figures
  public var programCount: String { say("전체 행사", "Programs") }
  public var startingThisWeek: String { say("이번 주 시작", "Starting this week") }
  public var freeShare: String { say("무료 비율", "Free share") }
  public var added: String { say("추가", "Added") }
  public var removed: String { say("삭제", "Removed") }
  public var changed: String { say("변경", "Changed") }
  public var change: String { say("증감", "Change") }
  public var takenAt: String { say("수집 시각", "Taken at") }
  public var source: String { say("출처", "Source") }
  /// The one source line (page 1, every document's close, the workbook, the site); the
  /// national catalog's is said in its words (``NationalWords``).
  public var attribution: String { sourceLine }

  // MARK: - Table columns
  public var key: String { say("항목", "Key") }
  public var category: String { say("분류", "Category") }
  public var district: String { say("자치구", "District") }
  public var count: String { say("건수", "Count") }
  public var share: String { say("비율", "Share") }
  public var free: String { say("무료", "Free") }
  public var paid: String { say("유료", "Paid") }
  /// Neither free nor paid: no 유무료 and an ambiguous fee text.
  public var freeUnknown: String { say("유무료 미상", "Free/paid unknown") }
  public var medianDurationDays: String { say("기간 중앙값(일)", "Median duration (days)") }
  public var medianFeeMinKrw: String { say("최저요금 중앙값(원)", "Median min. fee (KRW)") }
  public var feeBand: String { say("요금대", "Fee band") }
  public var durationBand: String { say("기간", "Duration") }
  public var flag: String { say("품질 표시", "Quality flag") }
  public var field: String { say("항목", "Field") }
  public var oldValue: String { say("이전 값", "Old value") }
  public var newValue: String { say("새 값", "New value") }
  public var id: String { "ID" }
  public var title: String { say("공연/행사명", "Title") }

  /// The label of a fee band key (`free`, `1-10000`, …, `unknown`).
  public func feeBand(_ key: String) -> String {
    switch key {
    case "free": return say("무료", "Free")
    case "unknown": return say("알 수 없음", "Unknown")
    case "100001+": return say("100,001원 이상", "100,001+ KRW")
    default:
      let parts = key.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 2 else { return key }
      let lo = parts[0].formatted(), hi = parts[1].formatted()
      return say("\(lo)~\(hi)원", "\(lo)–\(hi) KRW")
    }
  }

  /// The label of a duration band key (`1`, `2-7`, …, `invalid`).
  public func durationBand(_ key: String) -> String {
    switch key {
    case "1": return say("1일", "1 day")
    case "366+": return say("366일 이상", "366+ days")
    case "invalid": return say("기간 오류", "Invalid dates")
    default:
      let parts = key.split(separator: "-")
      guard parts.count == 2 else { return key }
      return say("\(parts[0])~\(parts[1])일", "\(parts[0])–\(parts[1]) days")
    }
  }
}

extension Int {
  /// `12,345` — grouping with commas, independent of the machine's locale (``NumberText``).
  func formatted() -> String { NumberText.grouped(self) }
}

// MARK: - Words of the Markdown, CSV and JSON writers

extension ReportLabels {
  public var headline: String { say("주요 지표", "Headline figures") }
  public var thisSnapshot: String { say("이번 스냅숏", "This snapshot") }
  /// The suffix of a change in percentage points.
  public var percentPoints: String { say("%p", " pp") }
  public var from: String { say("이전", "From") }
  public var to: String { say("이후", "To") }
  public var noChanges: String { say("변경 없음", "No changes") }
  public var noData: String { say("자료 없음", "No data") }
  public var noQualityFlags: String { say("품질 표시가 붙은 행사가 없습니다.", "No program carries a quality flag.") }
  public var examples: String { say("예시", "Examples") }
  public var explanation: String { say("설명", "Description") }
  public var emptyValue: String { say("(없음)", "(empty)") }
  public var period: String { say("기간", "Dates") }
  public var chartCountSuffix: String { say("건수", "programs") }

  /// `1,234건` / `1,234 programs`.
  public func countText(_ n: Int) -> String {
    say("\(n.formatted())건", n == 1 ? "1 program" : "\(n.formatted()) programs")
  }

  /// `행사 1,234건` / `1,234 programs`: a snapshot's size.
  public func programCountText(_ n: Int) -> String {
    say("행사 \(n.formatted())건", "\(n.formatted()) programs")
  }

  /// `외 12건` / `and 12 more`: the end of a list that was cut.
  public func more(_ n: Int) -> String { say("외 \(n.formatted())건", "and \(n.formatted()) more") }

  /// The title line's week, e.g. `2024-W37 (2024-09-09 ~ 2024-09-15)`.
  public func weekRange(_ week: String, start: String, end: String) -> String {
    say("\(week) (\(start) ~ \(end))", "\(week) (\(start) – \(end))")
  }

  /// The note under a category × district table that folds small categories together, and
  /// where the full table is (in words: no file name on a printed page).
  public func crossTableNote(_ shown: Int, of total: Int) -> String {
    say(
      "상위 \(shown)개 분류만 열로 보이고 나머지 \(total - shown)개 분류는 '\(other)' 열에 합산했습니다. 전체 표는 엑셀 통합 문서의 「\(categoryByDistrict)」 시트에 있습니다.",
      "The \(shown) largest categories have their own column; the other \(total - shown) are summed under '\(other)'. The full table is the workbook's category × district sheet."
    )
  }

  /// The name of a `programs.csv` column for people (`fee_text` → `이용요금`), from the one
  /// column table (``ProgramColumn``), so every format titles a column alike.
  public func fieldName(_ column: String) -> String {
    // The national data's comparison names its fields canonically (`feeText`): its labels.
    if catalog == .national, let label = NationalWords.fieldLabel(column, language) { return label }
    guard let c = ProgramColumn(name: column) else { return column }
    return say(c.koreanTitle, c.englishTitle)
  }

  /// A quality flag's name for people (`district_missing` → `자치구 없음`), from the one
  /// flag table (``QualityFlagText``); the code itself stays in CSV and JSON.
  public func flagName(_ code: String) -> String {
    guard let text = QualityFlagText.byCode[code] else { return code }
    return say(text.koreanName, text.englishName)
  }

  /// What a quality flag means, in a sentence (data-quality section and sheet).
  public func flagExplanation(_ code: String) -> String {
    guard let text = QualityFlagText.byCode[code] else { return code }
    return say(text.koreanExplanation, text.englishExplanation)
  }

  /// The names of a program's flags, in output order, for one cell or line: `자치구 없음, 좌표 없음`.
  public func flagNames(_ flags: QualityFlags) -> String {
    flags.names.map(flagName).joined(separator: ", ")
  }
}

// MARK: - Quality flags

/// The one table of quality flags for people: each contract code (``QualityFlags/named``)
/// with a short name and an explanation in Korean and English. The workbook, the Markdown
/// (and later HTML) take both from here; CSV and JSON keep the codes.
public struct QualityFlagText: Sendable {
  public let code: String
  public let koreanName: String
  public let englishName: String
  public let koreanExplanation: String
  public let englishExplanation: String

  /// Every flag, in ``QualityFlags/named`` order.
  public static let all: [QualityFlagText] = [
    QualityFlagText(
      code: "end_before_start", koreanName: "종료일이 시작일보다 앞섬", englishName: "End before start",
      koreanExplanation: "종료일이 시작일보다 앞섬 (기간은 비워 둠)",
      englishExplanation: "End date before start date (no duration)"),
    QualityFlagText(
      code: "district_missing", koreanName: "자치구 없음", englishName: "District missing",
      koreanExplanation: "자치구가 비었거나 서울 25개 자치구가 아님 ('미상'으로 집계)",
      englishExplanation: "District empty or not one of Seoul's 25 (counted as Unknown district)"),
    QualityFlagText(
      code: "coords_missing", koreanName: "좌표 없음", englishName: "Coordinates missing",
      koreanExplanation: "좌표(위도·경도)가 없거나 읽을 수 없음",
      englishExplanation: "Coordinates missing or unreadable"),
    QualityFlagText(
      code: "coords_outside_seoul", koreanName: "좌표가 서울 밖", englishName: "Coordinates outside Seoul",
      koreanExplanation: "좌표가 서울 밖을 가리킴", englishExplanation: "Coordinates outside Seoul"),
    QualityFlagText(
      code: "free_but_priced", koreanName: "무료인데 요금 기재", englishName: "Free, yet priced",
      koreanExplanation: "무료로 표시됐으나 이용요금에 금액이 있음",
      englishExplanation: "Marked free, yet the fee text quotes an amount"),
    QualityFlagText(
      code: "dates_from_range_text", koreanName: "날짜/시간 문구에서 날짜 복원",
      englishName: "Dates from the range text",
      koreanExplanation: "시작일·종료일이 없거나 손상돼 '날짜/시간' 항목에서 읽음",
      englishExplanation: "Start/end dates missing or damaged; read from the date-range text"),
    QualityFlagText(
      code: "invalid_bytes_replaced", koreanName: "깨진 문자 대체", englishName: "Invalid bytes replaced",
      koreanExplanation: "원본의 잘못된 문자 바이트를 대체 문자(�)로 바꿈",
      englishExplanation: "Invalid bytes in the source replaced with �"),
    QualityFlagText(
      code: "dates_missing", koreanName: "날짜 없음", englishName: "Dates missing",
      koreanExplanation: "시작일·종료일을 읽을 수 없음",
      englishExplanation: "No start or end date could be read"),
    QualityFlagText(
      code: "id_from_hash", koreanName: "포털 코드 없음(해시 ID)", englishName: "No portal code (hashed id)",
      koreanExplanation: "문화포털 주소에 cultcode가 없어 제목·장소·시작일로 ID를 만듦",
      englishExplanation: "No cultcode in the portal URL; id made from title, place and start date"),
    QualityFlagText(
      code: "free_flag_missing", koreanName: "유무료 표시 없음", englishName: "Free/paid flag missing",
      koreanExplanation: "유무료 값이 없거나 알 수 없음 (요금 문구가 분명하면 그에 따르고, 아니면 유무료 미상)",
      englishExplanation: "Free/paid value missing or unknown (taken from the fee text when that is unambiguous, else unknown)"),
  ]

  /// ``all`` by code.
  public static let byCode: [String: QualityFlagText] = Dictionary(
    (all + NationalWords.qualityFlags).map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
}

// MARK: - Korean CSV headers

/// The CSV files' header rows in Korean (`--csv-headers ko`), column for column with the
/// English ones of ``CSVReportWriter``. The words are the Korean report's labels;
/// `programs.csv` takes its titles from the one column table (``ProgramColumn/koreanTitle``).
public enum KoreanCSVHeaders {
  private static let ko = ReportLabels(.ko)

  public static var programs: [String] { ProgramColumn.allCases.map(\.koreanTitle) }
  public static var byCategory: [String] { groups(key: ko.category) }
  public static var byDistrict: [String] { groups(key: ko.district) }
  public static var byFee: [String] { ["요금대 코드", ko.count, ko.feeBand] }
  public static var byDuration: [String] { ["기간 코드", ko.count, ko.durationBand] }
  public static var changes: [String] {
    [
      "구분", ko.id, ko.title, ko.field, ko.oldValue, ko.newValue, ko.category, ko.district,
      ProgramColumn.startDate.koreanTitle, ProgramColumn.endDate.koreanTitle, ko.changeKindTitle, ko.minor,
    ]
  }

  /// `분류, <자치구>…, 합계`.
  public static func categoryByDistrict(districts: [String]) -> [String] {
    [ko.category] + districts + [ko.total]
  }

  private static func groups(key: String) -> [String] {
    [key, ko.count, ko.free, ko.paid, ko.medianDurationDays, ko.medianFeeMinKrw, ko.share, ko.freeUnknown]
  }
}
