import CXlsxWriter
import RaonCore
import RaonDocument

/// Excel's limits on what one cell and one sheet may hold.
enum XLSXLimits {
  /// Rows per sheet, header included.
  static let rowsPerSheet = 1_048_576
  /// Characters (UTF-16 units) per cell.
  static let charactersPerCell = 32_767
  /// Hyperlinks per sheet.
  static let hyperlinksPerSheet = 65_530
  /// Characters per hyperlink target.
  static let urlLength = 2_079
  /// Characters per text ("…") inside a formula.
  static let formulaTextLength = 255

  /// `text` cut to the cell limit at a character boundary, and whether it was cut.
  static func fitCell(_ text: String) -> (String, Bool) {
    // UTF-16 length never exceeds UTF-8 length, so the O(1) UTF-8 count clears almost
    // every value without walking it.
    guard text.utf8.count > charactersPerCell, text.utf16.count > charactersPerCell else {
      return (text, false)
    }
    return (XLSXSheetNames.cut(text, toUTF16: charactersPerCell), true)
  }
}

/// What happened to cells that Excel's limits did not allow as given: the writers turn
/// these counts into ``ExportResult/warnings``.
struct XLSXCellCounts {
  var truncatedCells = 0
  /// URLs longer than a formula's text written as plain text because the sheet already had
  /// 65,530 hyperlinks.
  var linksOverSheetLimit = 0
  /// URLs written as plain text because they were too long or not web addresses.
  var linksNotLinkable = 0
}

/// A table written row by row, continued on new sheets (`프로그램 (2)`, …) when Excel's
/// row limit is reached. Every sheet gets the header row, a frozen header, an autofilter
/// and column widths fitted to its content.
///
/// Designed for constant-memory sheets: cells are written strictly in row order and the
/// widths are measured while writing, so nothing is read twice.
final class XLSXTableStream {
  let workbook: XLSXWorkbook
  let baseName: String
  let headers: [String]
  let headerFormat: XLSXWorkbook.Format?
  /// Rows per sheet, header included (injectable so tests can split at 10).
  let rowLimit: Int
  let constantMemory: Bool
  /// Rows above the header on the first sheet (e.g. the comparison's from/to block).
  let preamble: ((XLSXSheet) throws -> Int)?
  /// The report's title, for the printed page header.
  let printTitle: String
  /// Columns repeated at the left of every printed page (the id and title columns).
  let repeatColumns: ClosedRange<Int>?
  /// Columns printed (the print area); every column when `nil`.
  let printColumns: ClosedRange<Int>?
  /// Whether the table prints nothing (a table for the screen: the whole catalog).
  let printHeaderOnly: Bool
  /// The widest each column may be (Excel character units; `nil` for ``widthRange``'s
  /// upper bound): long text is cut at the cell's edge, so the page keeps a readable
  /// scale when the table is fitted one page wide.
  let widthCaps: [Int?]
  /// Columns whose text wraps inside a fixed width (Excel character units), so a long
  /// title, place or fee prints whole on more lines instead of cut at the cell's edge; the
  /// row's height is computed from the text (libxlsxwriter does not fit heights).
  let wrapWidths: [Int: Double]
  /// The format of the wrapped columns' cells.
  let wrapFormat: XLSXWorkbook.Format?
  /// The format of the other text cells (top-aligned beside wrapped text).
  let cellFormat: XLSXWorkbook.Format?

  /// Column widths are clamped to this range (Excel character units).
  static let widthRange = 8...60
  /// Rows measured exactly; later rows only when they could be wider.
  static let widthSampleRows = 1_000

  private(set) var sheets: [XLSXSheet] = []
  /// The rows of the table printed, when the others are for the screen only (printed on
  /// another sheet): the header still prints above them. Set before ``finish()``; used
  /// while the table has one sheet.
  var printedRows: ClosedRange<Int>?
  /// Columns hidden, on screen and paper (a column no row fills). Set before ``finish()``.
  var hiddenColumns: Set<Int> = []
  private(set) var counts = XLSXCellCounts()
  private var sheet: XLSXSheet?
  /// The current sheet's C handle, cached for the per-cell calls.
  private var ws: UnsafeMutablePointer<lxw_worksheet>?
  private var headerRow = 0
  /// The row being written in the current sheet.
  private var row = 0
  private var widths: [Int] = []
  private var links = 0
  /// Lines the current row's wrapped text takes.
  private var rowLines = 1

