import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// 변경 사항: one row per added or removed program and per changed field, in a report's
/// workbook and alone in `changes.xlsx`.
extension XLSXReportBuilder {
  func writeComparison(_ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo) throws {
    try setProperties(subject: "\(labels.changes) #\(from.id) → #\(to.id)", created: to.takenAt)
    let stream = changesStream { [self] sheet in
      try sheet.string(0, 0, labels.changes, formats.title)
      // On paper each collection by its time and size; its snapshot number and file, which
      // a script or a colleague tracing the figures wants, right of the print area (A:I).
      for (row, label, info) in [(1, labels.xlsxFrom, from), (2, labels.xlsxTo, to)] {
        try sheet.string(row, 0, label, formats.label)
        try sheet.string(row, 1, "\(labels.collectedAt(info.takenAt)) · \(labels.programCountText(info.programCount))")
        try sheet.string(row, Self.changesOffPrintColumn, snapshotLine(info))
      }
      try sheet.string(3, 0, labels.xlsxChangeCounts, formats.label)
      // Split as the report splits them (D = the newer snapshot's day).
      let kinds = ChangeKinds.classify(diff, day: to.koreaDay)
      try sheet.string(
        3, 1,
        [
          (labels.added, diff.added.count), (labels.removedEnded, kinds.removedEnded),
          (labels.removedWithdrawn, kinds.removedWithdrawn), (labels.changedMaterial, kinds.changedMaterial),
          (labels.changedMinor, kinds.changedMinor),
        ].map { "\($0.0) \($0.1.formatted())" }.joined(separator: " · "))
      return 5
    }
    try stream.start()
    try fillChangesTable(stream, diff, day: to.koreaDay)
    try workbook.setPageHeaders(
      XLSXPrintSetUp.header(
        title: labels.changes,
        period: "\(labels.officialDay(from.koreaDay)) → \(labels.officialDay(to.koreaDay))"))
  }

  /// The first column right of 변경 사항's print area (A:I; A:J for the national data).
  static let changesOffPrintColumn = 12

  func changesStream(preamble: ((XLSXSheet) throws -> Int)?) -> XLSXTableStream {
    // On paper: what changed, how, in which program; the program's dates and its id
    // after the print area (on screen and in the CSV), so the page keeps legible text.
    // The national data's events have no id a person knows: their start date, part of
    // what tells one from another, prints, and provider names (경상북도 안동시,
    // 문화체육관광부 국립국악원) wrap rather than run into the 시·도 column.
    let national = labels.words.layout.changesPrintStartDate
    let headers = [
      labels.xlsxChangeKind, labels.title, labels.field, labels.oldValue, labels.newValue,
      labels.category, labels.district, labels.changeKindTitle, labels.minor,
      labels.fieldName("start_date"), labels.fieldName("end_date"), labels.id,
    ]
    return XLSXTableStream(
      workbook: workbook, baseName: labels.changes, headers: headers, headerFormat: formats.header,
      rowLimit: rowLimit, constantMemory: streamLargeSheets, preamble: preamble,
      printTitle: printTitle, repeatColumns: 0...1, printColumns: national ? 0...9 : 0...8,
      // The national print area holds one more column at the smallest scale (A:J within
      // 139 character units, XLSXPrintSetUp.fitScale): narrower values, wrapped names.
      widthCaps: national ? [nil, nil, 12, nil, nil, nil, nil, 10, nil, 13] : [nil, nil, 14, nil, nil, 12],
      wrapWidths: national ? [1: 20, 3: 15, 4: 15, 5: 14, 6: 14] : [1: 26, 3: 22, 4: 22],
      wrapFormat: formats.wrapped, cellFormat: formats.top)
  }

  /// Rows of the changes table: one per added or removed program and per changed field;
  /// one saying there is no comparison.
  static func changeRows(_ diff: SnapshotDiff?) -> Int {
    guard let diff else { return 1 }
    return diff.added.count + diff.removed.count + diff.changed.reduce(0) { $0 + $1.fields.count }
  }

  /// Writes the changes into a started stream (its sheet is already in the workbook): one
  /// row per added or removed program and per changed field, each with the program's
  /// category, district and dates, its kind (ended/withdrawn, material/minor) and, per
  /// field, whether that change is minor. The 경미 column is hidden when no field's change
  /// is minor: it would print empty.
  ///
  /// `fieldsOnPaper` (a report's workbook): the sheet prints only the changed fields' rows,
  /// the last ones; an added or removed program's row leaves 항목, 이전 값 and 새 값 empty,
  /// and those programs print in full on 새로 추가 and 삭제된 행사.
  func fillChangesTable(
    _ stream: XLSXTableStream, _ diff: SnapshotDiff?, day: CalendarDay, fieldsOnPaper: Bool = false
  ) throws {
    func program(_ change: String, _ p: Program, kind: String) throws {
      try stream.nextRow()
      try stream.text(0, change)
      try stream.text(1, p.title)
      try stream.text(5, labels.named(p.category))
      try stream.text(6, labels.named(p.district))
      try stream.text(7, kind)
      try stream.date(9, p.startDate, formats.date)
      try stream.date(10, p.endDate, formats.date)
      try stream.text(11, p.id)
    }
    var anyMinor = false
    if let diff {
      let programRows = diff.added.count + diff.removed.count
      if fieldsOnPaper && programRows < Self.changeRows(diff) {
        stream.printedRows = (programRows + 1)...Self.changeRows(diff)
      }
      for p in diff.added { try program(labels.added, p, kind: "") }
      for p in diff.removed {
        try program(labels.removed, p, kind: labels.removal(ChangeKinds.removal(of: p, day: day)))
      }
      for c in diff.changed {
        let kind = labels.change(ChangeKinds.kind(of: c))
        for field in c.fields {
          try program(labels.changed, c.new, kind: kind)
          try stream.text(2, labels.fieldName(field.field))
          try stream.text(3, labels.fieldValue(field.field, field.old))
          try stream.text(4, labels.fieldValue(field.field, field.new))
          let minor = ChangeKinds.isMinor(field, of: c)
          anyMinor = anyMinor || minor
          try stream.text(8, minor ? labels.minor : "")
        }
      }
    } else {
      try stream.nextRow()
      try stream.text(0, labels.noComparison)
    }
    if !anyMinor { stream.hiddenColumns = [8] }
    try stream.finish()
    // Only added and removed programs: 새로 추가 and 삭제된 행사 print them all.
    if fieldsOnPaper, let diff, Self.changeRows(diff) > 0, diff.changed.isEmpty, stream.sheets.count == 1 {
      try stream.sheets[0].printNothing(right: Self.changesOffPrintColumn + 1)
    }
    absorb(stream, table: labels.changes)
  }
}
