import Foundation
import RaonCore
import ZIPFoundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Why a spreadsheet file could not be read as the catalog.
public enum SpreadsheetError: Error, CustomStringConvertible, Equatable {
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
  /// The most bytes one part may inflate to (a sheet of a million programs is ~1 GB).
  static let maxPartBytes = 2 << 30

  /// Reads the first sheet of the workbook in `data`.
  ///
  /// - Throws: ``SpreadsheetError``, or ``CSVCatalogError`` for a header that lacks the
  ///   catalog's columns.
  public static func read(_ data: Data, source: String) throws -> CatalogBatch {
    let archive: Archive
    do {
      archive = try Archive(data: data, accessMode: .read)
    } catch {
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: "(the ZIP directory)", reason: "not a readable ZIP archive")
    }
    guard let workbook = try part("xl/workbook.xml", in: archive, source: source) else {
      throw SpreadsheetError.notAWorkbook(source: source)
    }
    let book = try parse(WorkbookHandler(), workbook, part: "xl/workbook.xml", source: source)
    var sheetPath = "xl/worksheets/sheet1.xml"
    if let rid = book.firstSheetRelationship,
      let rels = try part("xl/_rels/workbook.xml.rels", in: archive, source: source)
    {
      let relations = try parse(
        RelationshipsHandler(), rels, part: "xl/_rels/workbook.xml.rels", source: source)
      if let target = relations.targets[rid] {
        sheetPath = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
      }
    }
    var shared: [String] = []
    if let strings = try part("xl/sharedStrings.xml", in: archive, source: source) {
      shared = try parse(
        SharedStringsHandler(), strings, part: "xl/sharedStrings.xml", source: source
      ).strings
    }
    var dateStyles: [Bool] = []
    if let styles = try part("xl/styles.xml", in: archive, source: source) {
      dateStyles = try parse(StylesHandler(), styles, part: "xl/styles.xml", source: source)
        .dateStyles
    }
    guard let sheet = try part(sheetPath, in: archive, source: source) else {
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: sheetPath, reason: "the first sheet is missing")
    }
    let rows = try parse(
      SheetHandler(shared: shared, dateStyles: dateStyles, date1904: book.date1904), sheet,
      part: sheetPath, source: source
    ).rows
    return try TableCatalogReader.read(rows, source: source)
  }

  /// A part's bytes, `nil` when the archive has no such part.
  private static func part(_ path: String, in archive: Archive, source: String) throws -> Data? {
    guard let entry = archive[path] else { return nil }
    guard entry.uncompressedSize <= UInt64(maxPartBytes) else {
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: path, reason: "it inflates to more than \(maxPartBytes >> 20) MB")
    }
    var data = Data()
    data.reserveCapacity(Int(entry.uncompressedSize))
    do {
      _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
    } catch {
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: path, reason: "it does not inflate (\(type(of: error)))")
    }
    return data
  }

  private static func parse<H: NSObject & XMLParserDelegate>(_ handler: H, _ data: Data, part: String, source: String) throws
    -> H
  {
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = false
    parser.shouldResolveExternalEntities = false
    parser.delegate = handler
    guard parser.parse() else {
      let line = parser.lineNumber
      throw SpreadsheetError.damagedWorkbook(
        source: source, part: part, reason: "malformed XML near line \(line)")
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

// MARK: - SAX handlers

/// `xl/workbook.xml`: the first sheet's relationship id and the date system.
private final class WorkbookHandler: NSObject, XMLParserDelegate {
  var firstSheetRelationship: String?
  var date1904 = false

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch localName(name) {
    case "sheet" where firstSheetRelationship == nil:
      firstSheetRelationship = attributes.first { localName($0.key) == "id" }?.value
    case "workbookPr":
      let value = attributes["date1904"]
      date1904 = value == "1" || value == "true"
    default: break
    }
  }
}

/// `xl/_rels/workbook.xml.rels`: relationship id → target part.
private final class RelationshipsHandler: NSObject, XMLParserDelegate {
  var targets: [String: String] = [:]

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if localName(name) == "Relationship", let id = attributes["Id"], let target = attributes["Target"] {
      targets[id] = target
    }
  }
}

/// `xl/sharedStrings.xml`: each `<si>`'s text, its runs joined, phonetic runs left out.
private final class SharedStringsHandler: NSObject, XMLParserDelegate {
  var strings: [String] = []
  private var current = ""
  private var inText = false
  private var phonetic = 0

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch localName(name) {
    case "si": current = ""
    case "rPh": phonetic += 1
    case "t": inText = phonetic == 0
    default: break
    }
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    switch localName(name) {
    case "si": strings.append(current)
    case "rPh": phonetic -= 1
    case "t": inText = false
    default: break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if inText { current += string }
  }
}

/// `xl/styles.xml`: for each cell style (`cellXfs/xf`), whether it shows a date.
private final class StylesHandler: NSObject, XMLParserDelegate {
  var dateStyles: [Bool] = []
  private var customDateFormats: Set<Int> = []
  private var inCellXfs = false

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch localName(name) {
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

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    if localName(name) == "cellXfs" { inCellXfs = false }
  }
}

/// A worksheet: its rows as text, each cell placed by its reference (`C5`), gaps empty.
private final class SheetHandler: NSObject, XMLParserDelegate {
  var rows: [TableCatalogReader.Row] = []
  private let shared: [String]
  private let dateStyles: [Bool]
  private let date1904: Bool

  private var cells: [String] = []
  private var rowNumber = 0
  private var column = 0
  private var type = ""
  private var style = 0
  private var text = ""
  private var collecting = false
  private var inCell = false

  init(shared: [String], dateStyles: [Bool], date1904: Bool) {
    self.shared = shared
    self.dateStyles = dateStyles
    self.date1904 = date1904
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch localName(name) {
    case "row":
      cells = []
      rowNumber = attributes["r"].flatMap(Int.init) ?? (rowNumber + 1)
    case "c":
      inCell = true
      type = attributes["t"] ?? "n"
      style = attributes["s"].flatMap(Int.init) ?? 0
      column = attributes["r"].flatMap(Self.columnIndex) ?? cells.count
      text = ""
    case "v", "t":
      collecting = inCell
    default: break
    }
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    switch localName(name) {
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
      rows.append(TableCatalogReader.Row(line: rowNumber, cells: cells))
    default: break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if collecting { text += string }
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    if collecting { text += String(decoding: CDATABlock, as: UTF8.self) }
  }

  private func value() -> String {
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