  init(
    workbook: XLSXWorkbook, baseName: String, headers: [String],
    headerFormat: XLSXWorkbook.Format?, rowLimit: Int = XLSXLimits.rowsPerSheet,
    constantMemory: Bool, preamble: ((XLSXSheet) throws -> Int)? = nil, printTitle: String = "",
    repeatColumns: ClosedRange<Int>? = nil, printColumns: ClosedRange<Int>? = nil,
    printHeaderOnly: Bool = false, widthCaps: [Int?] = [], wrapWidths: [Int: Double] = [:],
    wrapFormat: XLSXWorkbook.Format? = nil, cellFormat: XLSXWorkbook.Format? = nil
  ) {
    self.workbook = workbook
    self.baseName = baseName
    self.headers = headers
    self.headerFormat = headerFormat
    self.rowLimit = max(rowLimit, 2)
    self.constantMemory = constantMemory
    self.preamble = preamble
    self.printTitle = printTitle
    self.repeatColumns = repeatColumns
    self.printColumns = printColumns
    self.printHeaderOnly = printHeaderOnly
    self.widthCaps = widthCaps
    self.wrapWidths = wrapWidths
    self.wrapFormat = wrapFormat
    self.cellFormat = cellFormat
  }

  /// Starts the first sheet even when no row follows, so an empty table still has its
  /// header.
  func start() throws {
    if sheet == nil { try startSheet() }
  }

  /// Whether `rows` data rows fit on the first sheet, below its header (call after
  /// ``start()``): if not, the table will continue on sheets added as it goes.
  func fitsFirstSheet(rows: Int) -> Bool {
    headerRow + rows < rowLimit
  }

  /// Moves to the next data row, starting a new sheet when this one is full.
  func nextRow() throws {
    if sheet == nil {
      try startSheet()
    }
    try fitRowHeight()
    if row + 1 >= rowLimit {
      try finishSheet()
      try startSheet()
    }
    row += 1
  }

  /// Sets the finished row's height to its wrapped text's lines.
  private func fitRowHeight() throws {
    defer { rowLines = 1 }
    guard rowLines > 1, let sheet else { return }
    try sheet.setRow(row, height: XLSXFormats.rowHeight(lines: rowLines))
  }

  // MARK: - Cells of the current row

  /// Writes text (empty text leaves the cell blank).
  func text(_ col: Int, _ value: String, _ format: XLSXWorkbook.Format? = nil) throws {
    guard !value.isEmpty, let ws else { return }
    // Characters XML 1.0 forbids (from a store an older Raon wrote) become U+FFFD.
    let (fitted, cut) = XLSXLimits.fitCell(SafeText.clean(value))
    if cut { counts.truncatedCells += 1 }
    var format = format
    if let width = wrapWidths[col] {
      format = format ?? wrapFormat
      rowLines = max(rowLines, XLSXFormats.lines(fitted, width: width))
    } else {
      format = format ?? cellFormat
      measure(col, fitted)
    }
    // The hot path calls C directly on the cached pointer: going through XLSXSheet would
    // retain and release its name for every cell.
    let err = fitted.withCString {
      worksheet_write_string(ws, lxw_row_t(row), lxw_col_t(col), $0, format)
    }
    if err != LXW_NO_ERROR { try fail(err, col, "writing text") }
  }

  /// Writes a number that displays `displayWidth` columns wide in its format.
  func number(
    _ col: Int, _ value: Double, _ format: XLSXWorkbook.Format?, displayWidth: Int
  ) throws {
    guard let ws else { return }
    if displayWidth > widths[col] { widths[col] = displayWidth }
    let err = worksheet_write_number(ws, lxw_row_t(row), lxw_col_t(col), value, format)
    if err != LXW_NO_ERROR { try fail(err, col, "writing a number") }
  }

