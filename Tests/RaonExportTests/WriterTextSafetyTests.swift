import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// Whatever text the writers are given (an older store
/// may hold controls), the workbook's XML stays valid and the Markdown carries no control
/// bytes; CP949 writes a dash for the dashes of Raon's labels.
@Suite struct WriterTextSafetyTests {
  /// A report whose programs carry what normalisation would now have replaced, as a store
  /// written by an older Raon can hold: U+000B in a category (it reaches chart1.xml's
  /// cached categories), U+FFFE/U+FFFF in a title, ESC/BEL in a place.
  static var hostileReport: TestReport {
    var programs = XLSXFixtures.programs
    for i in programs.indices {
      programs[i].category = i % 2 == 0 ? "전시\u{0B}미술" : "연극\u{1F}"
      programs[i].title += " \u{FFFE}\u{FFFF}"
      programs[i].place = "장소\u{1B}[31m\u{07}"
    }
    let base = XLSXFixtures.report
    let figures = ReportData(
      snapshot: base.snapshot, compareTo: base.compareTo, week: base.week, programs: programs,
      tables: XLSXFixtures.tables(programs), thisWeek: base.thisWeek,
      compareTables: base.compareTables, compareWeek: base.compareWeek, changes: base.changes)
    return TestReport(figures, programs: programs)
  }

  @Test func theWorkbookStaysValidXMLWhateverTextItIsGiven() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-xlsx")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try XLSXReportWriter().write(Self.hostileReport, into: dir, options: ExportOptions())
    let bad = try TestInspection.python(
      """
      import sys, zipfile, json, xml.etree.ElementTree as ET
      bad = []
      with zipfile.ZipFile(sys.argv[1]) as z:
          for name in z.namelist():
              if name.endswith(".xml"):
                  try:
                      ET.fromstring(z.read(name))
                  except ET.ParseError as e:
                      bad.append(name)
      print(json.dumps(bad))
      """, [dir.appendingPathComponent("report.xlsx").path])
    #expect(bad == "[]", "invalid XML parts: \(bad)")
  }

  @Test func theMarkdownCarriesNoControlBytes() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-md")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try MarkdownReportWriter().write(Self.hostileReport, into: dir, options: ExportOptions())
    let bytes = try Data(contentsOf: dir.appendingPathComponent("report.md"))
    let controls = Set(bytes.filter { $0 < 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
    #expect(controls.isEmpty, "\(controls.sorted())")
    #expect(MarkdownText.inline("a\u{1B}[2Jb\u{07}") == "a\u{FFFD}\\[2Jb\u{FFFD}")
  }

  @Test func cp949WritesADashForTheDashesOfLabels() throws {
    let converter = try CP949Converter()
    let bytes = converter.convert(Array("2–7 days − 3 — 끝".utf8))
    #expect(bytes == Array("2-7 days - 3 ".utf8) + [0xA1, 0xAA, 0x20, 0xB3, 0xA1])
    #expect(converter.replacements == 0)
  }
}
