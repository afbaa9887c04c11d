import Foundation
import RaonCore
import RaonErrors
import ZIPFoundation


/// Why a spreadsheet file could not be read as the catalog.
public enum SpreadsheetError: RaonError, CustomStringConvertible, Equatable {
  /// A binary Excel 97–2003 workbook (BIFF, an OLE2 compound file).
  case binaryExcel(source: String)
  /// A ZIP file that is not an Excel workbook (no `xl/workbook.xml`).
  case notAWorkbook(source: String)
  /// An `.xlsx` whose parts are damaged or missing.
  case damagedWorkbook(source: String, part: String, reason: String)
  /// An HTML file without a table.
  case noTable(source: String)
  /// The first sheet holds no rows.
  case emptySheet(source: String)
  /// The first sheet has more rows than Raon reads.
  case tooManyRows(source: String, limit: Int)
  /// An HTML table that ends inside a row, a tag, a comment or a CDATA section: the
  /// download was cut short.
  case cutShort(source: String, line: Int, inside: String)
  /// A workbook that would make Raon hold far more than its size warrants (a ZIP bomb):
  /// refused before it is read (``XLSXReadLimits``).
  case tooLarge(source: String, part: String, what: String)

  public var description: String {
    switch self {
    case .binaryExcel(let source):
      return "\(source): this is a binary Excel 97–2003 workbook (.xls), which Raon does "
        + "not read — open it in a spreadsheet program and save it as .xlsx or CSV"
    case .notAWorkbook(let source):
      return "\(source): this is a ZIP file but not an Excel workbook — give the catalog "
        + "as .xlsx or CSV"
    case .damagedWorkbook(let source, let part, let reason):
      return "\(source): the workbook's part \(part) cannot be read (\(reason)) — open it "
        + "in a spreadsheet program and save it again as .xlsx or CSV"
    case .noTable(let source):
      return "\(source): this HTML file holds no table — give the catalog as .xlsx or CSV"
    case .emptySheet(let source):
      return "\(source): the first sheet is empty; expected the catalog with its header "
        + "(분류, 자치구, 공연/행사명, …) in the first row — save the catalog as .xlsx or CSV"
    case .tooManyRows(let source, let limit):
      return "\(source): the first sheet has more than \(NumberText.grouped(limit)) "
        + "rows, the most Raon reads from a workbook (the catalog has some 5,000 to 20,000) — "
        + "is this the catalog? Give it as CSV, which has no such limit"
    case .tooLarge(let source, let part, let what):
      return "\(source) (\(part)): \(what) — far more than any catalog holds, so the file was refused "
        + "before it was read (a ZIP bomb?); give the catalog as downloaded, or as CSV"
    case .cutShort(let source, let line, let inside):
      return "\(source):\(line): the file ends inside \(inside): the download was cut short "
        + "— nothing was recorded; download the catalog again"
    }
  }
}

/// Reads the catalog from an Excel workbook (`.xlsx`): the first sheet, with the same
/// header rules as the CSV (``TableCatalogReader``).
///
/// Cells may be shared strings (rich text runs joined, phonetic runs left out), inline
/// strings, formula results, booleans or numbers; a number in a date or time format
/// (an Excel serial day, 1900 or 1904 system) becomes `YYYY-MM-DD HH:MM:SS`, as the CSV
/// writes it. An integral number is written without a fraction (`37`), others in the
/// shortest form that reads back the same.
public enum XLSXCatalogReader {
  /// The most bytes one part may inflate to: 2 GB (a sheet of a million programs is ~1 GB,
  /// today's catalog ~30 MB).
  static let maxPartBytes = 2 << 30
  /// The most rows the first sheet may have (the catalog has some 5,000 to 20,000).
  static let maxRows = 1_000_000

