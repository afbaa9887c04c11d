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
    var header: FieldNames?
    var widened: [Int: FieldNames] = [:]
    var records: [RawRecord] = []
    for row in rows {
      if row.cells.allSatisfy({ CatalogText.trimmed($0).isEmpty }) { continue }
      guard let names = header else {
        let names = FieldNames(row.cells)
        let missing = CanonicalField.required.filter { !names.fields.contains($0) }
        guard missing.isEmpty else {
          throw CSVCatalogError.missingColumns(
            source: source, missing: missing.map(\.koreanLabel),
            header: names.names.map { MessageText.printable($0) })
        }
        header = names
        continue
      }
      var values: [String?] = row.cells
      var recordNames = names
      let width = names.names.count
      if values.count < width {
        values.append(contentsOf: repeatElement("", count: width - values.count))
      } else if values.count > width {
        if let cached = widened[values.count] {
          recordNames = cached
        } else {
          let extra = (1...(values.count - width)).map { "\(CSVCatalogReader.extraFieldPrefix)\($0)" }
          recordNames = FieldNames(names.names + extra)
          widened[values.count] = recordNames
        }
      }
      records.append(
        RawRecord(
          names: recordNames, values: values, location: SourceLocation(source: source, line: row.line)))
    }
    guard header != nil else { throw SpreadsheetError.emptySheet(source: source) }
    return CatalogBatch(source: source, sourceTotal: records.count, records: records)
  }
}

/// Reads a catalog saved as an HTML table (some portals serve that under an `.xls` name):
/// the first `<table>`'s rows, `<th>` and `<td>` cells, tags inside a cell dropped,
/// `<br>` as a line break, character references decoded, white space collapsed.
public enum HTMLTableReader {
  /// - Throws: ``SpreadsheetError/noTable(source:)``, or what ``TableCatalogReader`` throws.
  public static func read(_ text: String, source: String) throws -> CatalogBatch {
    let scalars = Array(text.unicodeScalars)
    var rows: [TableCatalogReader.Row] = []
    var inTable = false
    var sawTable = false
    var row: [String]?
    var cell: String?
    var rowCount = 0
    var i = 0
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
        // A tag, a comment or a declaration: find its end.
        if i + 3 < scalars.count, scalars[i + 1] == "!", scalars[i + 2] == "-", scalars[i + 3] == "-" {
          var j = i + 4
          while j + 2 < scalars.count, !(scalars[j] == "-" && scalars[j + 1] == "-" && scalars[j + 2] == ">") {
            j += 1
          }
          i = j + 3
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
        let inner = String(String.UnicodeScalarView(scalars[(i + 1)..<min(j, scalars.count)]))
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
        case ("tr", true) where inTable: finishRow()
        case ("td", false) where inTable, ("th", false) where inTable:
          finishCell()
          if row == nil { row = [] }
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
          i = k
        default: break
        }
        continue
      }
      if cell != nil { cell?.unicodeScalars.append(c) }
      i += 1
    }
    finishRow()
    guard sawTable else { throw SpreadsheetError.noTable(source: source) }
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
