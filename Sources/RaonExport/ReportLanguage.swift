/// The language of a report's labels. Korean by default: Raon's readers are Korean.
public enum ReportLanguage: String, CaseIterable, Sendable {
  case ko, en
}

/// The words a report uses, in one language. Writers take their labels from here so a
/// table is called the same thing in the workbook, the Markdown and the charts.
public struct ReportLabels: Sendable {
  public let language: ReportLanguage

  public init(_ language: ReportLanguage) { self.language = language }

  private func pick(_ ko: String, _ en: String) -> String { language == .ko ? ko : en }

  // MARK: - Report and sections
  public var reportTitle: String { pick("서울시 문화행사 주간 보고서", "Seoul cultural events — weekly report") }
  public var summary: String { pick("요약", "Summary") }
  public var snapshot: String { pick("스냅숏", "Snapshot") }
  public var comparedTo: String { pick("비교 대상", "Compared to") }
  public var noComparison: String { pick("비교 없음", "No comparison") }
  public var week: String { pick("주간", "Week") }
  public var thisWeek: String { pick("이번 주", "This week") }
  public var byCategory: String { pick("분류별", "By category") }
  public var byDistrict: String { pick("자치구별", "By district") }
  public var byFee: String { pick("요금대별", "By fee") }
  public var byDuration: String { pick("기간별", "By duration") }
  public var categoryByDistrict: String { pick("분류×자치구", "Category × district") }
  public var changes: String { pick("변경 사항", "Changes") }
  public var quality: String { pick("데이터 품질", "Data quality") }
  public var programs: String { pick("프로그램", "Programs") }
  public var other: String { pick("기타(나머지)", "Other") }
  public var total: String { pick("합계", "Total") }

  // MARK: - Headline figures
  public var programCount: String { pick("전체 프로그램", "Programs") }
  public var activeThisWeek: String { pick("이번 주 진행", "Running this week") }
  public var startingThisWeek: String { pick("이번 주 시작", "Starting this week") }
  public var freeShare: String { pick("무료 비율", "Free share") }
  public var added: String { pick("추가", "Added") }
  public var removed: String { pick("삭제", "Removed") }
  public var changed: String { pick("변경", "Changed") }
  public var change: String { pick("증감", "Change") }
  public var takenAt: String { pick("수집 시각", "Taken at") }
  public var source: String { pick("출처", "Source") }
  public var attribution: String {
    "출처: 서울특별시 서울 열린데이터광장 (서울시 문화행사 정보), 공공누리 제1유형"
  }

  // MARK: - Table columns
  public var key: String { pick("항목", "Key") }
  public var category: String { pick("분류", "Category") }
  public var district: String { pick("자치구", "District") }
  public var count: String { pick("건수", "Count") }
  public var share: String { pick("비율", "Share") }
  public var free: String { pick("무료", "Free") }
  public var paid: String { pick("유료", "Paid") }
  public var medianDurationDays: String { pick("기간 중앙값(일)", "Median duration (days)") }
  public var medianFeeMinKrw: String { pick("최저요금 중앙값(원)", "Median min. fee (KRW)") }
  public var feeBand: String { pick("요금대", "Fee band") }
  public var durationBand: String { pick("기간", "Duration") }
  public var flag: String { pick("품질 표시", "Quality flag") }
  public var field: String { pick("항목", "Field") }
  public var oldValue: String { pick("이전 값", "Old value") }
  public var newValue: String { pick("새 값", "New value") }
  public var id: String { "ID" }
  public var title: String { pick("공연/행사명", "Title") }

  /// The label of a fee band key (`free`, `1-10000`, …, `unknown`).
  public func feeBand(_ key: String) -> String {
    switch key {
    case "free": return pick("무료", "Free")
    case "unknown": return pick("알 수 없음", "Unknown")
    case "100001+": return pick("100,001원 이상", "100,001+ KRW")
    default:
      let parts = key.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 2 else { return key }
      let lo = parts[0].formatted(), hi = parts[1].formatted()
      return pick("\(lo)~\(hi)원", "\(lo)–\(hi) KRW")
    }
  }

  /// The label of a duration band key (`1`, `2-7`, …, `invalid`).
  public func durationBand(_ key: String) -> String {
    switch key {
    case "1": return pick("1일", "1 day")
    case "366+": return pick("366일 이상", "366+ days")
    case "invalid": return pick("기간 오류", "Invalid dates")
    default:
      let parts = key.split(separator: "-")
      guard parts.count == 2 else { return key }
      return pick("\(parts[0])~\(parts[1])일", "\(parts[0])–\(parts[1]) days")
    }
  }
}

extension Int {
  /// `12,345` — grouping with commas, independent of the machine's locale.
  func formatted() -> String {
    let digits = String(self.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(ch)
    }
    return self < 0 ? "-" + out : out
  }
}
