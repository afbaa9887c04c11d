import CXlsxWriter
import Foundation
import TestSupport
import Testing

/// Proves the system library links and works: a tiny workbook through the raw C API,
/// read back by an independent reader (openpyxl).
@Suite("CXlsxWriter link")
struct CXlsxWriterLinkTests {
  @Test func rawCAPIWritesAWorkbookOpenpyxlCanRead() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-link")
    let file = dir.appendingPathComponent("link.xlsx")
    let version = String(cString: lxw_version())
    #expect(version.hasPrefix("1."))
    let workbook = try #require(file.path.withCString { workbook_new($0) })
    let sheet = try #require(workbook_add_worksheet(workbook, "시트"))
    #expect(worksheet_write_string(sheet, 0, 0, "안녕하세요", nil) == LXW_NO_ERROR)
    #expect(worksheet_write_number(sheet, 1, 0, 42.5, nil) == LXW_NO_ERROR)
    #expect(workbook_close(workbook) == LXW_NO_ERROR)

    let check = try XLSXCheck(file)
    #expect(check.sheets == ["시트"])
    #expect(check.text("시트", 0, 0) == "안녕하세요")
    #expect(check.number("시트", 1, 0) == 42.5)
  }
}
