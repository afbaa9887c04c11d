import Foundation
import RaonCore

/// Turns the rows of a table (a workbook's sheet, an HTML table) into raw records with
/// the CSV's rules: the first non-blank row is the header (it must carry the catalog's
/// required columns), blank rows are skipped, a short row is padded with empty fields and
/// a long one keeps its extra values as `_extra_1`, `_extra_2`, ….
public enum TableCatalogReader {
  /// One row of a table and where it is (1-based row number).
  public struct Row: Sendable {
    public var line: Int
    public var cells: [String]

    public init(line: Int, cells: [String]) {
      self.line = line
      self.cells = cells
    }
  }

  /// - Throws: ``SpreadsheetError/emptySheet(source:)`` when no row has text, or
  ///   ``CSVCatalogError/missingColumns(source:missing:header:)``.
  public static func read(_ rows: [Row], source: String) throws -> CatalogBatch {
    var builder = Builder(source: source)
    for row in rows { try builder.add(row) }
    return try builder.batch()
  }

  /// Turns rows into records one at a time, as a sheet's rows arrive.
  struct Builder {
    let source: String
    private var header: FieldNames?
    private var widths = RecordWidths()
    private var records: [RawRecord] = []
    /// Rows after the header with cells that are all blank (skipped).
    private var emptyRows = 0

    init(source: String) { self.source = source }

    mutating func add(_ row: Row) throws {
      if row.cells.allSatisfy({ CatalogText.trimmed($0).isEmpty }) {
        if header != nil, !row.cells.isEmpty { emptyRows += 1 }
        return
      }
      guard let names = header else {
        let names = FieldNames(row.cells)
        // A header must be some catalog's; which one the caller asked for is checked
        // once the file is read (``CatalogFileReader``).
        guard CatalogProfile.detect(names.fields) != nil else {
          let missing = CatalogProfile.closest(names.fields).missing
          throw CSVCatalogError.missingColumns(
            source: source, missing: missing,
            header: names.names.map { MessageText.printable($0) })
        }
        header = names
        return
      }
      var values: [String?] = row.cells
      let recordNames = widths.fit(&values, to: names)
      records.append(
        RawRecord(
          names: recordNames, values: values, location: SourceLocation(source: source, line: row.line)))
    }

    /// The records read.
    func batch() throws -> CatalogBatch {
      guard header != nil else { throw SpreadsheetError.emptySheet(source: source) }
      var batch = CatalogBatch(source: source, sourceTotal: records.count, records: records)
      batch.emptyRecordsSkipped = emptyRows
      return batch
    }
  }
}

