import Foundation
import RaonAnalytics
import RaonCore

/// The changes an official acts on, said the same in a report's attachment and in a
/// comparison's own document (`raon diff`), and that document.
struct ChangesComposer {
  let L: ReportLabels

  init(labels: ReportLabels) { L = labels }

  /// `changes.md`'s document: the two collections by their time and size, then the report's
  /// own changes section; the snapshots' ids and sources only in the closing 자료 정보 (a
  /// printed page names no file, number or id elsewhere). D is the newer snapshot's day.
  static func comparison(_ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, options: DocumentOptions)
    -> ComparisonReport
  {
    let L = options.labels
    let composer = ChangesComposer(labels: L)
    let kinds = ChangeKinds.classify(diff, day: to.koreaDay)
    let front: [Block] =
      [
        .list([
          ListItem([.strong(L.from), .text(": "), .text(composer.collectionLine(from, options.language))]),
          ListItem([.strong(L.to), .text(": "), .text(composer.collectionLine(to, options.language))]),
        ])
      ]
      + composer.weekChanges(diff, kinds, limit: options.comparisonListLimit, addedShownIn: nil)
    let language = options.language
    let about = Section(
      title: L.dataInformation,
      blocks: [
        .list([
          ListItem([.strong(L.from), .text(": ")] + composer.snapshotLine(from)),
          ListItem([.strong(L.to), .text(": ")] + composer.snapshotLine(to)),
        ] + L.lineageItems(options.lineage))
      ])
    let days = "\(OfficialDates.day(from.koreaDay, language)) → \(OfficialDates.day(to.koreaDay, language))"
    let document = Document(
      language: language, title: "\(L.changes) — \(days)", printTitle: L.changes,
      period: OfficialDates.instant(from.takenAt, language) + " → " + OfficialDates.instant(to.takenAt, language),
      front: front, sections: [about], closing: L.attribution, charts: [])
    return ComparisonReport(diff: diff, from: from, to: to, kinds: kinds, document: document)
  }

  /// Withdrawn programs and material changes first, then what ended; what was added is
  /// listed in its own attachment (named here, `addedShownIn`), minor changes only counted.
  func weekChanges(
    _ diff: SnapshotDiff, _ kinds: ChangeKinds, limit: Int, addedShownIn: Int?
  ) -> [Block] {
    if diff.isEmpty { return [.paragraph([.text(L.noChanges)])] }
    var blocks: [Block] = [
      .paragraph([
        .text(
          L.changeCountsLine(
            added: diff.added.count, ended: kinds.removedEnded, withdrawn: kinds.removedWithdrawn,
            material: kinds.changedMaterial, minor: kinds.changedMinor))
      ])
    ]
    let cap = max(1, limit)
    let withdrawn = Set(kinds.removedWithdrawnIds)
    let material = Set(kinds.changedMaterialIds)
    func list(_ title: String, _ programs: [Program]) {
      guard !programs.isEmpty else { return }
      blocks.append(.heading([.text("\(title) (\(L.countText(programs.count)))")]))
      var items = programs.prefix(cap).map { ListItem(programItem($0)) }
      if programs.count > cap { items.append(ListItem([.text(L.more(programs.count - cap))])) }
      blocks.append(.list(items))
    }
    list(L.withdrawnTitle, WeekLists.ordered(diff.removed.filter { withdrawn.contains($0.id) }))
    let changed = diff.changed.filter { material.contains($0.id) }
    if !changed.isEmpty {
      blocks.append(.heading([.text("\(L.materialTitle) (\(L.countText(changed.count)))")]))
      var items: [ListItem] = changed.prefix(cap).map { c in
        let fields = c.fields.filter { !ChangeKinds.isMinor($0, of: c) }.map { f -> [Inline] in
          [.text(L.fieldName(f.field)), .text(": ")] + quoted(f.old, field: f.field) + [.text(" → ")]
            + quoted(f.new, field: f.field)
        }
        return ListItem(programItem(c.new), children: fields)
      }
      if changed.count > cap { items.append(ListItem([.text(L.more(changed.count - cap))])) }
      blocks.append(.list(items))
    }
    list(L.endedTitle, WeekLists.ordered(diff.removed.filter { !withdrawn.contains($0.id) }))
    if let addedShownIn, !diff.added.isEmpty {
      blocks.append(.paragraph([.text(L.addedShownAbove(diff.added.count, attachment: addedShownIn))]))
    } else {
      list(L.added, WeekLists.ordered(diff.added))
    }
    if kinds.changedMinor > 0 { blocks.append(.paragraph([.text(L.minorChangesNote)])) }
    return blocks
  }

  /// `title (linked to the portal) — 분류 · 자치구 · 2024. 9. 10. ~ 9. 20.` (the id stays in
  /// CSV, JSON and the workbook).
  func programItem(_ p: Program) -> [Inline] {
    var details = [p.category, p.district].filter { !$0.isEmpty }.map(L.named)
    if p.startDate != nil || p.endDate != nil { details.append(ProgramTable.period(p, L.language)) }
    var item: [Inline] = [.portalLink(p.title, url: p.portalURL)]
    for (i, detail) in details.enumerated() { item += [.text(i == 0 ? " — " : " · "), .text(detail)] }
    return item
  }

  /// A value as it reads in a change: 「세종체임버홀」, or (없음). Amounts and day counts get
  /// thousands separators; a long value is cut (on one line) at 80 display columns.
  func quoted(_ text: String, field: String) -> [Inline] {
    let trimmed = L.fieldValue(field, text.trimmingCharacters(in: .whitespacesAndNewlines))
    guard !trimmed.isEmpty else { return [.text(L.emptyValue)] }
    if ["fee_min_krw", "fee_max_krw", "duration_days"].contains(field), let n = Int(trimmed) {
      return [.text("「" + n.formatted() + "」")]
    }
    let shown = DisplayWidth.truncate(trimmed, to: 80)
    // A value that reads as the empty value's own words stays unquoted, as that does.
    return shown == L.emptyValue ? [.text(shown)] : [.text("「"), .text(shown), .text("」")]
  }

  /// `2024. 9. 16.(월) 09:00 수집 · 행사 4,998건`: a collection as a reader names it.
  func collectionLine(_ s: SnapshotInfo, _ language: ReportLanguage) -> String {
    "\(L.dataAsOf(OfficialDates.instant(s.takenAt, language))) · \(L.programCountText(s.programCount))"
  }

  /// `#3 · 수집 시각 2024-09-16 09:00 KST · 출처 FILE · 프로그램 4,998건`.
  func snapshotLine(_ s: SnapshotInfo) -> [Inline] {
    [
      .text("#\(s.id)"), .text(" · "), .text("\(L.takenAt) \(ReportTime.korea(s.takenAt))"), .text(" · "),
      .text("\(L.source) "), .text(s.source), .text(" · "), .text(L.programCountText(s.programCount)),
    ]
  }
}
