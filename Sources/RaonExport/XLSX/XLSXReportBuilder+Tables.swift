import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// The whole catalog's tables, one sheet each (분류별, 자치구별, 요금대별, 기간별, 분류×자치구,
/// 데이터 품질), each with its header frozen, a filter and a print set-up.
extension XLSXReportBuilder {
  /// Returns the total row.
  @discardableResult
  func fillGroupSheet(_ sheet: XLSXSheet, keyTitle: String, _ groups: [GroupStats], total: Int) throws -> Int {
    let f = formats
    // 유무료 미상 only when some program's free flag is unknown (catalogs before 2024).
    let showUnknown = groups.contains { $0.unknown > 0 }
    let headers = [keyTitle, labels.count, labels.share, labels.free, labels.paid, labels.medianDurationDays, labels.medianFeeMinKrw]
      + (showUnknown ? [labels.freeUnknown] : [])
    try writeHeader(sheet, headers)
    // The figures' headers wrap between words (최저요금 / 중앙값(원)): the columns stay as
    // narrow as their longest word, and the national data's long provider names still
    // leave every column on one page width.
    var widths = headers.enumerated().map { $0.offset == 0 ? DisplayWidth.of($0.element) : Self.longestWordWidth($0.element) }
    var r = 1
    for g in groups {
      try sheet.string(r, 0, fit(labels.named(g.key)))
      widths[0] = max(widths[0], DisplayWidth.of(labels.named(g.key)))
      try sheet.number(r, 1, Double(g.count), f.integer)
      try sheet.number(r, 2, Percentage.rounded(g.share), f.percent)
      try sheet.number(r, 3, Double(g.free), f.integer)
      try sheet.number(r, 4, Double(g.paid), f.integer)
      if let m = g.medianDurationDays { try sheet.number(r, 5, m, f.decimal) }
      if let m = g.medianFeeMinKrw { try sheet.number(r, 6, m, f.integer) }
      if showUnknown { try sheet.number(r, 7, Double(g.unknown), f.integer) }
      r += 1
    }
    try sheet.string(r, 0, labels.total, f.total)
    try sheet.number(r, 1, Double(total), f.totalInteger)
    try sheet.number(r, 2, total > 0 ? 1 : 0, f.totalPercent)
    try sheet.number(r, 3, Double(groups.reduce(0) { $0 + $1.free }), f.totalInteger)
    try sheet.number(r, 4, Double(groups.reduce(0) { $0 + $1.paid }), f.totalInteger)
    for col in 5...6 { try sheet.string(r, col, "", f.total) }
    if showUnknown { try sheet.number(r, 7, Double(groups.reduce(0) { $0 + $1.unknown }), f.totalInteger) }
    try finishTable(sheet, widths: widths, lastRow: r - 1, lastCol: headers.count - 1)
    let headerLines = headers.indices.map { XLSXFormats.lines(headers[$0], width: Self.tableWidth(widths[$0], col: $0)) }
    try sheet.setRow(0, height: XLSXFormats.rowHeight(lines: headerLines.max() ?? 1))
    // A table longer than a page (the national data's providers) prints without its chart
    // under it: the chart's page repeated the header over columns with nothing in them.
    if r + 1 > Self.landscapePageRows {
      try sheet.setPrintArea(rows: 0...r, columns: 0...(headers.count - 1))
    }
    return r
  }

  func fillBandSheet(_ sheet: XLSXSheet, keyTitle: String, _ bands: [BandCount], total: Int, label: (String) -> String) throws {
    let headers = [keyTitle, labels.count, labels.share]
    try writeHeader(sheet, headers)
    var widths = headers.map { DisplayWidth.of($0) }
    var r = 1
    for band in bands {
      let text = label(band.key)
      try sheet.string(r, 0, fit(text))
      widths[0] = max(widths[0], DisplayWidth.of(text))
      try sheet.number(r, 1, Double(band.count), formats.integer)
      try sheet.number(r, 2, Percentage.rounded(Self.share(band.count, of: total)), formats.percent)
      r += 1
    }
    try sheet.string(r, 0, labels.total, formats.total)
    try sheet.number(r, 1, Double(bands.reduce(0) { $0 + $1.count }), formats.totalInteger)
    try sheet.number(r, 2, total > 0 ? 1 : 0, formats.totalPercent)
    try finishTable(sheet, widths: widths, lastRow: r - 1, lastCol: headers.count - 1)
  }

