// MARK: - Words of the weekly trend (raon trend, and the report's trend section)

extension ReportLabels {
  /// The trend's heading and the XLSX sheet's name.
  public var trendTitle: String { trend }
  /// The title of `trend.md` and `trend.xlsx`.
  public var trendDocumentTitle: String {
    say("\(words.catalog.ko) 주간 추이", "\(words.catalog.en) — weekly trend")
  }
  public var trendWeekTitle: String { week }
  public var trendCollectedOn: String { say("수집일", "Collected") }
  public var trendWeekColumn: String { say("주(ISO)", "ISO week") }
  public var trendSnapshotColumn: String { snapshot }
  public var trendTakenAtColumn: String { takenAt }
  public var trendProgramCount: String { programCount }
  public var trendCurrent: String { say("운영 중·예정", "Current") }
  public var trendRunning: String { say("그 주 운영", "Running") }
  public var trendStarting: String { say("시작", "Starting") }
  public var trendRegistered: String { say("신규 등록", "Registered") }
  public var trendAdded: String { added }
  public var trendRemoved: String { removed }
  /// The chart panel of the large series (programs, current, running).
  public var trendSizePanel: String {
    say("운영 중·예정과 그 주 운영 (건수)", "Current and running (\(itemWord.enPlural))")
  }
  /// The chart panel of the weekly flows (starting, registered, added, removed).
  public var trendFlowPanel: String {
    say("주간 흐름 (시작·신규 등록·추가·삭제)", "Weekly flows (starting, registered, added, removed)")
  }
  /// Said when the trend has no point.
  public var trendEmpty: String {
    say("추이를 그릴 수집 자료가 없습니다.", "No collection to show a trend of.")
  }

  /// One line under the trend's heading: what a point is. The terms themselves are defined
  /// once, in 자료 정보's glossary (issue 34: one definition per term), not again here.
  public var trendDefinition: String {
    say(
      "주마다 그 주(월~일, 한국 시간)에 마지막으로 수집된 자료 하나를 그 주 기준으로 셉니다. "
        + "추가·삭제는 바로 앞 주 수집과 비교한 행사 수이며, 용어는 자료 정보에 있습니다.",
      "One point per ISO week: the latest collection within it (Korea time), counted for its own "
        + "week; added and removed are against the week before. The terms are defined under Data information.")
  }

  /// `2024. 9. 9. ~ 9. 15. … 2025. 1. 27. ~ 2. 2. · 12주` — the range a trend covers.
  public func trendRange(from first: String, to last: String, weeks: Int) -> String {
    say("\(first) … \(last) · \(weeks)주", "\(first) … \(last) · \(weeks) weeks")
  }

  /// The chart's title: `추이 (2024-W37 … 2025-W05)`.
  public func trendChartTitle(from first: String, to last: String) -> String {
    "\(trendTitle) (\(first) … \(last))"
  }

  /// The column headers of the trend table, in the CSV's order after `iso_week`,
  /// `snapshot_id`, `taken_at`.
  public var trendFigureHeaders: [String] {
    [
      trendProgramCount, trendCurrent, trendRunning, trendStarting, trendRegistered, trendAdded,
      trendRemoved,
    ]
  }
}