  /// Writes a day as a real Excel date, or as text when Excel cannot hold it.
  func date(_ col: Int, _ day: CalendarDay?, _ format: XLSXWorkbook.Format?) throws {
    guard let day else { return }
    if let serial = XLSXTableStream.excelSerial(day) {
      // `2024. 12. 31.` (XLSXFormats.dayFormat)
    try number(col, serial, format, displayWidth: 13)
    } else {
      try text(col, day.description)
    }
  }

  /// Writes a web address as a link: a `HYPERLINK` formula showing the address (its
  /// cached value), else — for addresses longer than a formula's 255-character text — a
  /// worksheet hyperlink while the sheet allows more, else text.
  ///
  /// Why a formula: a worksheet hyperlink costs libxlsxwriter ~2.6 KB held until the file
  /// is saved and Excel allows 65,530 per sheet, so the programs sheet of today's catalog
  /// (3 addresses × 20,000 programs) needed 157 MB and came within 3 % of the cap, past
  /// which (21,843 programs) the last programs lost their links. Measured with `raon-bench xlsx floor|floor-formula 20000` (same run, release):
  /// hyperlinks 0.76 s and +160 MB, formulas 0.46 s and +3 MB; both open as links in Excel
  /// and LibreOffice, sort and filter on the address.
  func link(_ col: Int, _ value: String, portal: Bool = false) throws {
    guard !value.isEmpty, let ws else { return }
    guard XLSXTableStream.isLinkable(value), !portal || PortalLink.isProgramPage(value) else {
      counts.linksNotLinkable += 1
      return try text(col, value)
    }
    let address = SafeText.clean(value)
    if let formula = XLSXTableStream.hyperlinkFormula(address) {
      let format = try workbook.linkFormat()
      let err = formula.withCString { f in
        address.withCString { worksheet_write_formula_str(ws, lxw_row_t(row), lxw_col_t(col), f, format, $0) }
      }
      if err != LXW_NO_ERROR { try fail(err, col, "writing a link") }
      measure(col, address)
      return
    }
    guard links < XLSXLimits.hyperlinksPerSheet else {
      counts.linksOverSheetLimit += 1
      return try text(col, value)
    }
    let err = address.withCString {
      worksheet_write_url(ws, lxw_row_t(row), lxw_col_t(col), $0, nil)
    }
    switch err {
    case LXW_NO_ERROR:
      links += 1
      measure(col, value)
    case LXW_ERROR_WORKSHEET_MAX_URL_LENGTH_EXCEEDED, LXW_ERROR_WORKSHEET_MAX_NUMBER_URLS_EXCEEDED:
      // libxlsxwriter measures after escaping; trust its verdict and keep the text.
      counts.linksNotLinkable += 1
      try text(col, value)
    default:
      try fail(err, col, "writing a hyperlink")
    }
  }

  /// `=HYPERLINK("address")`, quotes doubled, or `nil` when the quoted text would pass
  /// Excel's 255 characters per text in a formula.
  static func hyperlinkFormula(_ address: String) -> String? {
    // Bytes, not `String.contains`: Foundation's search cost 4 % of the weekly job at 20,000.
    let quoted = address.utf8.contains(UInt8(ascii: "\""))
      ? address.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") : address
    guard quoted.utf16.count <= XLSXLimits.formulaTextLength else { return nil }
    return "=HYPERLINK(\"" + quoted + "\")"
  }

  private func fail(_ err: lxw_error, _ col: Int, _ what: String) throws {
    try sheet?.check(err, row, col, what)
  }

  /// Fixes widths, freeze and filter of the last sheet. Call once, after the last row.
  func finish() throws {
    if sheet == nil { try startSheet() }
    try finishSheet()
  }

  // MARK: - Helpers

  private func startSheet() throws {
    let name = sheets.isEmpty ? baseName : "\(baseName) (\(sheets.count + 1))"
    let new = try workbook.addSheet(name, constantMemory: constantMemory)
    sheets.append(new)
    sheet = new
    ws = new.handle
    links = 0
    headerRow = 0
    if sheets.count == 1, let preamble { headerRow = try preamble(new) }
    widths = headers.map { DisplayWidth.of($0) + 2 }  // + room for the filter button
    for (col, header) in headers.enumerated() {
      try new.string(headerRow, col, header, headerFormat)
    }
    row = headerRow
  }

