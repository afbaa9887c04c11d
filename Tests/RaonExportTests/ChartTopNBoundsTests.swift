import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// A chart's top-N is bounded whoever builds the options, so no sum
/// made from it traps (the workbook used to trap on `Int.max`).
@Suite struct ChartTopNBoundsTests {
  @Test(arguments: [Int.max, Int.min, -1, 0, 1_000_000])
  func extremeTopNWritesAWorkbook(n: Int) throws {
    let options = ExportOptions(chartTopN: n)
    #expect((0...ExportOptions.chartTopNLimit).contains(options.chartTopN))
    let dir = try Fixtures.temporaryDirectory("raon-h2-topn")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try XLSXReportWriter().write(XLSXFixtures.report, into: dir, options: options)
    _ = try MarkdownReportWriter().write(XLSXFixtures.report, into: dir, options: options)
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("report.xlsx").path))
  }
}
