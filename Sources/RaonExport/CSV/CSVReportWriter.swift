import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// Writes the report's tables as CSV files in `csv/` under the output directory.
///
/// Files and their exact headers (the first column's values are data keys, not labels):
///
/// | File | Header |
/// |---|---|
/// | `programs.csv` | `Program.csvColumns` (`id,title,…,quality_flags`) |
/// | `by_category.csv`, `by_district.csv` | `key,count,free,paid,median_duration_days,median_fee_min_krw,share` |
/// | `by_fee.csv`, `by_duration.csv` | `key,count,label` |
/// | `category_by_district.csv` | `category,<district>…,total`; one row per category, then a `total` row |
/// | `changes.csv` | `change,id,title,field,old_value,new_value` |
///
/// - `share` is a fraction (0…1). Medians and shares are integers without `.0` when
///   integral, else the shortest decimal; an absent median is an empty cell.
/// - `label` in the band files is the band's name in the report language (`2~7일`).
///   It is there because Excel turns the bare keys `2-7` and `8-30` into dates; the
///   label column stays readable.
/// - `changes.csv` has one row per added and per removed program (`field` and the
///   values empty) and one row per changed field of a changed program (`title` is the
///   new title); only the header when the report has no comparison.
/// - With ``ExportOptions/csvHeaders`` `.ko` the header rows are Korean
///   (``CSVHeaderRows``: `ID,공연/행사명,…`, `분류,건수,무료,…`), column for column; the
///   values stay as they are (keys, flag codes, `true`/`false`, `added`).
/// - Files are named in the catalog's words, and a catalog may fix its own Korean headers
///   (``CatalogWords/files``: the national data's `events.csv`, `by_region.csv`,
///   `by_provider.csv` …) and add its own tables (``ReportExtra``: `by_fee_kind.csv`).
/// - Encoding per ``ExportOptions/csvEncoding``; rows end in CRLF. See ``CSVFileWriter``
///   for quoting and the formula-injection guard.
public struct CSVReportWriter: ReportWriter {
  /// Header of `by_category.csv` and `by_district.csv`.
  public static let groupColumns = [
    "key", "count", "free", "paid", "median_duration_days", "median_fee_min_krw", "share",
    // Appended with the three-valued free flag: free + paid + unknown = count.
    "unknown",
  ]
  /// Header of `by_fee.csv` and `by_duration.csv`.
  public static let bandColumns = ["key", "count", "label"]
  /// Header of `changes.csv`.
  /// `changes.csv`: the contract's six columns, then what an official acts on: the
  /// program's category, district and dates, the `kind` (added rows: empty; removed:
  /// `ended`/`withdrawn`; changed: `material`/`minor` for the program as a whole) and, on a
  /// changed field's row, whether that field's change is `minor` (`true`/`false`).
  public static let changeColumns = [
    "change", "id", "title", "field", "old_value", "new_value", "category", "district",
    "start_date", "end_date", "kind", "minor",
  ]

  public init() {}

