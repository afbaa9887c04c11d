import RaonCore

/// The language of a report's labels. Korean by default: Raon's readers are Korean.
public enum ReportLanguage: String, CaseIterable, Sendable {
  case ko, en
}

/// The words a report uses, in one language and in its catalog's words (``CatalogWords``:
/// 자치구 or 시·도, 분류 or 제공기관, 프로그램 or 행사). Writers take their labels from here so a
/// table is called the same thing in the workbook, the Markdown and the charts.
public struct ReportLabels: Sendable {
  public let language: ReportLanguage
  /// The catalog the words are for: its nouns, names, fields and flags.
  public let profile: CatalogProfile

  public init(_ language: ReportLanguage, profile: CatalogProfile = .seoul) {
    self.language = language
    self.profile = profile
  }

  /// The catalog's words.
  public var words: CatalogWords { profile.words }

  /// The one way a label is stated: its Korean and its English words, side by side.
  public func say(_ ko: String, _ en: String) -> String {
    language == .ko ? ko : en
  }

  /// A phrase of the catalog's words in the report's language.
  public func say(_ phrase: CatalogWords.Phrase) -> String { say(phrase.ko, phrase.en) }

  /// A noun of the catalog's words, in the singular: `자치구`, `district`.
  public func say(_ noun: CatalogWords.Noun) -> String { say(noun.ko, noun.en) }

  /// `word` with the particle that follows it (``KoreanParticle``): `제공기관은`, `분류는`.
  public func with(_ word: String, _ particle: KoreanParticle) -> String { particle.attached(to: word) }

  // Short names for the catalog's nouns in the labels below.
  public var regionWord: CatalogWords.Noun { words.region }
  public var groupWord: CatalogWords.Noun { words.group }
  public var itemWord: CatalogWords.Noun { words.item }

  /// `district` → `District`.
  public static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

  // MARK: - Report and sections
  public var reportTitle: String { say("\(words.catalog.ko) 주간 현황", "\(words.catalog.en) — weekly status") }
  public var summary: String { say("요약", "Summary") }
  public var snapshot: String { say("스냅숏", "Snapshot") }
  public var comparedTo: String { say("비교 대상", "Compared to") }
  public var noComparison: String { say("비교 없음", "No comparison") }
  public var week: String { say("주간", "Week") }
  public var thisWeek: String { say("이번 주", "This week") }
  public var byCategory: String { say("\(groupWord.ko)별", "By \(groupWord.en)") }
  public var byDistrict: String { say("\(regionWord.ko)별", "By \(regionWord.en)") }
  public var byFee: String { say("요금대별", "By fee") }
  public var byDuration: String { say("기간별", "By duration") }
  public var categoryByDistrict: String {
    say("\(groupWord.ko)×\(regionWord.ko)", "\(Self.capitalised(groupWord.en)) × \(regionWord.en)")
  }
  public var changes: String { say("변경 사항", "Changes") }
  public var quality: String { say("데이터 품질", "Data quality") }
  public var programs: String { say(itemWord.ko, Self.capitalised(itemWord.enPlural)) }
  /// The sum of the groups a chart or table does not show one by one; never "기타", which
  /// is a category of its own.
  public var other: String { say("그 외", "Others") }
  public var total: String { say("합계", "Total") }

  // MARK: - Headline figures
  public var programCount: String { say("전체 행사", Self.capitalised(itemWord.enPlural)) }
  public var startingThisWeek: String { say("이번 주 시작", "Starting this week") }
  public var freeShare: String { say("무료 비율", "Free share") }
  public var added: String { say("추가", "Added") }
  public var removed: String { say("삭제", "Removed") }
  public var changed: String { say("변경", "Changed") }
  public var change: String { say("증감", "Change") }
  public var takenAt: String { say("수집 시각", "Taken at") }
  public var source: String { say("출처", "Source") }
  /// The one source line (page 1, every document's close, the workbook, the site).
  public var attribution: String { sourceLine }

