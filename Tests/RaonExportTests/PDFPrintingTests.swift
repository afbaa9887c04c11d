import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// The PDF post-step: the pages a run's writers queued, printed by one printer as many at
/// once as it can take.
@Suite struct PDFPrintingTests {
  /// Prints a page as its HTML's bytes after a pause, counting how many prints overlap.
  final class CountingPrinter: Printer {
    let concurrency: Int
    let failing: Set<String>
    private let state = Mutex((running: 0, most: 0, printed: [String]()))

    init(concurrency: Int, failing: Set<String> = []) {
      self.concurrency = concurrency
      self.failing = failing
    }

    struct Refused: Error, Equatable { var name: String }

    func print(html: String, name: String) throws -> Data {
      state.withLock {
        $0.running += 1
        $0.most = max($0.most, $0.running)
      }
      defer { state.withLock { $0.running -= 1 } }
      usleep(50_000)
      if failing.contains(html) { throw Refused(name: html) }
      state.withLock { $0.printed.append(html) }
      return Data("%PDF \(html)".utf8)
    }

    var most: Int { state.withLock { $0.most } }
    var printed: [String] { state.withLock { $0.printed } }
  }

  static func jobs(_ count: Int, in dir: URL) -> [PrintJob] {
    (0..<count).map { PrintJob(html: "page \($0)", destination: dir.appendingPathComponent("d\($0)/report.pdf")) }
  }

  @Test func everyPageIsPrintedIntoItsFileAsManyAtOnceAsThePrinterTakes() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-printing")
    defer { try? FileManager.default.removeItem(at: dir) }
    let printer = CountingPrinter(concurrency: 3)
    try PDFPrinting.print(Self.jobs(7, in: dir), with: printer)
    #expect(printer.most == 3)
    #expect(Set(printer.printed) == Set((0..<7).map { "page \($0)" }))
    for i in 0..<7 {
      let written = try Data(contentsOf: dir.appendingPathComponent("d\(i)/report.pdf"))
      #expect(String(decoding: written, as: UTF8.self) == "%PDF page \(i)")
    }
  }

  @Test func aPrinterOfOnePagePrintsOneAtATimeInOrder() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-printing")
    defer { try? FileManager.default.removeItem(at: dir) }
    let printer = CountingPrinter(concurrency: 1)
    try PDFPrinting.print(Self.jobs(4, in: dir), with: printer)
    #expect(printer.most == 1)
    #expect(printer.printed == (0..<4).map { "page \($0)" })
  }

  @Test func theFirstFailingPagesErrorIsThrownAsThePrintersOwn() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-printing")
    defer { try? FileManager.default.removeItem(at: dir) }
    let printer = CountingPrinter(concurrency: 2, failing: ["page 1", "page 2"])
    #expect(throws: CountingPrinter.Refused(name: "page 1")) {
      try PDFPrinting.print(Self.jobs(6, in: dir), with: printer)
    }
  }

  /// The writer renders the HTML writer's page and queues it; it prints nothing itself.
  @Test func thePDFWriterQueuesTheHTMLPageItWouldPrint() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-printing")
    defer { try? FileManager.default.removeItem(at: dir) }
    let report = TextExportFixture.report
    let written = try PDFReportWriter().write(.report(report.weekly()), into: dir, options: ExportOptions())
    #expect(written.files == ["report.pdf"])
    #expect(written.printing.map(\.destination) == [dir.appendingPathComponent("report.pdf")])
    #expect(written.printing.map(\.html) == [try HTMLReportWriter().render(report, options: ExportOptions())])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// html and pdf asked together: the page is rendered once, and the PDF is queued from the
  /// page `report.html` holds (a counting stand-in for the renderer).
  @Test(arguments: [[ReportFormat.html, .pdf], [.pdf, .html], [.pdf], [.html]])
  func htmlAndPDFShareOneRenderOfThePage(formats: [ReportFormat]) throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-printing")
    defer { try? FileManager.default.removeItem(at: dir) }
    let report = TextExportFixture.report
    var renders = 0
    let results = ReportFormat.render(formats, .report(report.weekly()), into: dir, options: ExportOptions()) {
      renders += 1
      return HTMLReportWriter().page($0)
    }
    #expect(renders == 1)
    let page = try HTMLReportWriter().render(report, options: ExportOptions())
    if formats.contains(.html) {
      #expect(try results[.html]?.get().files == ["report.html"])
      #expect(try String(contentsOf: dir.appendingPathComponent("report.html"), encoding: .utf8) == page)
    }
    if formats.contains(.pdf) {
      let queued = try #require(try results[.pdf]?.get())
      #expect(queued.files == ["report.pdf"])
      #expect(queued.printing.map(\.html) == [page])
      #expect(queued.printing.map(\.destination) == [dir.appendingPathComponent("report.pdf")])
    }
  }
}
