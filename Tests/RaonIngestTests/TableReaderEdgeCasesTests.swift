import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

/// Issue 27, items 1, 12, 13 and 14, at the readers: HTML-table `.xls` files cut short or
/// holding CDATA, workbooks declaring a DTD, lines of bare commas, decomposed district names.
@Suite struct TableReaderEdgeCasesTests {
  static let head = "<tr><th>분류</th><th>자치구</th><th>공연/행사명</th><th>장소</th><th>문화포털상세URL</th></tr>"

  static func row(_ n: Int) -> String {
    "<tr><td>전시/미술</td><td>마포구</td><td>전시 \(n)</td><td>미술관</td>"
      + "<td>https://culture.seoul.go.kr/view.do?cultcode=\(700_000 + n)</td></tr>\n"
  }

  static func table(_ count: Int) -> String {
    "<html><body><table>\n" + head + "\n" + (1...count).map(row).joined() + "</table></body></html>\n"
  }

  func refusal(_ text: String) -> SpreadsheetError? {
    do {
      let batch = try HTMLTableReader.read(text, source: "cut.xls")
      Issue.record("read \(batch.records.count) records")
      return nil
    } catch let error as SpreadsheetError {
      return error
    } catch {
      Issue.record("\(error)")
      return nil
    }
  }

  // MARK: - Item 14

  /// A whole table still reads (the fixture the cut files are made from).
  @Test func aWholeTableReadsEveryRow() throws {
    #expect(try HTMLTableReader.read(Self.table(100), source: "t.xls").records.count == 100)
  }

