import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

/// Every shape the national standard data comes in (issue 36): the portal's CSV (CP949,
/// UTF-8 with or without BOM), a workbook, the JSON download (`fields` + `records`), pages
/// of its Open API kept as files (JSON, XML), and an HTML table under an .xls name — each
/// read to the same records as the real CSV; and a file of one catalog refused as the
/// other's.
@Suite("National data shapes")
struct NationalShapesTests {
  /// The real download, read as the national catalog.
  static func real() throws -> CatalogBatch {
    try CatalogFileReader.read(Fixtures.nationalCSV, profile: .national)
  }

  /// The records' values by field meaning, for comparing shapes whose labels differ.
  static func values(_ batch: CatalogBatch, fields: [CanonicalField] = CatalogProfile.national.fields.map(\.field)) -> [[String]] {
    batch.records.map { record in fields.map { CatalogText.trimmed(record[$0] ?? "") } }
  }

  @Test func theRealDownloadReadsWholeWithNoWarning() throws {
    let batch = try Self.real()
    #expect(batch.records.count == 7_617)
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    let names = try #require(batch.records.first?.names)
    #expect(names.fields == Set(CatalogProfile.national.expected))
    #expect(batch.inputSHA256 == "ee098d2223d7f2f0e631828628540d5c675a37bf57d8b0d1e9f2df1e46c5bb09")
  }

  @Test func aFileOfOneCatalogIsRefusedAsTheOthers() throws {
    #expect(throws: CatalogFileError.otherCatalog(path: Fixtures.nationalCSV.lastPathComponent, found: .national, asked: .seoul)) {
      try CatalogFileReader.read(Fixtures.nationalCSV)
    }
    #expect(throws: CatalogFileError.otherCatalog(path: Fixtures.sampleCSV.lastPathComponent, found: .seoul, asked: .national)) {
      try CatalogFileReader.read(Fixtures.sampleCSV, profile: .national)
    }
    let message = CatalogFileError.otherCatalog(path: "a.csv", found: .national, asked: .seoul).description
    #expect(message.contains("--catalog national") && !message.contains("\n"))
    // The streaming path refuses it before a record goes anywhere.
    var delivered = 0
    #expect(throws: CatalogFileError.self) {
      _ = try CatalogFileReader.forEachChunk(Fixtures.nationalCSV, chunkSize: 100) { delivered += $0.count }
    }
    #expect(delivered == 0)
  }

  /// Writes the real CSV in another shape with Python and reads it back.
  static func converted(_ script: String, _ name: String, rows: Int = 400) throws -> (CatalogBatch, [[String]]) {
    let dir = try Fixtures.temporaryDirectory("raon-national-shapes")
    let out = dir.appendingPathComponent(name)
    let code = """
      import csv, io, json, sys
      text = open(sys.argv[1], "rb").read().decode("cp949", errors="replace")
      table = list(csv.reader(io.StringIO(text, newline="")))
      header, rows = table[0], table[1:1 + int(sys.argv[3])]
      out = sys.argv[2]
      \(script)
      """
    let file = dir.appendingPathComponent("convert.py")
    try code.write(to: file, atomically: true, encoding: .utf8)
    let run = try Python.run([file.path, Fixtures.nationalCSV.path, out.path, String(rows)])
    guard run.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: run.stderr]) }
    let batch = try CatalogFileReader.read(out, profile: .national)
    let expected = Array(try values(real()).prefix(rows))
    return (batch, expected)
  }

  @Test(arguments: [
    ("utf8-bom.csv", #"open(out, "w", encoding="utf-8-sig", newline="").write("".join(",".join('"' + c.replace('"', '""') + '"' for c in r) + "\r\n" for r in [header] + rows))"#),
    ("utf8.csv", #"csv.writer(open(out, "w", encoding="utf-8", newline="")).writerows([header] + rows)"#),
    ("download.json", #"json.dump({"fields": [{"id": h} for h in header], "records": [dict(zip(header, r)) for r in rows]}, open(out, "w", encoding="utf-8"), ensure_ascii=False)"#),
    ("table.xls", #"open(out, "w", encoding="utf-8").write("<html><meta charset='utf-8'><table><tr>" + "".join("<th>%s</th>" % h for h in header) + "</tr>" + "".join("<tr>" + "".join("<td>%s</td>" % c.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") for c in r) + "</tr>" for r in rows) + "</table></html>")"#),
    ("workbook.xlsx", #"import openpyxl; wb = openpyxl.Workbook(); ws = wb.active; [ws.append(r) for r in [header] + rows]; wb.save(out)"#),
  ])
  func everyExportShapeReadsTheSameRows(name: String, script: String) throws {
    let (batch, expected) = try Self.converted(script, name)
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    var actual = Self.values(batch)
    if name == "table.xls" {
      // An HTML table collapses white space inside a cell (as a browser shows it).
      let collapse = { (s: String) in s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
      actual = actual.map { $0.map(collapse) }
      #expect(actual == expected.map { $0.map(collapse) })
    } else {
      #expect(actual == expected)
    }
  }

  /// The real rows with the Open API's keys.
  static func apiRows(_ count: Int) throws -> [[(key: String, value: String)]] {
    let batch = try real()
    return batch.records.prefix(count).map { record in
      CatalogProfile.national.fields.map { field in (field.apiKey, record[field.field] ?? "") }
    }
  }

  @Test func aPageOfTheOpenAPIKeptAsAFileReadsInJSONAndXML() async throws {
    let rows = try Self.apiRows(30)
    let dir = try Fixtures.temporaryDirectory("raon-national-pages")
    let server = try await LoopbackPortalServer.start(key: "K", rows: rows)
    for type in ["json", "xml"] {
      let url = try #require(URL(string: "\(server.baseURL.absoluteString)/\(server.operation)?serviceKey=K&pageNo=1&numOfRows=30&type=\(type)"))
      let data = Data(try await URLSessionTransport().get(url, timeout: 60).body)
      let file = dir.appendingPathComponent("page.\(type)")
      try data.write(to: file)
      if type == "json" {
        let batch = try CatalogFileReader.read(file, profile: .national)
        #expect(Self.values(batch) == Array(try Self.values(Self.real()).prefix(30)))
      } else {
        let page = try #require(PortalAPIPage.readXML(Array(data), source: "page.xml", firstRow: 1))
        #expect(page.totalCount == 30 && page.resultCode == "00")
        let batch = CatalogBatch(source: "page.xml", sourceTotal: 30, records: page.records)
        #expect(Self.values(batch) == Array(try Self.values(Self.real()).prefix(30)))
      }
    }
    await server.stop()
  }

  @Test func aBinaryExcelFileIsRefusedWithAdvice() throws {
    // The portal's own exports of this dataset are CSV and JSON; a binary .xls that an
    // office saved is refused in one line that says what to do (docs/NATIONAL.md).
    let dir = try Fixtures.temporaryDirectory("raon-national-xls")
    let file = dir.appendingPathComponent("old.xls")
    var bytes: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    bytes += [UInt8](repeating: 0, count: 504)
    try Data(bytes).write(to: file)
    #expect(throws: SpreadsheetError.binaryExcel(source: "old.xls")) {
      try CatalogFileReader.read(file, profile: .national)
    }
  }
}

