import CXlsxDeflate
import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonExport

/// The workbook's ZIP is deflated at ``XLSXWorkbook/deflateLevel``, which libxlsxwriter
/// does not expose (`Sources/CXlsxDeflate`): checked from the file itself, by Python's zlib
/// deflating each part again at that level and at the library's own (6).
@Suite("XLSX deflate level")
struct XLSXDeflateTests {
  @Test func everyPartOfAWorkbookIsDeflatedAtRaonsLevel() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-deflate")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try XLSXReportWriter().write(XLSXFixtures.report, into: dir, options: ExportOptions())
    let script = """
      import sys, zipfile, zlib
      def size(data, level):
          c = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
          return len(c.compress(data) + c.flush())
      level = int(sys.argv[2])
      same = other = differs = 0
      with zipfile.ZipFile(sys.argv[1]) as z:
          for info in z.infolist():
              data = z.read(info)
              same += size(data, level) == info.compress_size
              other += size(data, 6) == info.compress_size
              differs += size(data, level) != size(data, 6)
          print(len(z.infolist()), same, other, differs)
      """
    let out = try TestInspection.python(
      script, [dir.appendingPathComponent("report.xlsx").path, String(XLSXWorkbook.deflateLevel)])
    let figures = out.split(separator: " ").compactMap { Int($0) }
    try #require(figures.count == 4, "\(out)")
    let (parts, atRaons, atSix, telling) = (figures[0], figures[1], figures[2], figures[3])
    // Parts where the two levels give different sizes tell them apart; there must be some.
    #expect(telling > 0)
    #expect(atRaons == parts, "\(out)")
    #expect(atSix == parts - telling, "\(out)")
    #expect(raon_xlsx_deflate_level() == XLSXWorkbook.deflateLevel)
  }
}
