import Foundation
import RaonConcurrency
import RaonExport
import TestSupport
import Testing

@testable import RaonWorkflow

/// The PDF post-step's browser: whoever creates a session closes it; a job lent one only
/// prints with it (a report's browser serves the city report and every pack).
@Suite(.serialized) struct PDFJobTests {
  @Test func aLentBrowserIsLeftRunningForItsOwnerToClose() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-job")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.good, in: dir, record: record)
    let session = ChromiumSession(printer: ChromiumPrinter(executable: fake, timeout: 30), concurrency: 2)
    session.start()
    let pid = try #require(FakeChromium.record(record)["pid"].flatMap { Int32($0) })
    let staging = OutputPublisher.Staging(target: dir.appendingPathComponent("out"), folder: dir)
    let jobs = (0..<2).map { PrintJob(html: "<p>\($0)</p>", destination: dir.appendingPathComponent("\($0).pdf")) }

    try PDFJob.print(jobs, with: session, variables: [:], into: staging)
    try PDFJob.print(jobs, with: session, variables: [:], into: staging)
    #expect(FakeChromium.isRunning(pid), "the job closed a browser it was lent")
    #expect(FakeChromium.record(record)["pid"].flatMap { Int32($0) } == pid, "a second browser was started")
    for i in 0..<2 { #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(i).pdf").path)) }

    session.close()
    let stopped = Polling.until(timeout: 5, every: 0.1) { !FakeChromium.isRunning(pid) }
    #expect(stopped, "the owner's close left the browser \(pid) running")
  }
}
