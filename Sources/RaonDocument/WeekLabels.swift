import Foundation
import RaonAnalytics
import RaonCore

/// The words of the week-centred report: one definition per figure, the same in every
/// format.
extension ReportLabels {
  // MARK: - Figures (DESIGN.md, "The week")
  public var currentPrograms: String { say("운영 중·예정", "Current (running or upcoming)") }
  public var runningThisWeek: String { say("이번 주 운영", "Running this week") }
  public var endingThisWeek: String { say("이번 주 종료", "Ending this week") }
  public var registeredThisWeek: String { say("신규 등록", "Newly registered") }
  public var freeShareRunning: String { freeShareOfRunning }
  public var previousWeek: String { lastWeek }
  public var newlyAdded: String { say("새로 추가", "Newly added") }
  public var newlyRegistered: String { registeredThisWeek }

  /// What each figure counts, in one line each (shown under the headline).
  public var weekDefinitions: String {
    say(
      "운영 중·예정 = 종료일이 없거나 이번 주 월요일 이후 · 이번 주 운영 = 시작일 ≤ 일요일이고 종료일 ≥ 월요일 · 시작/종료 = 시작일/종료일이 이번 주 · 신규 등록 = \(registeredMeaning)",
      "Current = no end day, or ending on or after this Monday · Running = starts by Sunday and ends on or after Monday · Starting/ending = start/end day within the week · Registered = \(registeredMeaning)")
  }

  /// The one definition of 신규 등록, which every glossary, note and trend line quotes.
  public var registeredMeaning: String {
    say(
      "\(with(words.registeredBy.ko, .subject)) 수집일을 포함한 최근 7일 안인 행사",
      "\(words.registeredBy.en) within the 7 days up to the collection day")
  }

  // MARK: - Sections
  public var whatIsOn: String { say("운영 현황", "What is on") }
  public var onNow: String { runningThisWeek }
  public var currentSection: String { say("운영 중·예정 행사", "Current \(itemWord.enPlural) (running or upcoming)") }
  public var trend: String { say("추이", "Trend") }
  public var wholeCatalogNote: String {
    say(
      "아래 표와 그림은 이번 수집 자료의 모든 행사를 셉니다. 이미 끝난 행사도 포함되므로 ‘이번 주 운영’으로 읽지 마십시오.",
      "The tables and charts below count every \(itemWord.en) of the snapshot, ended ones included: do not read them as what is on now.")
  }

  // MARK: - Lists
  public var place: String { say("장소", "Place") }
  public var fee: String { say(profile.fieldLabel(.feeText) ?? ProgramColumn.feeText.koreanTitle, "Fee") }
  public var noneThisWeek: String { say("없음", "None") }

  // MARK: - Trend
  public var isoWeek: String { say("ISO 주", "ISO week") }
  public var snapshotId: String { snapshot }

  // MARK: - Changes
  // The document's words (DocumentLabels' change attachment uses the same).
  public var removedEnded: String { endedTitle }
  public var removedWithdrawn: String { say("철회", "Withdrawn") }
  public var changedMaterial: String { materialTitle }
  public var changedMinor: String { say("경미한 변경", "Minor change") }
  public var changeKindTitle: String { say("세부 구분", "Kind") }
  public var ended: String { say("종료", "ended") }
  public var withdrawn: String { say("철회", "withdrawn") }
  public var material: String { say("내용", "material") }
  public var minor: String { say("경미", "minor") }
  public func removal(_ kind: ChangeKinds.Removal) -> String { kind == .ended ? ended : withdrawn }
  public func change(_ kind: ChangeKinds.Change) -> String { kind == .material ? material : minor }

  // MARK: - Workbook