  func fillCrossSheet(_ sheet: XLSXSheet, _ table: CrossTable) throws {
    let f = formats
    // District names turned to read upwards in the header, whole (stacked one syllable a
    // line they read 종/로/구), so the 26 count columns stay narrow and the printed page
    // keeps a readable font.
    try sheet.string(0, 0, labels.xlsxCategoryDistrictCorner, f.header)
    let columnTitles = (table.columnKeys + [labels.total]).map { labels.named($0) }
    for (c, title) in columnTitles.enumerated() {
      try sheet.string(0, c + 1, title, f.verticalHeader)
    }
    try sheet.setRow(0, height: Self.turnedHeaderHeight(columnTitles))
    var firstWidth = DisplayWidth.of(labels.xlsxCategoryDistrictCorner)
    var largest = 0
    for (i, key) in table.rowKeys.enumerated() {
      let r = i + 1
      try sheet.string(r, 0, fit(labels.named(key)), f.label)
      firstWidth = max(firstWidth, DisplayWidth.of(labels.named(key)))
      let row = i < table.counts.count ? table.counts[i] : []
      for c in table.columnKeys.indices {
        let value = c < row.count ? row[c] : 0
        largest = max(largest, value)
        try sheet.number(r, c + 1, Double(value), f.integer)
      }
      try sheet.number(r, table.columnKeys.count + 1, Double(row.reduce(0, +)), f.totalInteger)
    }
    let totalRow = table.rowKeys.count + 1
    try sheet.string(totalRow, 0, labels.total, f.total)
    let columnTotals = table.columnTotals
    for c in table.columnKeys.indices {
      try sheet.number(totalRow, c + 1, Double(columnTotals[c]), f.totalInteger)
      largest = max(largest, columnTotals[c])
    }
    let grandTotal = columnTotals.reduce(0, +)
    try sheet.number(totalRow, table.columnKeys.count + 1, Double(grandTotal), f.totalInteger)
    if !table.rowKeys.isEmpty && !table.columnKeys.isEmpty {
      try sheet.zeroToMaxColorScale(firstRow: 1, firstCol: 1, lastRow: table.rowKeys.count, lastCol: table.columnKeys.count)
    }
    var widths = [Double(Self.clampWidth(firstWidth))]
    // Room for the largest count with its separator, and a little padding.
    let countWidth = Double(max(Self.groupedWidth(largest) + 2, 5))
    widths += Array(repeating: countWidth, count: table.columnKeys.count)
    widths.append(Double(max(Self.groupedWidth(grandTotal) + 2, 7)))
    for (c, w) in widths.enumerated() { try sheet.setColumn(c, width: w) }
    sheet.freezePanes(row: 1, col: 1)
    try sheet.setUpPrinting(
      XLSXPrintSetUp(
        landscape: XLSXPrintSetUp.isWide(widths), widths: widths, repeatRows: 0...0, repeatColumns: 0...0,
        title: printTitle))
  }

