/// The words a district pack adds: its screen-only parts are references, not attachments,
/// so page 1 names only what the printed document holds; its list of what runs marks what
/// starts and ends, so paper lists each program once.
extension ReportLabels {
  /// `참고 1. 전체 카탈로그 통계`: a part shown on screen and in the workbook, not printed.
  public func reference(_ n: Int, _ title: String) -> String {
    say("참고 \(n). \(title)", "Reference \(n). \(title)")
  }

  /// The column of a pack's list of what runs that marks what starts and ends this week.
  public var weekMarkHeader: String { say("이번 주", "This week") }

  /// `시작`, `종료`, `시작·종료`, or nothing for a program that runs on.
  public func weekMark(starts: Bool, ends: Bool) -> String {
    switch (starts, ends) {
    case (true, true): return say("시작·종료", "starts, ends")
    case (true, false): return say("시작", "starts")
    case (false, true): return say("종료", "ends")
    case (false, false): return ""
    }
  }

  /// Printed in place of a pack's lists of what starts and ends (each program of which
  /// its printed list of what runs marks).
  public func packStartingEndingPrintNote(starting: Int, ending: Int) -> String {
    say(
      "이번 주 시작 행사 \(starting.formatted())건과 종료 행사 \(ending.formatted())건은 모두 이번 주 운영 행사로, 붙임 1의 「이번 주」 열에 「시작」·「종료」로 표시했습니다. 날짜순 목록은 화면용 보고서와 엑셀 파일에 있습니다.",
      "The \(starting.formatted()) \(itemWord.enPlural) starting and \(ending.formatted()) ending this week all run this week: attachment 1 marks them in its “This week” column. The lists by date are in the on-screen report and the workbook.")
  }
}
