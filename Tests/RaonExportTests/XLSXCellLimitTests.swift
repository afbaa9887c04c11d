import CXlsxWriter
import Foundation
import Testing
import TestSupport

@testable import RaonExport

/// Issue 37, major 4: every text a sheet writes — not only the programs table's — is cut to
/// Excel's 32,767 characters and counted, so no value fails the workbook (a long category
/// did: "XLSX: writing text at E7 … this is a bug in Raon's XLSX writer").
@Suite struct XLSXCellLimitTests {
  @Test func everyTextCellIsCutToExcelsLimitAndCounted() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-cells")
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("cells.xlsx")
    let workbook = try XLSXWorkbook(url: url, zip64: false)
    let sheet = try workbook.addSheet("분류별")
    let long = String(repeating: "가", count: 40_000)
    try sheet.string(0, 0, long)
    try sheet.string(1, 0, String(repeating: "a", count: 32_767))  // at the limit: kept whole
    #expect(sheet.link(2, 0, "https://culture.seoul.go.kr/", text: long) == LXW_NO_ERROR)
    #expect(workbook.cutTextCells == 2)
    try workbook.close()
    let lengths = try TestInspection.python(
      """
      import openpyxl, sys
      ws = openpyxl.load_workbook(sys.argv[1]).active
      print(",".join(str(len(ws.cell(row=r, column=1).value)) for r in (1, 2, 3)))
      """, [url.path])
    #expect(lengths.trimmingCharacters(in: .whitespacesAndNewlines) == "32767,32767,32767")
  }
}