  /// Reads the first sheet of the workbook in `data`. Each part is parsed as it inflates,
  /// never held whole.
  ///
  /// - Throws: ``SpreadsheetError``, or ``CSVCatalogError`` for a header that lacks the
  ///   catalog's columns.
  public static func read(_ data: Data, source: String) throws -> CatalogBatch {
    var limits = XLSXReadLimits(fileBytes: data.count)
    let archive: Archive
    do {
      archive = try Archive(data: data, accessMode: .read)
    } catch {
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: "(the ZIP directory)", reason: "not a readable ZIP archive")
    }
    // Every part Raon may read, as the ZIP declares them, must fit before any is inflated.
    let declared = archive.reduce(UInt64(0)) { $0 &+ $1.uncompressedSize }
    if !limits.admits(declared: declared) {
      throw SpreadsheetError.tooLarge(
        source: source, part: "its ZIP directory",
        what: "the parts declare \(XLSXReadLimits.size(Int(clamping: declared))) of XML, more than the "
          + "\(XLSXReadLimits.size(limits.inflationLimit)) Raon reads from a \(XLSXReadLimits.size(data.count)) file")
    }
    guard let book = try read(WorkbookHandler(), part: "xl/workbook.xml", in: archive, source: source, &limits)
    else {
      throw SpreadsheetError.notAWorkbook(source: source)
    }
    var sheetPath = "xl/worksheets/sheet1.xml"
    if let rid = book.firstSheetRelationship,
      let relations = try read(
        RelationshipsHandler(wanted: rid), part: "xl/_rels/workbook.xml.rels", in: archive, source: source,
        &limits),
      let target = relations.targets[rid]
    {
      sheetPath = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
    }
    let shared =
      try read(
        SharedStringsHandler(source: source, limit: limits.sharedStringLimit), part: "xl/sharedStrings.xml",
        in: archive, source: source, &limits)?
      .strings ?? []
    let dateStyles =
      try read(StylesHandler(source: source), part: "xl/styles.xml", in: archive, source: source, &limits)?
      .dateStyles ?? []
    let sheet = SheetHandler(
      shared: shared, dateStyles: dateStyles, date1904: book.date1904,
      table: TableCatalogReader.Builder(source: source))
    guard try read(sheet, part: sheetPath, in: archive, source: source, &limits) != nil else {
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: sheetPath, reason: "the first sheet is missing")
    }
    return try sheet.table.batch()
  }

  /// The part's events read into `handler`, as the part inflates; `nil` when the archive
  /// has no such part.
  private static func read<H: XMLPartEvents>(
    _ handler: H, part path: String, in archive: Archive, source: String, _ limits: inout XLSXReadLimits
  ) throws -> H? {
    guard let entry = archive[path] else { return nil }
    func damaged(_ reason: String) -> SpreadsheetError {
      .damagedWorkbook(source: source, part: path, reason: reason)
    }
    let tooLarge = damaged(
      "it inflates to more than \(maxPartBytes >> 30) GB, the most Raon reads from one part")
    let fileLimit = limits.inflationLimit
    let overBudget = SpreadsheetError.tooLarge(
      source: source, part: path,
      what: "it inflates to more than \(XLSXReadLimits.size(fileLimit)), \(XLSXReadLimits.inflationRatio) times "
        + "the file's \(XLSXReadLimits.size(limits.fileBytes))")
    // The size the ZIP declares refuses a bomb at once; the bytes are counted as well, as
    // a ZIP may declare less than it holds.
    guard entry.uncompressedSize <= UInt64(maxPartBytes) else { throw tooLarge }
    guard limits.admits(declared: entry.uncompressedSize) else { throw overBudget }
    let reader = XMLPartReader(handler)
    var inflated = 0
    var budget = limits
    defer { limits = budget }
    do {
      _ = try archive.extract(entry, bufferSize: 256 << 10, skipCRC32: false) { chunk in
        inflated += chunk.count
        guard inflated <= maxPartBytes else { throw tooLarge }
        guard budget.inflate(chunk.count) else { throw overBudget }
        try reader.feed(chunk)
      }
      try reader.finish()
    } catch let failure as XMLPartFailure {
      switch failure {
      case .malformed(let line, let column):
        throw damaged("malformed XML near line \(line), column \(column)")
      case .doctype:
        throw damaged("it declares a DTD (<!DOCTYPE …>), which no workbook does")
      }
    } catch let error as SpreadsheetError {
      throw error
    } catch let error as CSVCatalogError {
      throw error
    } catch {
      throw damaged("it does not inflate (\(type(of: error)))")
    }
    return handler
  }

  // MARK: - Cell values

  /// Text of an Excel serial day in `YYYY-MM-DD HH:MM:SS`.
  static func dateText(serial: Double, date1904: Bool) -> String? {
    guard serial.isFinite, serial >= 0, serial < 2_958_466 else { return nil }
    // Day 25569 of the 1900 system is 1970-01-01 (Excel counts a 29 Feb 1900 that never
    // was, so days are counted from 1899-12-30); the 1904 system starts 1462 days later.
    var seconds = Int((serial * 86_400).rounded())
    if date1904 { seconds += 1462 * 86_400 }
    let days = seconds.quotientAndRemainder(dividingBy: 86_400)
    let day = CalendarDay(dayNumber: days.quotient - 25_569)
    let s = days.remainder
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(day.description) \(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
  }

  /// A number cell's text: integral values without a fraction.
  static func numberText(_ raw: String) -> String {
    guard let value = Double(raw), value.isFinite else { return raw }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// Whether a number format code shows a date or time (`yyyy-mm-dd`, `h:mm`, …), ignoring
  /// quoted text, escapes and colours.
  static func isDateFormat(_ code: String) -> Bool {
    var inQuote = false
    var inBracket = false
    var escape = false
    for c in code.lowercased() {
      if escape { escape = false; continue }
      switch c {
      case "\"": inQuote.toggle()
      case "\\": escape = true
      case "[": if !inQuote { inBracket = true }
      case "]": if !inQuote { inBracket = false }
      case "y", "d", "h", "s", "m":
        if !inQuote && !inBracket { return true }
      default: break
      }
    }
    return false
  }

  /// Built-in number formats that are dates or times.
  static let builtInDateFormats: Set<Int> = Set(14...22).union(45...47).union(27...36)
    .union(50...58)
}

// MARK: - Part readers

/// `xl/workbook.xml`: the first sheet's relationship id and the date system.
private final class WorkbookHandler: XMLPartEvents {
  var firstSheetRelationship: String?
  var date1904 = false

  func start(_ name: String, attributes: [String: String]) {
    switch name {
    case "sheet" where firstSheetRelationship == nil:
      firstSheetRelationship = attributes.first { localName($0.key) == "id" }?.value
    case "workbookPr":
      let value = attributes["date1904"]
      date1904 = value == "1" || value == "true"
    default: break
    }
  }
}

/// `xl/_rels/workbook.xml.rels`: the target part of the one relationship wanted (a file
/// may list millions; only one is kept).
private final class RelationshipsHandler: XMLPartEvents {
  let wanted: String
  var targets: [String: String] = [:]

  init(wanted: String) { self.wanted = wanted }

  func start(_ name: String, attributes: [String: String]) {
    if name == "Relationship", targets.isEmpty, let id = attributes["Id"], id == wanted,
      let target = attributes["Target"]
    {
      targets[id] = target
    }
  }
}

/// `xl/sharedStrings.xml`: each `<si>`'s text, its runs joined, phonetic runs left out.
private final class SharedStringsHandler: XMLPartEvents {
  let source: String
  /// The most strings kept (``XLSXReadLimits/sharedStringLimit``).
  let limit: Int
  var strings: [String] = []
  private var current: [UInt8] = []
  private var inText = false
  private var phonetic = 0

  init(source: String, limit: Int) {
    self.source = source
    self.limit = limit
  }

  func start(_ name: String, attributes: [String: String]) throws {
    if name == "si", strings.count >= limit {
      throw SpreadsheetError.tooLarge(
        source: source, part: "xl/sharedStrings.xml",
        what: "it holds more than \(limit) shared strings, one per byte of the file")
    }
    switch name {
    case "si": current.removeAll(keepingCapacity: true)
    case "rPh": phonetic += 1
    case "t": inText = phonetic == 0
    default: break
    }
  }

  func end(_ name: String) {
    switch name {
    case "si": strings.append(String(decoding: current, as: UTF8.self))
    case "rPh": phonetic -= 1
    case "t": inText = false
    default: break
    }
  }

  func text(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    guard inText else { return }
    guard current.count + bytes.count <= XLSXReadLimits.maxCellBytes else {
      throw SpreadsheetError.tooLarge(
        source: source, part: "xl/sharedStrings.xml",
        what: "shared string \(strings.count + 1) holds more than \(XLSXReadLimits.size(XLSXReadLimits.maxCellBytes)) "
          + "of text (Excel's own limit is 32,767 characters)")
    }
    current.append(contentsOf: bytes)
  }
}

/// `xl/styles.xml`: for each cell style (`cellXfs/xf`), whether it shows a date.
private final class StylesHandler: XMLPartEvents {
  let source: String
  var dateStyles: [Bool] = []
  private var customDateFormats: Set<Int> = []
  private var inCellXfs = false

  init(source: String) { self.source = source }

  func start(_ name: String, attributes: [String: String]) throws {
    if name == "xf", inCellXfs, dateStyles.count >= XLSXReadLimits.maxCellStyles {
      throw SpreadsheetError.tooLarge(
        source: source, part: "xl/styles.xml",
        what: "it holds more than \(XLSXReadLimits.maxCellStyles) cell styles, Excel's own limit")
    }
    if name == "numFmt", customDateFormats.count >= XLSXReadLimits.maxCellStyles { return }
    switch name {
    case "numFmt":
      if let id = attributes["numFmtId"].flatMap(Int.init), let code = attributes["formatCode"],
        XLSXCatalogReader.isDateFormat(code)
      {
        customDateFormats.insert(id)
      }
    case "cellXfs": inCellXfs = true
    case "xf" where inCellXfs:
      let id = attributes["numFmtId"].flatMap(Int.init) ?? 0
      dateStyles.append(
        XLSXCatalogReader.builtInDateFormats.contains(id) || customDateFormats.contains(id))
    default: break
    }
  }

  func end(_ name: String) {
    if name == "cellXfs" { inCellXfs = false }
  }
}

/// A worksheet: its rows as text, each cell placed by its reference (`C5`), gaps empty,
/// handed to the table's records as each row ends.
private final class SheetHandler: XMLPartEvents {
  var table: TableCatalogReader.Builder
  private let shared: [String]
  private let dateStyles: [Bool]
  private let date1904: Bool

  private var cells: [String] = []
  private var rowNumber = 0
  private var rowCount = 0
  private var column = 0
  private var type = ""
  private var style = 0
  private var text: [UInt8] = []
  private var collecting = false
  private var inCell = false
  /// Cells written (`<c>`), cells the rows kept so far (each row counted at least as wide
  /// as the widest before it, as the table pads it), and that widest row.
  private var cellsWritten = 0
  private var cellsKept = 0
  private var widest = 0

  init(shared: [String], dateStyles: [Bool], date1904: Bool, table: TableCatalogReader.Builder) {
    self.shared = shared
    self.dateStyles = dateStyles
    self.date1904 = date1904
    self.table = table
  }

  func start(_ name: String, attributes: [String: String]) throws {
    switch name {
    case "row":
      rowCount += 1
      guard rowCount <= XLSXCatalogReader.maxRows else {
        throw SpreadsheetError.tooManyRows(source: table.source, limit: XLSXCatalogReader.maxRows)
      }
      cells = []
      rowNumber = attributes["r"].flatMap(Int.init) ?? (rowNumber + 1)
    case "c":
      inCell = true
      cellsWritten += 1
      type = attributes["t"] ?? "n"
      style = attributes["s"].flatMap(Int.init) ?? 0
      column = attributes["r"].flatMap(Self.columnIndex) ?? cells.count
      text.removeAll(keepingCapacity: true)
    case "v", "t":
      collecting = inCell
    default: break
    }
  }

  func end(_ name: String) throws {
    switch name {
    case "v", "t": collecting = false
    case "c":
      inCell = false
      guard column < CSVCatalogReader.maxFieldsPerRecord else { return }
      if cells.count <= column {
        cells.append(contentsOf: repeatElement("", count: column + 1 - cells.count))
      }
      cells[column] = value()
    case "row":
      while let last = cells.last, last.isEmpty { cells.removeLast() }
      widest = max(widest, cells.count)
      // A blank row is dropped, not kept (TableCatalogReader): it costs nothing padded.
      if !cells.isEmpty { cellsKept += widest }
      guard cellsKept <= XLSXReadLimits.cellsPerCellWritten * cellsWritten + XLSXReadLimits.columnsSlack else {
        throw SpreadsheetError.tooLarge(
          source: table.source, part: "the first sheet",
          what: "row \(rowNumber) reaches column \(SheetHandler.columnName(widest - 1)): with the rows padded to "
            + "that width, \(cellsWritten) cells written would be \(cellsKept) values")
      }
      try table.add(TableCatalogReader.Row(line: rowNumber, cells: cells))
    default: break
    }
  }

  func text(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    guard collecting else { return }
    guard text.count + bytes.count <= XLSXReadLimits.maxCellBytes else {
      let cell = SheetHandler.columnName(column) + "\(rowNumber)"
      throw SpreadsheetError.tooLarge(
        source: table.source, part: "the first sheet",
        what: "cell \(cell) holds more than \(XLSXReadLimits.size(XLSXReadLimits.maxCellBytes)) of text "
          + "(Excel's own limit is 32,767 characters)")
    }
    text.append(contentsOf: bytes)
  }

  /// 27 → `"AB"` (0-based column).
  static func columnName(_ column: Int) -> String {
    var n = column + 1
    var letters: [Character] = []
    while n > 0 {
      letters.append(Character(Unicode.Scalar(UInt8(65 + (n - 1) % 26))))
      n = (n - 1) / 26
    }
    return String(letters.reversed())
  }

  private func value() -> String {
    let text = String(decoding: self.text, as: UTF8.self)
    switch type {
    case "s":
      guard let index = Int(text), shared.indices.contains(index) else { return "" }
      return shared[index]
    case "inlineStr", "str", "e": return text
    case "b": return text == "1" ? "TRUE" : "FALSE"
    default:
      if text.isEmpty { return "" }
      if dateStyles.indices.contains(style), dateStyles[style], let serial = Double(text),
        let date = XLSXCatalogReader.dateText(serial: serial, date1904: date1904)
      {
        return date
      }
      return XLSXCatalogReader.numberText(text)
    }
  }

  /// `"AB12"` → 27 (0-based column).
  static func columnIndex(_ reference: String) -> Int? {
    var index = 0
    var letters = 0
    for scalar in reference.unicodeScalars {
      guard scalar.value >= 65, scalar.value <= 90 else { break }
      index = index * 26 + Int(scalar.value - 64)
      letters += 1
      if letters > 4 { return nil }
    }
    return letters == 0 ? nil : index - 1
  }
}

/// The name without its namespace prefix (`x:row` → `row`).
private func localName(_ name: String) -> String {
  guard let colon = name.lastIndex(of: ":") else { return name }
  return String(name[name.index(after: colon)...])
}

extension SpreadsheetError {
  public var exitStatus: ExitStatus {
    switch self {
    case .binaryExcel, .notAWorkbook, .damagedWorkbook, .noTable, .emptySheet, .tooManyRows, .tooLarge, .cutShort: .failure
    }
  }
}