  /// The report's tables (`programs.csv` is its sink's: ``CSVProgramsFile``),
  /// `csv/changes.csv` for a comparison, or `trend.csv`.
  public func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    switch document {
    case .report(let report): return try writeTables(report.figures, into: directory, options: options)
    case .comparison(let c): return try writeComparison(c.diff, to: c.to, into: directory, options: options)
    case .trend(let t): return try writeTrend(t, into: directory, options: options)
    }
  }

  func writeTables(_ report: ReportData, into directory: URL, options: ExportOptions) throws -> ExportResult {
    let csvDirectory = directory.appendingPathComponent("csv", isDirectory: true)
    try TextOutput.makeDirectory(csvDirectory)
    var result = ExportResult()
    let labels = options.labels
    let headers = CSVHeaderRows(options)
    let t = report.tables
    try writeFile(headers.groupFile, in: csvDirectory, options, &result) { w in
      try Self.writeGroups(t.byCategory, to: &w, header: headers.byGroup)
    }
    try writeFile(headers.regionFile, in: csvDirectory, options, &result) { w in
      try Self.writeGroups(t.byDistrict, to: &w, header: headers.byRegion)
    }
    try writeFile("by_fee.csv", in: csvDirectory, options, &result) { w in
      try Self.writeBands(t.byFee, label: labels.feeBand(_:), to: &w, header: headers.byFee)
    }
    try writeFile("by_duration.csv", in: csvDirectory, options, &result) { w in
      try Self.writeBands(t.byDuration, label: labels.durationBand(_:), to: &w, header: headers.byDuration)
    }
    // The catalog's own tables (the national data's 요금정보 and 입장연령), named in Korean.
    let korean = ReportLabels(.ko, profile: options.profile)
    for table in report.extras {
      try writeFile(table.extra.csvFile, in: csvDirectory, options, &result) { w in
        try Self.writeBands(
          table.rows, label: { korean.say(table.extra.name(of: $0)) }, to: &w, header: table.extra.csvHeader)
      }
    }
    try writeFile(headers.crossFile, in: csvDirectory, options, &result) { w in
      try Self.writeCross(t.categoryByDistrict, to: &w, headers: headers)
    }
    try writeFile("changes.csv", in: csvDirectory, options, &result) { w in
      try Self.writeChanges(report.changes, day: report.snapshot.koreaDay, to: &w, headers: headers, options: options)
    }
    return result
  }

  /// Writes `csv/changes.csv` alone (D = `to`'s day).
  func writeComparison(_ diff: SnapshotDiff, to: SnapshotInfo, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    let csvDirectory = directory.appendingPathComponent("csv", isDirectory: true)
    try TextOutput.makeDirectory(csvDirectory)
    var result = ExportResult()
    try writeFile("changes.csv", in: csvDirectory, options, &result) { w in
      try Self.writeChanges(diff, day: to.koreaDay, to: &w, headers: CSVHeaderRows(options), options: options)
    }
    return result
  }

  // MARK: - Files

  private func writeFile(
    _ name: String, in directory: URL, _ options: ExportOptions, _ result: inout ExportResult,
    body: (inout CSVFileWriter) throws -> Void
  ) throws {
    var writer = try CSVFileWriter(
      url: directory.appendingPathComponent(name), encoding: options.csvEncoding)
    try body(&writer)
    try Self.finish(&writer, name: name, into: &result)
  }

  /// Closes a file and says what was written (and what CP949 could not hold).
  fileprivate static func finish(_ writer: inout CSVFileWriter, name: String, into result: inout ExportResult) throws {
    let replaced = try writer.finish()
    let path = "csv/" + name
    result.files.append(path)
    if replaced > 0 {
      result.warnings.append(
        replaced == 1
          ? "\(path): 1 character CP949 cannot hold was written as '?'"
          : "\(path): \(replaced) characters CP949 cannot hold were written as '?'")
    }
  }

  static func writeRows(_ chunk: [Program], columns: [ProgramColumn], to w: inout CSVFileWriter) throws {
    for p in chunk {
      for column in columns { write(column.cell(of: p), to: &w) }
      try w.endRow()
    }
  }

  /// One cell of `programs.csv`, typed by its column (``ProgramColumn``): text goes through
  /// the formula guard, numbers, days and the free flag are written as they are.
  @inline(__always)
  static func write(_ cell: ProgramColumn.Cell, to w: inout CSVFileWriter) {
    switch cell {
    case .text(let s), .link(let s): w.text(s)
    case .freeFlag(let free): w.raw(free.map { $0 ? "true" : "false" } ?? "")
    case .integer(let v): w.int(v)
    case .day(let d): w.day(d)
    case .coordinate(let v): w.raw(v.map(Program.formatCoordinate) ?? "")
    case .flags(let f): w.text(f.isEmpty ? "" : f.joinedNames)
    }
  }

  static func writeGroups(
    _ groups: [GroupStats], to w: inout CSVFileWriter, header: [String] = groupColumns
  ) throws {
    try w.textRow(header)
    for g in groups {
      w.text(g.key)
      w.int(g.count)
      w.int(g.free)
      w.int(g.paid)
      w.decimal(g.medianDurationDays)
      w.decimal(g.medianFeeMinKrw)
      w.decimal(g.share)
      w.int(g.unknown)
      try w.endRow()
    }
  }

  static func writeBands(
    _ bands: [BandCount], label: (String) -> String, to w: inout CSVFileWriter,
    header: [String] = bandColumns
  ) throws {
    try w.textRow(header)
    for b in bands {
      w.text(b.key)
      w.int(b.count)
      w.text(label(b.key))
      try w.endRow()
    }
  }

  static func writeCross(_ table: CrossTable, to w: inout CSVFileWriter, headers: CSVHeaderRows) throws {
    try w.textRow([headers.crossFirst] + table.columnKeys + [headers.crossTotal])
    for (r, key) in table.rowKeys.enumerated() {
      w.text(key)
      let row = r < table.counts.count ? table.counts[r] : []
      for c in table.columnKeys.indices { w.int(c < row.count ? row[c] : 0) }
      w.int(row.reduce(0, +))
      try w.endRow()
    }
    w.text("total")
    let columnTotals = table.columnKeys.indices.map { c in
      table.counts.reduce(0) { $0 + (c < $1.count ? $1[c] : 0) }
    }
    for total in columnTotals { w.int(total) }
    w.int(columnTotals.reduce(0, +))
    try w.endRow()
  }

  /// - Parameters:
  ///   - day: The newer snapshot's day (Korea), which tells ended from withdrawn.
  ///   - headers: The header row, and whether 항목 holds the field's label (its code last).
  static func writeChanges(
    _ diff: SnapshotDiff?, day: CalendarDay, to w: inout CSVFileWriter, headers: CSVHeaderRows,
    options: ExportOptions
  ) throws {
    try w.textRow(headers.changes)
    guard let diff else { return }
    let labelled = headers.labelsFields
    let labels = ReportLabels(.ko, profile: options.profile)
    func row(_ change: String, _ p: Program, field: String = "", old: String = "", new: String = "", kind: String, minor: String = "") throws {
      let shown = labelled && !field.isEmpty ? labels.fieldName(field) : field
      for text in [change, p.id, p.title, shown, old, new, p.category, p.district] { w.text(text) }
      w.day(p.startDate)
      w.day(p.endDate)
      w.raw(kind)
      w.raw(minor)
      if labelled { w.raw(field) }
      try w.endRow()
    }
    for p in diff.added { try row("added", p, kind: "") }
    for p in diff.removed {
      try row("removed", p, kind: ChangeKinds.removal(of: p, day: day).rawValue)
    }
    for c in diff.changed {
      let kind = ChangeKinds.kind(of: c).rawValue
      // A change the analytics could not attribute to a field still gets its row.
      if c.fields.isEmpty { try row("changed", c.new, kind: kind) }
      for f in c.fields {
        try row(
          "changed", c.new, field: f.field, old: f.old, new: f.new, kind: kind,
          minor: ChangeKinds.isMinor(f, of: c) ? "true" : "false")
      }
    }
  }

}