  /// The flags with their names, explanations, counts and codes, then up to three example
  /// programs per flag (title linked to the portal), as the Markdown lists them.
  func fillQualitySheet(
    _ sheet: XLSXSheet, _ quality: [QualityCount], total: Int, examples qualityExamples: QualityExamples
  ) throws {
    let headers = [labels.flag, labels.xlsxDescription, labels.count, labels.share, labels.xlsxFlagCode]
    try writeHeader(sheet, headers)
    var widths = headers.map { DisplayWidth.of($0) }
    if quality.isEmpty { try sheet.string(1, 0, labels.xlsxNoFlags) }
    for (i, q) in quality.enumerated() {
      let name = labels.flagName(q.key), explanation = labels.flagExplanation(q.key)
      try sheet.string(i + 1, 0, fit(name))
      try sheet.string(i + 1, 1, fit(explanation))
      try sheet.number(i + 1, 2, Double(q.count), formats.integer)
      try sheet.number(i + 1, 3, Percentage.rounded(Self.share(q.count, of: total)), formats.percent)
      try sheet.string(i + 1, 4, fit(q.key), formats.code)
      widths[0] = max(widths[0], DisplayWidth.of(name))
      widths[1] = max(widths[1], DisplayWidth.of(explanation))
      widths[4] = max(widths[4], DisplayWidth.of(q.key))
    }

    // The examples below the table: flag, title (a link to the portal), district, and
    // the id right of the printed columns (on screen, not on paper).
    var r = quality.count + 2
    let withExamples = quality.filter { !qualityExamples[$0.key].isEmpty }
    if !withExamples.isEmpty {
      try sheet.string(r, 0, labels.xlsxQualityExamplesTitle(qualityExamples.perFlag), formats.section)
      r += 1
      for (col, title) in [labels.flag, labels.title, labels.district].enumerated() {
        try sheet.string(r, col, title, formats.header)
      }
      try sheet.string(r, headers.count, labels.id, formats.header)
      r += 1
      for q in withExamples {
        let name = labels.flagName(q.key)
        for p in qualityExamples[q.key] {
          try sheet.string(r, 0, fit(name))
          let title = fit(p.title)
          if !XLSXTableStream.isLinkable(p.portalURL) || !PortalLink.isProgramPage(p.portalURL)
            || sheet.link(r, 1, p.portalURL, text: title) != LXW_NO_ERROR {
            try sheet.string(r, 1, title)
          }
          try sheet.string(r, 2, fit(labels.named(p.district)))
          try sheet.string(r, headers.count, fit(p.id))
          widths[1] = max(widths[1], min(DisplayWidth.of(p.title), 60))
          r += 1
        }
      }
    }
    // The code (the CSV's and JSON's key) stays on screen, right of the print area: paper
    // names a flag in words.
    try finishTable(
      sheet, widths: widths, lastRow: max(quality.count, 1), lastCol: headers.count - 1,
      printColumns: 0...(headers.count - 2))
    try sheet.setColumn(headers.count, width: 14)
  }

  /// Points of a header row whose titles are turned to read upwards: the longest title's
  /// display width (Korean counting two) at about 5.5 points a unit in 11-point type, and
  /// room for the cell's padding; never under three units.
  static func turnedHeaderHeight(_ titles: [String]) -> Double {
    let longest = titles.map { DisplayWidth.of($0) }.max() ?? 0
    return Double(max(longest, 3)) * 5.5 + 12
  }

  /// The display width of the longest word of `text` (Korean counting two): the narrowest
  /// a wrapped header's column can be without breaking a word.
  static func longestWordWidth(_ text: String) -> Int {
    text.split(whereSeparator: \.isWhitespace).map { DisplayWidth.of(String($0)) }.max() ?? 0
  }

  /// A table's column width (Excel character units) for text `w` wide: number columns at
  /// least room for "1,234,567", and a little padding.
  static func tableWidth(_ w: Int, col: Int) -> Double {
    Double(clampWidth(max(w, col == 0 ? 0 : 10)))
  }

  func writeHeader(_ sheet: XLSXSheet, _ headers: [String]) throws {
    for (col, title) in headers.enumerated() {
      try sheet.string(0, col, title, formats.header)
    }
  }

  /// `printColumns`: the print area's columns (what lies right of them stays on screen).
  /// The header row repeats on every printed page only when the table runs past a page:
  /// repeated above a chart that starts a page of its own it headed empty columns.
  func finishTable(
    _ sheet: XLSXSheet, widths: [Int], lastRow: Int, lastCol: Int, printColumns: ClosedRange<Int>? = nil
  ) throws {
    var printed: [Double] = []
    for (col, w) in widths.enumerated() {
      // Number columns: at least room for "1,234,567" and the header.
      let width = Self.tableWidth(w, col: col)
      try sheet.setColumn(col, width: width)
      printed.append(width)
    }
    let shown = printColumns.map { cols in printed.indices.filter(cols.contains).map { printed[$0] } } ?? printed
    sheet.freezePanes(row: 1, col: 0)
    try sheet.autofilter(firstRow: 0, firstCol: 0, lastRow: max(lastRow, 0), lastCol: lastCol)
    try sheet.setUpPrinting(
      XLSXPrintSetUp(
        landscape: XLSXPrintSetUp.isWide(shown), widths: shown,
        repeatRows: lastRow + 1 > Self.landscapePageRows ? 0...0 : nil, printColumns: printColumns, title: printTitle))
  }
}
