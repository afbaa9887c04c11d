import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// 자료 정보, the last sheet: which snapshots the figures come from and what each counts.
extension XLSXReportBuilder {
  /// 자료 정보, the last sheet: which snapshots the figures come from (ids, times, source
  /// files, counts), the ISO week, what each figure counts, and the source.
  func writeDataInfo(_ sheet: XLSXSheet, _ report: ReportData) throws {
    let f = formats
    try sheet.setColumn(0, width: 22)
    try sheet.setColumn(1, width: 60)
    try sheet.setUpPrinting(XLSXPrintSetUp(landscape: false, widths: [22, 60], title: printTitle))
    try sheet.string(0, 0, labels.wbDataInfo, f.title)
    var r = 2
    try sheet.string(r, 0, labels.isoWeek, f.label)
    try sheet.string(r, 1, "\(report.week) — \(labels.officialPeriod(report.week))")
    r += 2
    try sheet.string(r, 0, labels.snapshot, f.section)
    r = try writeSnapshotBlock(sheet, r + 1, report.snapshot) + 1
    try sheet.string(r, 0, labels.comparedTo, f.section)
    r += 1
    if let compare = report.compareTo {
      r = try writeSnapshotBlock(sheet, r, compare)
    } else {
      try sheet.string(r, 0, labels.noComparison)
      r += 1
    }
    r += 1
    try sheet.string(r, 0, labels.wbDefinitions, f.section)
    // The notes wrap across both columns: one long line ran past the page, and the page
    // fitted to its width printed at 6.3 pt.
    let notes = [
      labels.weekDefinitions, labels.wholeCatalogNote,
      labels.wbProgramsNotPrinted(labels.programs, count: report.programCount), "", labels.attribution,
    ]
    for (i, note) in notes.enumerated() where !note.isEmpty {
      try sheet.wrappedNote(r + 1 + i, 0...1, note, width: 82, f.wrappedNote)
    }
  }

  func writeSnapshotBlock(_ sheet: XLSXSheet, _ row: Int, _ info: SnapshotInfo) throws -> Int {
    var r = row
    try sheet.string(r, 0, labels.xlsxSnapshotID, formats.label)
    try sheet.string(r, 1, "#\(info.id)")
    r += 1
    try sheet.string(r, 0, labels.takenAt, formats.label)
    try sheet.datetime(r, 1, Self.koreaDateTime(info.takenAt), formats.dateTime)
    r += 1
    try sheet.string(r, 0, labels.source, formats.label)
    try sheet.string(r, 1, fit(info.source))
    r += 1
    try sheet.string(r, 0, labels.programCount, formats.label)
    try sheet.number(r, 1, Double(info.programCount), formats.integer)
    return r + 1
  }

  func snapshotLine(_ info: SnapshotInfo) -> String {
    let t = Self.koreaDateTime(info.takenAt)
    let time = String(format: "%04d-%02d-%02d %02d:%02d KST", t.year, t.month, t.day, t.hour, t.min)
    return "#\(info.id) · \(time) · \(info.source) · \(labels.programCount) \(info.programCount.formatted())"
  }
}
