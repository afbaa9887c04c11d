import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// The week's lists: the full list of this week's running programs, the 운영 현황 sheet
/// (running and current by district and category, the tables 요약's charts read), and one
/// full sheet per list of the week (이번 주 시작, 이번 주 종료, 신규 등록, 새로 추가, 삭제된 행사)
/// with filters.
extension XLSXReportBuilder {
  /// The week's sheets, started (added to the workbook, in order) before the programs.
  struct WeekSheets {
    let running: XLSXTableStream
    let onNow: XLSXSheet
    let starting, ending, registered, added, removed: XLSXTableStream
    let trend: XLSXSheet
  }

  /// Where 운영 현황's four tables are, for the charts on 요약: each table's data rows
  /// (key in `col`, count in `col + 1`), largest first.
  struct OnNowTables {
    struct Table {
      var col: Int
      var firstRow: Int
      var rows: [BandCount]
    }
    var runningByDistrict, runningByCategory, currentByDistrict, currentByCategory: Table
  }

  /// Adds the week's sheets; ``fillWeekSheets(_:_:)`` fills them once the figures are known.
  func addWeekSheets() throws -> WeekSheets {
    func list(_ name: String, districtFirst: Bool = false) throws -> XLSXTableStream {
      // In memory (not streamed): the lists are filled after the programs sheet. On paper:
      // 자치구 … 이용요금, the title, place and fee wrapped in their columns; the id, the
      // link and the 2026 fields after the print area.
      let (title, district) = districtFirst ? (1, 0) : (0, 2)
      let stream = XLSXTableStream(
        workbook: workbook, baseName: name, headers: weekListHeaders(districtFirst: districtFirst),
        headerFormat: formats.header, rowLimit: rowLimit, constantMemory: false,
        printTitle: labels.reportTitle, repeatColumns: districtFirst ? 0...1 : 0...0,
        printColumns: 0...(Self.listIDColumn - 1),
        widthCaps: [14, 14, 14, 20, nil, nil, 18, nil, 24, 24, 24].enumerated().map { $0.offset == district ? 10 : $0.element },
        wrapWidths: [title: Self.listTitleWidth, 3: 26, 6: 18], wrapFormat: formats.wrapped, cellFormat: formats.top)
      try stream.start()
      return stream
    }
    let running = try list(labels.runningThisWeek, districtFirst: true)
    let onNow = try workbook.addSheet(labels.whatIsOn)
    let starting = try list(labels.startingThisWeek), ending = try list(labels.endingThisWeek)
    let registered = try list(labels.newlyRegistered), added = try list(labels.newlyAdded)
    let removed = try list(labels.xlsxRemovedList)
    return WeekSheets(
      running: running, onNow: onNow, starting: starting, ending: ending, registered: registered,
      added: added, removed: removed, trend: try workbook.addSheet(labels.trendTitle))
  }

  /// The lists' id column, first after the print area.
  static let listIDColumn = 7
  /// The lists' title column width (Excel character units).
  static let listTitleWidth = 40.0

  /// The lists' columns; the running list leads with the district it is grouped by.
  func weekListHeaders(districtFirst: Bool) -> [String] {
    let rest = [
      labels.place, labels.fieldName("start_date"), labels.fieldName("end_date"), labels.fee, labels.id,
      labels.fieldName("portal_url"),
      // The 2026 layout's fields, after the link: on screen, not on paper.
      labels.fieldName("event_time"), labels.fieldName("inquiry"),
    ]
    return districtFirst
      ? [labels.district, labels.title, labels.category] + rest
      : [labels.title, labels.category, labels.district] + rest
  }

  func fillWeekSheets(_ sheets: WeekSheets, _ report: ReportData, trend: Chart) throws -> OnNowTables {
    try fillList(sheets.running, WeekLists.byDistrict(report.lists.running, unplaced: labels.profile.regions.unknown).flatMap(\.programs), districtFirst: true)
    let tables = try fillOnNow(sheets.onNow, report.weekView)
    try XLSXTrendSheet.add(
      to: workbook, points: report.trend, chart: trend, labels: labels, formats: formats, into: sheets.trend)
    try fillList(sheets.starting, report.lists.starting)
    try fillList(sheets.ending, report.lists.ending)
    try fillList(sheets.registered, report.lists.registered)
    if let changes = report.changes {
      // On paper 변경 사항 prints the changed fields only; the removed programs print here
      // (in the changes' order), the added ones on 새로 추가.
      try fillList(sheets.removed, changes.removed)
      // 새로 추가 prints only what 신규 등록 does not: in a weekly history nearly everything
      // added was registered this week, and the same rows printed twice. Those first, then
      // the ones 신규 등록 prints; not hidden (LibreOffice prints hidden sheets).
      let registered = Set(report.lists.registered.map(\.id))
      let (own, shared) = Self.apart(report.addedInReportOrder) { registered.contains($0.id) }
      if own.isEmpty {
        try fillList(sheets.added, shared)
        for sheet in sheets.added.sheets { try sheet.printNothing(right: Self.listIDColumn + 4) }
      } else {
        if !shared.isEmpty { sheets.added.printedRows = 1...own.count }
        try fillList(sheets.added, own + shared)
      }
    } else {
      // Said on screen; on paper 변경 사항 says it once.
      for list in [sheets.added, sheets.removed] {
        try list.nextRow()
        try list.text(0, labels.noComparison)
        try list.finish()
        for sheet in list.sheets { try sheet.printNothing(right: Self.listIDColumn + 4) }
      }
    }
    return tables
  }

