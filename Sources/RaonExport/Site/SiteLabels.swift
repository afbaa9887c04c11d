import RaonAnalytics
import RaonDocument

/// The words of `raon site`'s own pages (the week pages are the report's).
extension ReportLabels {
  public var siteTitle: String { say("\(words.catalog.ko) 기록", "\(words.catalog.en) — archive") }
  public var siteHome: String { say("처음", "Home") }
  public var siteSearch: String { say("검색", "Search") }
  public var siteWeeks: String { say("주간 보고서", "Weekly reports") }
  public var siteDistricts: String { say(regionWord.ko, Self.capitalised(regionWord.enPlural)) }
  public var siteLatestWeek: String { say("최근 주", "Latest week") }
  public var siteFullReport: String { say("보고서 전체 보기", "The full report") }
  public var sitePrevious: String { say("← 이전 주", "← Previous week") }
  public var siteNext: String { say("다음 주 →", "Next week →") }
  public var siteCity: String { say(words.wholeArea) }
  public var siteDownloads: String { say("내려받기", "Downloads") }
  public var siteWeekPrograms: String { say("이 주 목록의 행사", "Events in this week's catalog") }
  public var siteDistrictWeeks: String { say("주별 보고서", "Week by week") }
  public var siteDistrictPrograms: String { say("최근 주의 행사", "Events of the latest week") }
  public var siteDistrictAllPrograms: String {
    say("지난 행사까지 모두 찾기", "Find every event, past ones too")
  }
  public var siteProgram: String { say("행사", "Event") }
  public var siteProgramFields: String { say("현재 정보", "Current details") }
  public var siteProgramLastFields: String { say("마지막 정보", "Last details") }
  public var siteLastSeen: String { say("목록에서 마지막으로 본 주", "Last listed in the week of") }
  public var siteProgramStory: String { say("변경 이력", "History") }
  public var siteFirstSeen: String { say("처음 본 주", "First seen") }
  /// The day a program was registered, in the catalog's words (the national data has no
  /// registration day: its row's 데이터기준일자 stands there).
  public var siteRegistered: String { say(words.registeredOn) }
  public var siteState: String { say("상태", "State") }
  public var sitePortal: String { say("포털에서 보기", "On the portal") }
  public var siteAppeared: String { say("등장", "Appeared") }
  public var siteChanged: String { changed }
  public var siteLeft: String { say("사라짐", "Left") }
  public var siteField: String { field }
  public var siteBefore: String { say("이전", "Before") }
  public var siteAfter: String { say("이후", "After") }
  public var siteOrganizer: String { say("주최", "Organiser") }
  public var siteCategory: String { category }
  public var siteDistrict: String { district }
  public var siteQuery: String { say("제목·장소·주최·ID", "Title, place, organiser or id") }
  public var siteAny: String { say("전체", "All") }
  public var siteSearchHint: String {
    say("검색어를 입력하거나 조건을 고르세요.", "Type a word or choose a filter.")
  }
  public var siteCountTemplate: String { say("{n}건", "{n} found") }
  /// `12건`, `12 events`.
  public func siteCount(_ n: Int) -> String { say("\(n.formatted())건", n == 1 ? "1 event" : "\(n.formatted()) events") }
  public var siteShownTemplate: String { say("처음 {k}건만 보입니다.", "The first {k} are shown.") }
  public var siteNoScript: String {
    say("검색에는 JavaScript가 필요합니다.", "Search needs JavaScript.")
  }
  public var siteTrendByDistrict: String { say("\(regionWord.ko)별 추이", "Trend by \(regionWord.en)") }

  /// `운영 중`, `예정`, `종료`, `철회`.
  public func siteState(_ state: ProgramHistory.State) -> String {
    switch state {
    case .running: return say("운영 중", "running")
    case .upcoming: return say("예정", "upcoming")
    case .ended: return say("종료", "ended")
    case .withdrawn: return say("철회", "withdrawn")
    }
  }

  /// How a program left: `종료 — 종료일이 지나 빠짐` / `철회 — 종료일 전에 빠짐`.
  public func siteRemoval(_ removal: ChangeKinds.Removal) -> String {
    switch removal {
    case .ended: return say("종료 — 종료일이 지나 목록에서 빠짐", "ended — left after its end day")
    case .withdrawn: return say("철회 — 종료일 전에 목록에서 빠짐", "withdrawn — left before its end day")
    }
  }
}
