import RaonAnalytics
import RaonCore

/// 자료 정보's lines on the renames and mergers of regions the comparison found in the
/// national data (``DocumentOptions/lineage``): what was found, from which day, how many of
/// the old names' events went on under the new ones, and the `raon.toml` lines that keep
/// it or refuse it. Names are the data's own, never adapted.
extension ReportLabels {
  /// The items 자료 정보's list ends with (none without a note).
  func lineageItems(_ note: LineageNote?) -> [ListItem] {
    guard let note, !note.findings.isEmpty else { return [] }
    return [
      ListItem(
        [
          .strong(say("자료에서 찾은 지역 변경", "Region changes found in the data")), .text(": "),
          .text(
            say(
              "raon.toml과 Raon의 지역 이력에 아직 없는 지역 이름 변경·통합을 자료에서 찾았습니다. 이 보고서는 이전 이름의 행사가 새 이름으로 이어진 것으로 보고 비교했습니다.",
              "renames and mergers of regions that neither raon.toml nor Raon's region lineage knows yet were found in the data; this report compares the events of the old names as going on under the new ones.")),
        ],
        children: note.findings.map { [.text(lineageLine($0))] }),
      ListItem(
        [.strong(say("계속 적용하려면 raon.toml에 추가", "To keep this, add to raon.toml"))]
          + [.text(say(" (이미 있는 renames·merges에는 그 항목으로):", " (as entries of its renames and merges, if it has them):"))],
        children: note.keep.map { [.code($0)] }),
      ListItem(
        [.strong(say("적용하지 않으려면", "To refuse it")), .text(":")],
        children: note.undo.map { [.code($0)] }
          + [[.text(say("모두 찾지 않으려면 ", "or, to look for none, ")), .code("detect_lineage = false")]]),
    ]
  }

  /// `충청북도 → 충북특별자치도: 시·도 이름 변경(2025. 4. 7.(월)부터, 제공기관 11곳, 행사 291건 중 283건이 새 이름으로 이어짐)`.
  func lineageLine(_ finding: LineageFinding) -> String {
    let names = finding.old.joined(separator: ", ") + " → " + finding.new
    let day = OfficialDates.day(finding.day, language)
    let share = say(
      "행사 \(finding.expected.formatted())건 중 \(finding.matched.formatted())건이 새 이름으로 이어짐",
      "\(finding.matched.formatted()) of \(finding.expected.formatted()) events go on under the new name")
    switch finding.kind {
    case .provinceRenamed:
      return names
        + say(
          ": 시·도 이름 변경(\(day)부터, 제공기관 \(finding.providers.formatted())곳, \(share))",
          ": 시·도 renamed (from \(day); \(finding.providers.formatted()) providers; \(share))")
    case .renamed:
      return names + say(": 제공기관 이름 변경(\(day)부터, \(share))", ": provider renamed (from \(day); \(share))")
    case .merged:
      return names + say(": 통합(\(day)부터, \(share))", ": merged (from \(day); \(share))")
    }
  }
}