  /// `programs` in their order, those `isShared` holds for after the others.
  static func apart(_ programs: [Program], _ isShared: (Program) -> Bool) -> (own: [Program], shared: [Program]) {
    var own: [Program] = [], shared: [Program] = []
    for p in programs { if isShared(p) { shared.append(p) } else { own.append(p) } }
    return (own, shared)
  }

  /// One program per row; the title is the portal link when there is one. On paper:
  /// up to the fee (the id and link stay on screen), long text wrapped. A free
  /// program with no fee text shows 무료.
  func fillList(_ stream: XLSXTableStream, _ programs: [Program], districtFirst: Bool = false) throws {
    let (title, category, district) = districtFirst ? (1, 2, 0) : (0, 1, 2)
    if programs.isEmpty {
      // A row saying so: a printed page with only the header said nothing.
      try stream.nextRow()
      try stream.text(0, labels.xlsxNoPrograms)
    }
    for p in programs {
      try stream.nextRow()
      try stream.text(title, p.title)
      try stream.text(category, labels.named(p.category))
      try stream.text(district, labels.named(p.district))
      try stream.text(3, p.place)
      try stream.date(4, p.startDate, formats.date)
      try stream.date(5, p.endDate, formats.date)
      try stream.text(6, ProgramTable.feeText(p, labels))
      try stream.text(7, p.id)
      try stream.link(8, p.portalURL, portal: true)
      try stream.text(9, p.eventTime)
      try stream.text(10, p.inquiry)
    }
    try stream.finish()
  }



  /// What runs, then at 0 every key with programs on but none running (after the ranked
  /// ones, so 요약's charts over the top rows are as before): the PDF's table lists them too.
  static func withZeros(_ running: [BandCount], of current: [BandCount]) -> [BandCount] {
    let listed = Set(running.map(\.key))
    let zeros = current.filter { !listed.contains($0.key) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
    return running + zeros.map { var zero = $0; zero.count = 0; return zero }
  }

  /// Rows a table of 운영 현황 may have to stand beside the others (a portrait page holds
  /// about 45 at the scale four tables print at).
  static let onNowSideBySideRows = 40

  /// Four ranked tables side by side — running and current, by district and by
  /// category — each titled with the set it counts; 요약's charts read them.
  func fillOnNow(_ sheet: XLSXSheet, _ v: WeekView) throws -> OnNowTables {
    let f = formats
    // The definitions are on 자료 정보 (one long line here ran past the printed page).
    try sheet.string(0, 0, labels.whatIsOn, f.title)
    let top = 3
    let blocks: [(String, String, [BandCount], Int)] = [
      ("\(labels.onNow) — \(labels.byDistrict)", labels.district, Self.withZeros(v.runningByDistrict, of: v.currentByDistrict), v.running),
      ("\(labels.onNow) — \(labels.byCategory)", labels.category, Self.withZeros(v.runningByCategory, of: v.currentByCategory), v.running),
      ("\(labels.currentSection) — \(labels.byDistrict)", labels.district, v.currentByDistrict, v.current),
      ("\(labels.currentSection) — \(labels.byCategory)", labels.category, v.currentByCategory, v.current),
    ]
    // Side by side while each fits a page; one under another when one runs longer (the
    // national data's providers): beside a long table the short ones printed on pages of
    // their own, two-thirds empty.
    let stacked = blocks.contains { $0.2.count > Self.onNowSideBySideRows }
    var tables: [OnNowTables.Table] = []
    var widths = [Double](repeating: 0, count: stacked ? 3 : 16)
    var blockTop = top
    for (i, (title, key, rows, total)) in blocks.enumerated() {
      let c = stacked ? 0 : i * 4
      let t = stacked ? blockTop : top
      try sheet.string(t, c, title, f.section)
      try sheet.string(t + 1, c, key, f.header)
      try sheet.string(t + 1, c + 1, labels.count, f.header)
      try sheet.string(t + 1, c + 2, labels.share, f.header)
      var width = max(DisplayWidth.of(key), 8)
      for (r, row) in rows.enumerated() {
        try sheet.string(t + 2 + r, c, labels.named(row.key))
        try sheet.number(t + 2 + r, c + 1, Double(row.count), f.integer)
        try sheet.number(t + 2 + r, c + 2, Percentage.rounded(Self.share(row.count, of: total)), f.percent)
        width = max(width, DisplayWidth.of(labels.named(row.key)))
      }
      let last = t + 2 + rows.count
      try sheet.string(last, c, labels.total, f.total)
      try sheet.number(last, c + 1, Double(total), f.totalInteger)
      widths[c] = max(widths[c], Double(Self.clampWidth(width)))
      widths[c + 1] = 9
      widths[c + 2] = 9
      if !stacked { widths[c + 3] = 3 }
      tables.append(OnNowTables.Table(col: c, firstRow: t + 2, rows: rows))
      blockTop = last + 3
    }
    for (c, width) in widths.enumerated() { try sheet.setColumn(c, width: width) }
    // Side by side: one page wide, their titles and headers on every page.
    try sheet.setUpPrinting(
      XLSXPrintSetUp(
        landscape: XLSXPrintSetUp.isWide(widths), widths: widths, repeatRows: stacked ? nil : top...(top + 1),
        title: labels.reportTitle))
    return OnNowTables(
      runningByDistrict: tables[0], runningByCategory: tables[1], currentByDistrict: tables[2],
      currentByCategory: tables[3])
  }
}
