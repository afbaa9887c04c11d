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
  /// its printed list of what runs marks); the lists by date are named only where the
  /// reader has them (the workbook, when it goes with the pages; the screen shows them).
  public func packStartingEndingPrintNote(starting: Int, ending: Int, workbook: Bool) -> String {
    // Said at any count: a kind with none is left out ("0건", "The 1 programs" never).
    let kinds = [(starting, "시작", "starting"), (ending, "종료", "ending")].filter { $0.0 > 0 }
    let ko =
      "이번 주 " + kinds.map { "\($0.1) 행사 \($0.0.formatted())건" }.joined(separator: "과 ")
      + (starting + ending == 1 ? "은 이번 주 운영 행사로, " : "은 모두 이번 주 운영 행사로, ")
      + "붙임 1의 「이번 주」 열에 " + kinds.map { "「\($0.1)」" }.joined(separator: "·")
      + (kinds.last?.1 == "시작" ? "으로" : "로") + " 표시했습니다."
    let total = starting + ending
    let subject = kinds.enumerated().map { k, kind in
      k == 0 ? CountPhrases.englishCount(kind.0, itemWord) + " \(kind.2)" : "\(kind.0.formatted()) \(kind.2)"
    }.joined(separator: " and ")
    let en =
      "The \(subject) this week \(total == 1 ? "runs" : "all run") this week: attachment 1 marks \(total == 1 ? "it" : "them") in its “This week” column."
    guard workbook else { return say(ko, en) }
    return say(
      ko + " 날짜순 목록은 엑셀 파일 「\(startingThisWeek)」·「\(endingThisWeek)」 시트에 있습니다.",
      en + " The lists by date are the workbook's “\(startingThisWeek)” and “\(endingThisWeek)” sheets.")
  }
}