/// Reads a catalog saved as an HTML table (some portals serve that under an `.xls` name):
/// the first `<table>`'s rows, `<th>` and `<td>` cells, tags inside a cell dropped,
/// `<br>` as a line break, character references decoded, white space collapsed, a CDATA
/// section's content taken as text.
///
/// A file that ends inside the table (no `</table>`), a tag, a comment or a CDATA section
/// was cut short: it is refused, as a CSV cut mid-record is, rather than read in part.
public enum HTMLTableReader {
  /// - Throws: ``SpreadsheetError/noTable(source:)``,
  ///   ``SpreadsheetError/cutShort(source:line:inside:)``, or what ``TableCatalogReader``
  ///   throws.
  public static func read(_ text: String, source: String) throws -> CatalogBatch {
    let scalars = Array(text.unicodeScalars)
    var rows: [TableCatalogReader.Row] = []
    var inTable = false
    var sawTable = false
    var row: [String]?
    var rowStart = 0
    var cell: String?
    var rowCount = 0
    var i = 0
    /// The 1-based line of scalar `index` (counted only for a message).
    func line(_ index: Int) -> Int {
      1 + scalars[..<min(index, scalars.count)].lazy.filter { $0 == "\n" }.count
    }
    func cut(_ at: Int, _ inside: String) -> SpreadsheetError {
      .cutShort(source: source, line: line(at), inside: inside)
    }
    func starts(_ literal: String, at index: Int) -> Bool {
      var k = index
      for scalar in literal.unicodeScalars {
        guard k < scalars.count, scalars[k] == scalar else { return false }
        k += 1
      }
      return true
    }
    /// The index of the next `terminator` at or after `from`, `nil` when there is none.
    func find(_ terminator: String, from: Int) -> Int? {
      var k = from
      while k < scalars.count {
        if starts(terminator, at: k) { return k }
        k += 1
      }
      return nil
    }
    func finishCell() {
      if let c = cell { row?.append(collapse(decodeEntities(c))) }
      cell = nil
    }
    func finishRow() {
      finishCell()
      if let r = row {
        rowCount += 1
        rows.append(TableCatalogReader.Row(line: rowCount, cells: r))
      }
      row = nil
    }
    while i < scalars.count {
      let c = scalars[i]
      if c == "<" {
        // A tag, a comment, a CDATA section or a declaration: find its end.
        if starts("<!--", at: i) {
          guard let end = find("-->", from: i + 4) else {
            throw cut(i, "a comment (<!-- is never closed)")
          }
          i = end + 3
          continue
        }
        if starts("<![CDATA[", at: i) {
          guard let end = find("]]>", from: i + 9) else {
            throw cut(i, "a CDATA section (<![CDATA[ is never closed)")
          }
          // Text, not markup; its `&` stays itself when the cell's references are decoded.
          let content = String(String.UnicodeScalarView(scalars[(i + 9)..<end]))
          if cell != nil { cell? += content.replacingOccurrences(of: "&", with: "&amp;") }
          i = end + 3
          continue
        }
        var j = i + 1
        var quote: Unicode.Scalar?
        while j < scalars.count {
          let d = scalars[j]
          if let q = quote {
            if d == q { quote = nil }
          } else if d == "\"" || d == "'" {
            quote = d
          } else if d == ">" {
            break
          }
          j += 1
        }
        guard j < scalars.count else { throw cut(i, "a tag (< is never closed by >)") }
        let inner = String(String.UnicodeScalarView(scalars[(i + 1)..<j]))
        let closing = inner.hasPrefix("/")
        let name = inner.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
        i = j + 1
        switch (name, closing) {
        case ("table", false):
          if sawTable && !inTable { i = scalars.count; continue }  // only the first table
          inTable = true
          sawTable = true
        case ("table", true):
          finishRow()
          inTable = false
          i = scalars.count  // only the first table
        case ("tr", false) where inTable:
          finishRow()
          row = []
          rowStart = i
        case ("tr", true) where inTable: finishRow()
        case ("td", false) where inTable, ("th", false) where inTable:
          finishCell()
          if row == nil {
            row = []
            rowStart = i
          }
          cell = ""
        case ("td", true) where inTable, ("th", true) where inTable: finishCell()
        case ("br", _) where cell != nil: cell? += "\n"
        case ("script", false), ("style", false):
          // Skip to the closing tag.
          let end = "</\(name)"
          var k = i
          while k < scalars.count {
            if scalars[k] == "<",
              String(String.UnicodeScalarView(scalars[k..<min(k + end.unicodeScalars.count, scalars.count)]))
                .lowercased() == end
            {
              break
            }
            k += 1
          }
          guard k < scalars.count else { throw cut(i, "a <\(name)> element (it is never closed)") }
          i = k
        default: break
        }
        continue
      }
      if cell != nil { cell?.unicodeScalars.append(c) }
      i += 1
    }
    guard sawTable else { throw SpreadsheetError.noTable(source: source) }
    if inTable {
      // No `</table>`: whatever row was being read may be missing cells.
      throw row != nil
        ? cut(rowStart, "the table row that starts here (no </table> follows)")
        : cut(scalars.count, "the table (no </table> follows)")
    }
    return try TableCatalogReader.read(rows, source: source)
  }

  /// Collapses runs of white space (but keeps line breaks from `<br>`) and trims.
  static func collapse(_ text: String) -> String {
    var out = ""
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if scalar == "\n" && !out.isEmpty {
        out.unicodeScalars.append("\n")
        pendingSpace = false
      } else if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" || scalar == "\u{00A0}" {
        pendingSpace = !out.isEmpty && out.unicodeScalars.last != "\n"
      } else {
        if pendingSpace { out.unicodeScalars.append(" ") }
        pendingSpace = false
        out.unicodeScalars.append(scalar)
      }
    }
    return CatalogText.trimmed(out)
  }

  /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric references.
  static func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[rest.startIndex..<amp]
      let after = rest[rest.index(after: amp)...]
      if let semi = after.prefix(12).firstIndex(of: ";") {
        let name = String(after[after.startIndex..<semi])
        var decoded: String?
        switch name {
        case "amp": decoded = "&"
        case "lt": decoded = "<"
        case "gt": decoded = ">"
        case "quot": decoded = "\""
        case "apos": decoded = "'"
        case "nbsp": decoded = "\u{00A0}"
        default:
          if name.hasPrefix("#x") || name.hasPrefix("#X") {
            decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
          } else if name.hasPrefix("#") {
            decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
          }
        }
        if let decoded {
          out += decoded
          rest = after[after.index(after: semi)...]
          continue
        }
      }
      out += "&"
      rest = after
    }
    out += rest
    return out
  }
}