  /// The report's week in official form (``OfficialDates``): `2025. 8. 18.(월) ~ 8. 24.(일)`.
  public func officialPeriod(_ week: ISOWeek) -> String { OfficialDates.period(week.start, week.end, language) }
  /// One day in official form: `2025. 8. 18.(월)`, `Mon 18 Aug 2025`.
  public func officialDay(_ day: CalendarDay) -> String { OfficialDates.day(day, language) }
  /// The data's 기준 시각: `2025. 8. 18.(월) 09:00 수집 기준`.
  public func collectedAt(_ date: Date) -> String { dataAsOf(OfficialDates.instant(date, language)) }
  /// A ratio over nothing (0 of 0): a dash, never 0.0%.
  public var notApplicable: String { "–" }
  /// Chart title on 요약: `자치구별 이번 주 운영`.
  public func wbChartTitle(_ dimension: String, _ set: String) -> String {
    say("\(dimension) \(set)", "\(set) \(dimension.lowercased())")
  }
  /// Under a chart that shows the first N rows only: the rest is named, never drawn as a bar
  /// (`unit`: ``districtUnit``, ``categoryUnit``); the unknown region is named apart,
  /// never counted as one more region (as ``CountPhrases/chartRest``).
  public func wbRestOf(_ rest: [BandCount], unit: String, sheet: String) -> String? {
    guard let named = CountPhrases.restParts(rest, unit: unit, unknownKey: unknownKey(forUnit: unit), self) else {
      return nil
    }
    return say(
      "\(with(named, .topic)) 차트에서 뺐습니다 (전체 표: '\(sheet)' 시트).",
      "\(named.prefix(1).uppercased() + named.dropFirst()): left out of the chart (full table: sheet '\(sheet)').")
  }

  /// The key of the value that is no group of a chart's unit: the unknown region for
  /// regions (``CatalogWords/unknownRegion``), none for groups.
  public func unknownKey(forUnit unit: String) -> String? { unit == districtUnit ? words.unknownRegion : nil }

  /// A pack's 요약 where the city's has its chart by district: what the pack covers, as a
  /// report says it (not why a chart is missing).
  public func wbOneDistrictNoChart(_ district: String) -> String {
    say(
      "이 자료는 \(district)의 행사만 다룹니다.",
      "This report covers \(district) only.")
  }
  /// 요약 when every program counted is of one category: a sentence, not a one-bar chart.
  public func wbOneCategoryNoChart(_ category: String, count: Int) -> String {
    say(
      "모두 \(category) \(groupWord.ko)(\(count.formatted())건)라 \(groupWord.ko)별 차트는 싣지 않습니다.",
      "All \(count.formatted()) are in one \(groupWord.en), \(category): no chart by \(groupWord.en).")
  }
  /// 요약 when neither running nor current programs exist: a sentence, not an empty box.
  public var wbNothingToChart: String {
    say(
      "이번 주 운영 중이거나 예정된 행사가 없어 차트를 싣지 않습니다.",
      "No \(itemWord.en) is running or upcoming this week, so there is no chart.")
  }
  /// 요약 when nothing runs this week and the charts show the current programs instead.
  public var wbChartsShowCurrent: String {
    say(
      "이번 주 운영 중인 행사가 없어 차트는 운영 중·예정 행사를 셉니다.",
      "No \(itemWord.en) runs this week: the charts count the current (running or upcoming) \(itemWord.enPlural).")
  }
  /// The last sheet: snapshot ids, files, definitions (kept off page 1).
  public var wbDataInfo: String { dataInformation }
  public var wbDefinitions: String { say("정의", "Definitions") }
  /// 자료 정보: why printing the workbook leaves the programs sheet out.
  public func wbProgramsNotPrinted(_ sheet: String, count: Int) -> String {
    say(
      "'\(sheet)' 시트(전체 \(count.formatted())건)는 화면에서 필터해 보는 표로, 인쇄되지 않습니다. 이번 주 행사는 '이번 주 운영' 등 목록 시트에 모두 인쇄됩니다.",
      "The '\(sheet)' sheet (\(count.formatted()) \(itemWord.enPlural)) is for filtering on screen and does not print. This week's \(itemWord.enPlural) print in full on the list sheets.")
  }
}
