import CXlsxWriter
import Foundation
import RaonCore

/// One worksheet of an ``XLSXWorkbook``: thin, checked cell writers.
///
/// Strings always go through `worksheet_write_string`, never a formula writer, so a
/// title like `=HYPERLINK(…)` stays text. Every text is cut to Excel's cell limit here
/// (``XLSXLimits/fitCell(_:)``) and counted, so no value — a category, a district, a
/// label — reaches libxlsxwriter's own limit and fails the workbook.
struct XLSXSheet {
  let handle: UnsafeMutablePointer<lxw_worksheet>
  let name: String
  /// The workbook's count of cut cells.
  let cuts: XLSXCutCells

  /// Whether libxlsxwriter writes this sheet in constant-memory mode.
  var isConstantMemory: Bool { handle.pointee.optimize != 0 }

  /// Writes text. Characters XML 1.0 forbids (controls, U+FFFE/U+FFFF) would make the
  /// sheet's XML invalid and Excel call the file damaged: they become U+FFFD (normalised
  /// programs have none; this covers every other text, e.g. from an older store).
  func string(_ row: Int, _ col: Int, _ value: String, _ format: XLSXWorkbook.Format? = nil) throws {
    let err = fitted(value).withCString {
      worksheet_write_string(handle, lxw_row_t(row), lxw_col_t(col), $0, format)
    }
    try check(err, row, col, "writing text")
  }

  /// `value` cleaned and cut to the cell limit, the cut counted.
  private func fitted(_ value: String) -> String {
    let (text, cut) = XLSXLimits.fitCell(SafeText.clean(value))
    if cut { cuts.count += 1 }
    return text
  }

  func number(_ row: Int, _ col: Int, _ value: Double, _ format: XLSXWorkbook.Format? = nil) throws {
    let err = worksheet_write_number(handle, lxw_row_t(row), lxw_col_t(col), value, format)
    try check(err, row, col, "writing a number")
  }

  /// Writes a hyperlink; returns the libxlsxwriter code so the caller can fall back to
  /// text for URLs Excel would refuse (too long, too many links).
  func url(_ row: Int, _ col: Int, _ value: String, _ format: XLSXWorkbook.Format? = nil) -> lxw_error {
    SafeText.clean(value).withCString {
      worksheet_write_url(handle, lxw_row_t(row), lxw_col_t(col), $0, format)
    }
  }

  /// Writes a hyperlink shown as `text`; returns the libxlsxwriter code so the caller can
  /// fall back to text.
  func link(_ row: Int, _ col: Int, _ url: String, text: String) -> lxw_error {
    SafeText.clean(url).withCString { u in
      fitted(text).withCString { t in
        worksheet_write_url_opt(handle, lxw_row_t(row), lxw_col_t(col), u, nil, t, nil)
      }
    }
  }

  func datetime(_ row: Int, _ col: Int, _ value: lxw_datetime, _ format: XLSXWorkbook.Format?) throws {
    var value = value
    let err = worksheet_write_datetime(handle, lxw_row_t(row), lxw_col_t(col), &value, format)
    try check(err, row, col, "writing a date")
  }

  func setColumn(_ col: Int, width: Double, _ format: XLSXWorkbook.Format? = nil) throws {
    let err = worksheet_set_column(handle, lxw_col_t(col), lxw_col_t(col), width, format)
    try check(err, nil, col, "setting a column width")
  }

  /// Hides column `col` (keeping its width for when it is shown): it prints no empty column.
  func hideColumn(_ col: Int, width: Double) throws {
    var options = lxw_row_col_options(hidden: 1, level: 0, collapsed: 0)
    let err = worksheet_set_column_opt(handle, lxw_col_t(col), lxw_col_t(col), width, nil, &options)
    try check(err, nil, col, "hiding a column")
  }

  func setRow(_ row: Int, height: Double) throws {
    let err = worksheet_set_row(handle, lxw_row_t(row), height, nil)
    try check(err, row, nil, "setting a row height")
  }