  /// Item 14: a file cut mid-row recorded the partial last row with exit 0. Now it is
  /// refused on one line naming the file, the line where the cut row starts, and what to do.
  @Test func aTableCutMidRowIsRefusedWithWhereItWasCut() throws {
    let whole = Self.table(100)
    // Cut inside row 60's third cell, and right after a row's end (no </table>).
    let rowStart = try #require(whole.range(of: "전시 60")).lowerBound
    let tableEnd = try #require(whole.range(of: "</table>")).lowerBound
    let cuts: [(String, Int?)] = [
      (String(whole[..<rowStart]), 62), (String(whole[..<tableEnd]), nil),
    ]
    for (cut, line) in cuts {
      guard let error = refusal(cut) else { continue }
      let text = error.description
      #expect(text.hasPrefix("cut.xls:"), "\(text)")
      if let line { #expect(text.hasPrefix("cut.xls:\(line):"), "\(text)") }
      #expect(text.contains("cut short") && text.contains("download the catalog again"), "\(text)")
      #expect(!text.contains("\n"))
    }
    // Cut inside a tag.
    let tag = String(whole[..<(try #require(whole.range(of: "<td>전시 42"))).lowerBound]) + "<td class=\"x"
    #expect(refusal(tag)?.description.contains("cut short") == true)
  }

  /// Item 14: an unterminated `<!--` silently kept the rows before it (11 of 100).
  @Test func anUnterminatedCommentIsRefused() throws {
    let whole = Self.table(100)
    let at = try #require(whole.range(of: "<tr><td>전시/미술</td><td>마포구</td><td>전시 12<")).lowerBound
    let text = String(whole[..<at]) + "<!-- note " + String(whole[at...])
    let error = refusal(text)
    #expect(error?.description.contains("<!--") == true, "\(String(describing: error))")
    #expect(error?.description.hasPrefix("cut.xls:14:") == true, "\(String(describing: error))")
  }

  /// Item 14: a CDATA section holding `<tr>` became a program. Now its content is the
  /// cell's text, markup and all.
  @Test func cdataIsTextNotMarkup() throws {
    let text = Self.table(3).replacingOccurrences(
      of: "<td>전시 2</td>", with: "<td>전시 <![CDATA[</td></tr><tr><td>a & b]]></td>")
    let batch = try HTMLTableReader.read(text, source: "t.xls")
    #expect(batch.records.count == 3)
    #expect(batch.records[1][.title] == "전시 </td></tr><tr><td>a & b")
    let unclosed = Self.table(3).replacingOccurrences(of: "<td>전시 2</td>", with: "<td><![CDATA[전시 2</td>")
    #expect(refusal(unclosed)?.description.contains("CDATA") == true)
  }

  // MARK: - Item 13

  /// Item 13: rows of empty cells are skipped and counted in the file's warnings.
  @Test func emptyRowsAreSkippedAndCountedInEveryTableReader() throws {
    let html = Self.table(4).replacingOccurrences(
      of: Self.row(2), with: Self.row(2) + "<tr><td> </td><td></td><td>&nbsp;</td><td></td><td></td></tr>\n")
    let batch = try CatalogFileReader.read(Data(html.utf8), name: "t.xls")
    #expect(batch.records.count == 4)
    #expect(batch.warnings.contains("t.xls: 1 empty row skipped (every field blank; no program recorded for it)"), "\(batch.warnings)")

    let csv = "분류,자치구,공연/행사명,장소,문화포털상세URL\n,,,,\na,마포구,t,p,u?cultcode=1\n\"\", ,,\t,\n"
    let read = try CatalogFileReader.read(Data(csv.utf8), name: "c.csv")
    #expect(read.records.count == 1)
    #expect(read.sourceTotal == 1)
    #expect(read.warnings.contains("c.csv: 2 empty rows skipped (every field blank; no program recorded for them)"))

    let json = #"[{"분류":"a","자치구":"마포구","공연/행사명":"t","장소":"p"},{},{"분류":" ","자치구":null}]"#
    let rows = try CatalogFileReader.read(Data(json.utf8), name: "j.json")
    #expect(rows.records.count == 1)
    #expect(rows.warnings.contains("j.json: 2 empty rows skipped (every field blank; no program recorded for them)"))
  }

  // MARK: - Item 12

  /// Item 12: a decomposed district in the data is read as the composed name.
  @Test func aDecomposedDistrictIsSpelledComposed() {
    let nfd = "강남구".decomposedStringWithCanonicalMapping
    #expect(District.canonical(nfd).map { Array($0.utf8) } == Array("강남구".utf8))
    #expect(District.canonical("서울 " + nfd).map { Array($0.utf8) } == Array("강남구".utf8))
    #expect(District.named(nfd).map { Array($0.utf8) } == Array("강남구".utf8))
    #expect(District.named("강남") == nil)
  }

  // MARK: - Item 1: what the streaming reader still refuses

  /// A workbook part that declares a DTD (the start of XXE and entity bombs) is refused
  /// on one line, and no file it names is read.
  @Test func aWorkbookPartDeclaringADTDIsRefused() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h3-dtd")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("xxe.xlsx").path
    let made = try Python.run([
      "-c",
      #"""
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="s" sheetId="1"/></sheets></workbook>')
    z.writestr("xl/sharedStrings.xml", '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]><sst><si><t>&x;</t></si></sst>')
    z.writestr("xl/worksheets/sheet1.xml", '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>')
"""#, path,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    do {
      _ = try CatalogFileReader.read(URL(fileURLWithPath: path))
      Issue.record("read")
    } catch let error as SpreadsheetError {
      let text = error.description
      #expect(text.contains("xl/sharedStrings.xml") && text.contains("DTD"), "\(text)")
      #expect(!text.contains("root:") && !text.contains("\n"))
    }
  }

  /// Malformed XML is still named by part, line and column.
  @Test func malformedXMLIsNamedByPartAndPlace() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h3-bad")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("bad.xlsx").path
    let made = try Python.run([
      "-c",
      #"""
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook><sheets><sheet name="s" sheetId="1"/></sheets></workbook>')
    z.writestr("xl/worksheets/sheet1.xml", '<?xml version="1.0"?>\n<worksheet><sheetData>\n<row r="1"><c r="A1" t="inlineStr"><is><t>x</is></c></row></sheetData></worksheet>')
"""#, path,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    #expect(throws: SpreadsheetError.self) { try CatalogFileReader.read(URL(fileURLWithPath: path)) }
    do {
      _ = try CatalogFileReader.read(URL(fileURLWithPath: path))
    } catch {
      let text = String(describing: error)
      #expect(text.contains("xl/worksheets/sheet1.xml") && text.contains("malformed XML near line 3"), "\(text)")
    }
  }
}