  private func finishSheet() throws {
    guard let sheet else { return }
    try fitRowHeight()
    var printed: [Double] = []
    for (col, width) in widths.enumerated() {
      let cap = col < widthCaps.count ? widthCaps[col] ?? Self.widthRange.upperBound : Self.widthRange.upperBound
      let clamped = wrapWidths[col] ?? Double(min(max(width + 1, Self.widthRange.lowerBound), cap))
      if hiddenColumns.contains(col) {
        try sheet.hideColumn(col, width: clamped)
      } else {
        try sheet.setColumn(col, width: clamped)
        if printColumns?.contains(col) ?? true { printed.append(clamped) }
      }
    }
    // Every sheet of the table prints alike: one page wide, its header row (and the id
    // and title columns) on every page.
    if printHeaderOnly {
      // A table for the screen prints nothing: its print area is one empty cell right of
      // the table, which LibreOffice leaves out (a page with only the header row said
      // nothing; the rows an official prints are on the week's sheets).
      try sheet.setUpPrinting(
        XLSXPrintSetUp(
          landscape: XLSXPrintSetUp.isWide(printed), printColumns: headers.count...headers.count,
          printRows: headerRow...headerRow, title: printTitle))
    } else {
      try sheet.setUpPrinting(
        XLSXPrintSetUp(
          landscape: XLSXPrintSetUp.isWide(printed), widths: printed, repeatRows: headerRow...headerRow,
          repeatColumns: repeatColumns, printColumns: printColumns,
          printRows: sheets.count == 1 ? printedRows : nil, title: printTitle))
    }
    sheet.freezePanes(row: headerRow + 1, col: 0)
    try sheet.autofilter(
      firstRow: headerRow, firstCol: 0, lastRow: row, lastCol: max(headers.count - 1, 0))
    self.sheet = nil
    ws = nil
  }

  private func measure(_ col: Int, _ value: String) {
    let current = widths[col]
    guard current < Self.widthRange.upperBound else { return }
    // After the sample, only values that look long are measured (the UTF-8 length is
    // O(1)). Display width never exceeds it; Korean text takes 3 bytes per 2 columns,
    // so "longer than 1.5 × the current width" catches the values that matter without
    // measuring every Korean title of a million rows.
    guard row - headerRow <= Self.widthSampleRows || value.utf8.count > current + current / 2
    else { return }
    let w = DisplayWidth.of(value)
    if w > current { widths[col] = w }
  }

  /// Excel's serial day number (1900 date system) or `nil` before 1900-03-01, where
  /// Excel's phantom 1900-02-29 makes serials ambiguous, or after 9999-12-31.
  static func excelSerial(_ day: CalendarDay) -> Double? {
    let serial = day.dayNumber + 25_569  // 1970-01-01 is serial 25,569.
    guard (61...2_958_465).contains(serial) else { return nil }
    return Double(serial)
  }

  /// Only plain web addresses become links: nothing Excel would run or open locally
  /// (`internal:`, `external:`, `file:`, `javascript:`) and nothing over Excel's length.
  static func isLinkable(_ url: String) -> Bool {
    // One pass over the contiguous bytes: with `zip`/`contains` over the UTF-8 view this
    // took 2 s of the workbook's thread at a million programs (3,000,000 addresses; perf).
    if let linkable = url.utf8.withContiguousStorageIfAvailable(isLinkable(bytes:)) { return linkable }
    return Array(url.utf8).withUnsafeBufferPointer(isLinkable(bytes:))
  }

  /// `http://` or `https://` in any case, then no space, control character or DEL.
  private static func isLinkable(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count >= 7, bytes.count <= XLSXLimits.urlLength else { return false }
    // ASCII letters compared with their lower case (`| 0x20`), without a lowered copy.
    guard bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
      bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
    else { return false }
    let colon = bytes[4] | 0x20 == UInt8(ascii: "s") ? 5 : 4
    guard colon + 3 <= bytes.count, bytes[colon] == UInt8(ascii: ":"),
      bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
    else { return false }
    for byte in bytes where byte <= 0x20 || byte == 0x7F { return false }
    return true
  }
}