  func freezePanes(row: Int, col: Int) {
    worksheet_freeze_panes(handle, lxw_row_t(row), lxw_col_t(col))
  }

  func autofilter(firstRow: Int, firstCol: Int, lastRow: Int, lastCol: Int) throws {
    let err = worksheet_autofilter(
      handle, lxw_row_t(firstRow), lxw_col_t(firstCol), lxw_row_t(lastRow), lxw_col_t(lastCol))
    try check(err, firstRow, firstCol, "adding the autofilter")
  }

  func insertChart(
    _ row: Int, _ col: Int, _ chart: UnsafeMutablePointer<lxw_chart>, xScale: Double = 1,
    yScale: Double = 1
  ) throws {
    var options = lxw_chart_options()
    options.x_scale = xScale
    options.y_scale = yScale
    let err = worksheet_insert_chart_opt(handle, lxw_row_t(row), lxw_col_t(col), chart, &options)
    try check(err, row, col, "inserting a chart")
  }

  /// Colours `rows × cols` from white at 0 to mid blue at the largest value: a linear
  /// scale anchored at zero, so a cell's shade reads as its size (3 stays near white
  /// where 40 is blue). Counts are not good or bad, so no red.
  func zeroToMaxColorScale(firstRow: Int, firstCol: Int, lastRow: Int, lastCol: Int) throws {
    var format = lxw_conditional_format()
    format.type = UInt8(LXW_CONDITIONAL_2_COLOR_SCALE.rawValue)
    format.min_rule_type = UInt8(LXW_CONDITIONAL_RULE_TYPE_NUMBER.rawValue)
    format.min_value = 0
    format.min_color = 0xFFFFFF
    format.max_rule_type = UInt8(LXW_CONDITIONAL_RULE_TYPE_MAXIMUM.rawValue)
    format.max_color = 0x5B9BD5
    let err = worksheet_conditional_format_range(
      handle, lxw_row_t(firstRow), lxw_col_t(firstCol), lxw_row_t(lastRow), lxw_col_t(lastCol),
      &format)
    try check(err, firstRow, firstCol, "adding the colour scale")
  }

  /// Sets how the sheet prints (``XLSXPrintSetUp``): A4, margins, orientation, fitted one
  /// page wide (or on one page), title rows and columns repeated on every page, and a
  /// header and footer with the report, the sheet's name and the page numbers.
  func setUpPrinting(_ setUp: XLSXPrintSetUp) throws {
    worksheet_set_paper(handle, XLSXPrintSetUp.paperA4)
    if setUp.landscape { worksheet_set_landscape(handle) } else { worksheet_set_portrait(handle) }
    if let scale = setUp.fixedScale {
      worksheet_set_print_scale(handle, UInt16(scale))
    } else {
      worksheet_fit_to_pages(handle, 1, setUp.onePage ? 1 : 0)
    }
    let m = XLSXPrintSetUp.margins
    worksheet_set_margins(handle, m.left, m.right, m.top, m.bottom)
    if let rows = setUp.repeatRows {
      let err = worksheet_repeat_rows(handle, lxw_row_t(rows.lowerBound), lxw_row_t(rows.upperBound))
      try check(err, rows.lowerBound, nil, "repeating the header row on printed pages")
    }
    if setUp.printColumns != nil || setUp.printRows != nil {
      let cols = setUp.printColumns ?? 0...(Int(LXW_COL_MAX) - 1)
      let rows = setUp.printRows ?? 0...(XLSXLimits.rowsPerSheet - 1)
      let err = worksheet_print_area(
        handle, lxw_row_t(rows.lowerBound), lxw_col_t(cols.lowerBound), lxw_row_t(rows.upperBound),
        lxw_col_t(cols.upperBound))
      try check(err, nil, cols.lowerBound, "setting the print area")
    }
    if let cols = setUp.repeatColumns {
      let err = worksheet_repeat_columns(handle, lxw_col_t(cols.lowerBound), lxw_col_t(cols.upperBound))
      try check(err, nil, cols.lowerBound, "repeating the title columns on printed pages")
    }
    let header = XLSXPrintSetUp.header(title: setUp.title).withCString { worksheet_set_header(handle, $0) }
    try check(header, nil, nil, "setting the printed page header")
    let footer = XLSXPrintSetUp.footer.withCString { worksheet_set_footer(handle, $0) }
    try check(footer, nil, nil, "setting the printed page footer")
  }