  // MARK: - Table columns
  public var key: String { say("항목", "Key") }
  public var category: String { say(groupWord.ko, Self.capitalised(groupWord.en)) }
  public var district: String { say(regionWord.ko, Self.capitalised(regionWord.en)) }
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
  /// The catalog's own name for a title (`공연/행사명`, `행사명`).
  public var title: String { say(profile.fieldLabel(.title) ?? ProgramColumn.title.koreanTitle, "Title") }

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
  public var noQualityFlags: String { say("품질 표시가 붙은 행사가 없습니다.", "No \(itemWord.en) carries a quality flag.") }
  public var examples: String { say("예시", "Examples") }
  public var explanation: String { say("설명", "Description") }
  public var emptyValue: String { say("(없음)", "(empty)") }
  public var period: String { say("기간", "Dates") }
  public var chartCountSuffix: String { say("건수", itemWord.enPlural) }

  /// `1,234건` / `1,234 programs`.
  public func countText(_ n: Int) -> String {
    say("\(n.formatted())건", n == 1 ? "1 \(itemWord.en)" : "\(n.formatted()) \(itemWord.enPlural)")
  }

  /// `행사 1,234건` / `1,234 programs`: a snapshot's size.
  public func programCountText(_ n: Int) -> String {
    say("행사 \(n.formatted())건", n == 1 ? "1 \(itemWord.en)" : "\(n.formatted()) \(itemWord.enPlural)")
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
      "상위 \(shown)개 \(groupWord.ko)만 열로 보이고 나머지 \(total - shown)개 \(with(groupWord.ko, .topic)) '\(other)' 열에 합산했습니다. 전체 표는 엑셀 통합 문서의 「\(categoryByDistrict)」 시트에 있습니다.",
      "The \(shown) largest \(groupWord.enPlural) have their own column; the other \(total - shown) are summed under '\(other)'. The full table is the workbook's \(groupWord.en) × \(regionWord.en) sheet."
    )
  }

  /// The name of a `programs.csv` column for people (`fee_text` → `이용요금`), from the one
  /// column table (``ProgramColumn``) in the catalog's words, so every format titles a
  /// column alike. A catalog whose comparison names fields by their meaning (`feeText`,
  /// ``FileWords/labelsChangedFields``) names those by its download's labels.
  public func fieldName(_ column: String) -> String {
    if words.files.labelsChangedFields, let label = profile.changedFieldLabel(column, english: language == .en) {
      return label
    }
    guard let c = ProgramColumn(name: column) else { return column }
    return columnTitle(c)
  }

  /// A column's title in the catalog's words: its region and group, its fields' labels.
  public func columnTitle(_ c: ProgramColumn) -> String {
    if let own = words.columnTitles[c] { return say(own) }
    switch c {
    case .category: return category
    case .district: return district
    case .title: return title
    case .feeText: return fee
    default: return say(c.koreanTitle, c.englishTitle)
    }
  }

  /// A quality flag's name for people (`district_missing` → `자치구 없음`), from the
  /// catalog's flag table (``CatalogWords/flags``); the code itself stays in CSV and JSON.
  public func flagName(_ code: String) -> String {
    guard let text = flagWords(code) else { return code }
    return say(text.koreanName, text.englishName)
  }

  /// What a quality flag means, in a sentence (data-quality section and sheet).
  public func flagExplanation(_ code: String) -> String {
    guard let text = flagWords(code) else { return code }
    return say(text.koreanExplanation, text.englishExplanation)
  }

  private func flagWords(_ code: String) -> FlagWords? { words.flags.first { $0.code == code } }

  /// A changed field's value for people: quality flags by their names (`district_missing;
  /// coords_missing` → `자치구 없음, 좌표 없음`), any other value as the catalog has it. CSV and
  /// JSON keep the codes.
  public func fieldValue(_ column: String, _ value: String) -> String {
    guard column == ProgramColumn.qualityFlags.name, !value.isEmpty else { return value }
    return flagNames(QualityFlags(joinedNames: value))
  }

  /// The names of a program's flags, in output order, for one cell or line: `자치구 없음, 좌표 없음`.
  public func flagNames(_ flags: QualityFlags) -> String {
    flags.names.map(flagName).joined(separator: ", ")
  }
}
