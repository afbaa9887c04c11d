import CXlsxWriter
import RaonCore

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
  /// URLs written as plain text because the sheet already had 65,530 hyperlinks.
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

  /// Column widths are clamped to this range (Excel character units).
  static let widthRange = 8...60
  /// Rows measured exactly; later rows only when they could be wider.
  static let widthSampleRows = 1_000

  private(set) var sheets: [XLSXSheet] = []
  private(set) var counts = XLSXCellCounts()
  private var sheet: XLSXSheet?
  private var headerRow = 0
  /// The row being written in the current sheet.
  private var row = 0
  private var rowsWritten = 0
  private var widths: [Int] = []
  private var links = 0

  init(
    workbook: XLSXWorkbook, baseName: String, headers: [String],
    headerFormat: XLSXWorkbook.Format?, rowLimit: Int = XLSXLimits.rowsPerSheet,
    constantMemory: Bool, preamble: ((XLSXSheet) throws -> Int)? = nil
  ) {
    self.workbook = workbook
    self.baseName = baseName
    self.headers = headers
    self.headerFormat = headerFormat
    self.rowLimit = max(rowLimit, 2)
    self.constantMemory = constantMemory
    self.preamble = preamble
  }

  /// Starts the first sheet even when no row follows, so an empty table still has its
  /// header.
  func start() throws {
    if sheet == nil { try startSheet() }
  }

  /// Moves to the next data row, starting a new sheet when this one is full.
  func nextRow() throws {
    if sheet == nil {
      try startSheet()
    }
    if row + 1 >= rowLimit {
      try finishSheet()
      try startSheet()
    }
    row += 1
    rowsWritten += 1
  }

  // MARK: - Cells of the current row

  /// Writes text (empty text leaves the cell blank).
  func text(_ col: Int, _ value: String, _ format: XLSXWorkbook.Format? = nil) throws {
    guard !value.isEmpty, let sheet else { return }
    let (fitted, cut) = XLSXLimits.fitCell(value)
    if cut { counts.truncatedCells += 1 }
    measure(col, fitted)
    try sheet.string(row, col, fitted, format)
  }

  /// Writes a number that displays `displayWidth` columns wide in its format.
  func number(
    _ col: Int, _ value: Double, _ format: XLSXWorkbook.Format?, displayWidth: Int
  ) throws {
    guard let sheet else { return }
    if displayWidth > widths[col] { widths[col] = displayWidth }
    try sheet.number(row, col, value, format)
  }

  /// Writes a day as a real Excel date, or as text when Excel cannot hold it.
  func date(_ col: Int, _ day: CalendarDay?, _ format: XLSXWorkbook.Format?) throws {
    guard let day else { return }
    if let serial = XLSXTableStream.excelSerial(day) {
      try number(col, serial, format, displayWidth: 10)
    } else {
      try text(col, day.description)
    }
  }

  /// Writes a web address as a hyperlink while the sheet allows more, else as text.
  func link(_ col: Int, _ value: String) throws {
    guard !value.isEmpty, let sheet else { return }
    guard XLSXTableStream.isLinkable(value) else {
      counts.linksNotLinkable += 1
      return try text(col, value)
    }
    guard links < XLSXLimits.hyperlinksPerSheet else {
      counts.linksOverSheetLimit += 1
      return try text(col, value)
    }
    let err = sheet.url(row, col, value)
    switch err {
    case LXW_NO_ERROR:
      links += 1
      measure(col, value)
    case LXW_ERROR_WORKSHEET_MAX_URL_LENGTH_EXCEEDED, LXW_ERROR_WORKSHEET_MAX_NUMBER_URLS_EXCEEDED:
      // libxlsxwriter measures after escaping; trust its verdict and keep the text.
      counts.linksNotLinkable += 1
      try text(col, value)
    default:
      try sheet.check(err, row, col, "writing a hyperlink")
    }
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
    links = 0
    headerRow = 0
    if sheets.count == 1, let preamble { headerRow = try preamble(new) }
    widths = headers.map { XLSXDisplayWidth.columns(of: $0) + 2 }  // + room for the filter button
    for (col, header) in headers.enumerated() {
      try new.string(headerRow, col, header, headerFormat)
    }
    row = headerRow
    try new.repeatRowsWhenPrinted(headerRow, headerRow)
    // Narrow tables print one page wide; the 22-column programs table would shrink to
    // unreadable, so it only turns landscape.
    if headers.count <= 8 {
      new.setPrintLandscapeFitWidth()
    } else {
      worksheet_set_landscape(new.handle)
    }
  }

  private func finishSheet() throws {
    guard let sheet else { return }
    for (col, width) in widths.enumerated() {
      let clamped = min(max(width + 1, Self.widthRange.lowerBound), Self.widthRange.upperBound)
      try sheet.setColumn(col, width: Double(clamped))
    }
    sheet.freezePanes(row: headerRow + 1, col: 0)
    try sheet.autofilter(
      firstRow: headerRow, firstCol: 0, lastRow: row, lastCol: max(headers.count - 1, 0))
    self.sheet = nil
  }

  private func measure(_ col: Int, _ value: String) {
    let current = widths[col]
    guard current < Self.widthRange.upperBound else { return }
    // Display width never exceeds the UTF-8 length, so later rows are measured only
    // when they could widen the column: the cost stays O(1) per cell.
    guard row - headerRow <= Self.widthSampleRows || value.utf8.count > current else { return }
    let w = XLSXDisplayWidth.columns(of: value)
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
    guard url.utf8.count <= XLSXLimits.urlLength else { return false }
    let lower = url.prefix(8).lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return false }
    return !url.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
  }
}