  /// `text` across columns `cols` of `row`, wrapped, the row as high as its lines for a
  /// merged width of `width` characters (LibreOffice fits no height to merged cells).
  func wrappedNote(_ row: Int, _ cols: ClosedRange<Int>, _ text: String, width: Double, _ format: XLSXWorkbook.Format?) throws {
    let err = fitted(text).withCString {
      worksheet_merge_range(
        handle, lxw_row_t(row), lxw_col_t(cols.lowerBound), lxw_row_t(row), lxw_col_t(cols.upperBound), $0, format)
    }
    try check(err, row, cols.lowerBound, "writing a note")
    try setRow(row, height: XLSXFormats.rowHeight(lines: XLSXFormats.lines(text, width: width)))
  }

  /// Prints `rows` × `columns` only (set after ``setUpPrinting(_:)``).
  func setPrintArea(rows: ClosedRange<Int>, columns: ClosedRange<Int>) throws {
    let err = worksheet_print_area(
      handle, lxw_row_t(rows.lowerBound), lxw_col_t(columns.lowerBound), lxw_row_t(rows.upperBound),
      lxw_col_t(columns.upperBound))
    try check(err, rows.lowerBound, columns.lowerBound, "setting the print area")
  }

  /// Prints nothing of the sheet: its print area is one empty cell in `right`, a column
  /// right of everything written, which LibreOffice leaves out of the print (repeated
  /// titles would print, so there are none).
  func printNothing(right col: Int) throws {
    let err = worksheet_print_area(handle, 0, lxw_col_t(col), 0, lxw_col_t(col))
    try check(err, nil, col, "setting the print area")
    handle.pointee.repeat_rows.in_use = 0
    handle.pointee.repeat_cols.in_use = 0
  }

  /// Starts a new printed page at `row` (a chart that would otherwise be cut in two).
  func pageBreak(beforeRow row: Int) throws {
    var breaks: [lxw_row_t] = [lxw_row_t(row), 0]
    let err = worksheet_set_h_pagebreaks(handle, &breaks)
    try check(err, row, nil, "setting a page break")
  }

  /// Hides the sheet (helper data that charts read); never the first, active sheet.
  func hide() { worksheet_hide(handle) }

  func check(_ err: lxw_error, _ row: Int?, _ col: Int?, _ what: String) throws {
    guard err == LXW_NO_ERROR else {
      var place = ""
      if let row, let col {
        place = " at \(XLSXSheet.cellName(row: row, col: col))"
      } else if let col {
        place = " in column \(XLSXSheet.columnName(col))"
      } else if let row {
        place = " in row \(row + 1)"
      }
      throw XLSXExportError.libraryCall(
        what: what + place, sheet: name, code: Int32(err.rawValue),
        message: XLSXExportError.message(err))
    }
  }

  /// `A`, `B`, …, `Z`, `AA`, … for a zero-based column.
  static func columnName(_ col: Int) -> String {
    var n = col + 1
    var letters: [Character] = []
    while n > 0 {
      let r = (n - 1) % 26
      letters.append(Character(Unicode.Scalar(UInt8(65 + r))))
      n = (n - 1) / 26
    }
    return String(letters.reversed())
  }

  /// `C12` for a zero-based row and column.
  static func cellName(row: Int, col: Int) -> String { "\(columnName(col))\(row + 1)" }
}
