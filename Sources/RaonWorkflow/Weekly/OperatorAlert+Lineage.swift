import RaonAnalytics
import RaonCore
import RaonDocument

extension OperatorAlert {
  /// Renames or mergers of regions the week's comparison found in the data and counted as
  /// the same regions: the operator should make them permanent (or refuse them) in
  /// `raon.toml` before next Monday, when the finding would otherwise be made again.
  static func lineage(_ note: LineageNote, week: ISOWeek, runID: Int64, language: ReportLanguage) -> AlertText {
    let ko = language == .ko
    let labels = ReportLabels(language)
    let between = (
      plain(OfficialDates.day(note.between.old, language)), plain(OfficialDates.day(note.between.new, language))
    )
    let subject =
      ko
      ? "\(prefix(week, language)) 지역 이름 변경·통합 \(note.findings.count)건을 자료에서 찾음 — raon.toml 확인 필요"
      : "\(prefix(week, language)) \(note.findings.count) region rename\(note.findings.count == 1 ? "" : "s") or merger\(note.findings.count == 1 ? "" : "s") found in the data — check raon.toml"
    return AlertText(
      subject: subject,
      blocks: [
        .paragraph(
          ko
            ? "주간 실행(실행 \(runID))의 비교에서 \(between.0) 자료와 \(between.1) 자료 사이에 raon.toml과 Raon의 지역 이력에 없는 이름 변경·통합을 찾아, 같은 지역으로 보고 집계했습니다. 보고서의 자료 정보에도 적었습니다."
            : "The run's comparison (run \(runID)) found renames or mergers of regions between the data of \(between.0) and \(between.1) that neither raon.toml nor Raon's region lineage knows, and counted them as the same regions. The report's data information says so too."),
        .list(note.findings.map { plain(labels.lineageLine($0)) }),
        .paragraph(ko ? "그대로 두려면 raon.toml에 다음을 넣습니다:" : "To keep this, add to raon.toml:"),
        .code(note.keep),
        .paragraph(ko ? "같은 지역이 아니라면 대신 다음을 넣습니다:" : "If they are not the same regions, add this instead:"),
        .code(note.undo),
        .paragraph(
          ko
            ? "넣지 않으면 다음 실행도 자료에서 다시 찾아 같은 방식으로 집계합니다 (detect_lineage = false 이면 찾지 않음)."
            : "Without either, the next run finds it again in the data and counts it the same way (detect_lineage = false looks for none)."),
      ])
  }
}