/// `csv/programs.csv` written chunk by chunk as the programs are read (a million are never
/// held), by the registry's csv entry (``FormatEntry/withPrograms``).
public final class CSVProgramsFile {
  private var writer: CSVFileWriter
  /// The catalog's programs file (`programs.csv`, the national data's `events.csv`) and
  /// its columns (``CSVHeaderRows``).
  private let name: String
  private let columns: [ProgramColumn]

  /// Creates the programs' file under `directory`'s `csv/` and writes its header.
  public init(into directory: URL, options: ExportOptions) throws {
    let csvDirectory = directory.appendingPathComponent("csv", isDirectory: true)
    try TextOutput.makeDirectory(csvDirectory)
    let headers = CSVHeaderRows(options)
    name = headers.programsFile
    columns = headers.programs.map(\.column)
    writer = try CSVFileWriter(url: csvDirectory.appendingPathComponent(name), encoding: options.csvEncoding)
    try writer.textRow(headers.programs.map(\.header))
  }

  /// The next programs, in the report's order.
  public func append(_ chunk: [Program]) throws {
    try CSVReportWriter.writeRows(chunk, columns: columns, to: &writer)
  }

  /// Closes the file.
  public func finish() throws -> ExportResult {
    var result = ExportResult()
    try CSVReportWriter.finish(&writer, name: name, into: &result)
    return result
  }
}
