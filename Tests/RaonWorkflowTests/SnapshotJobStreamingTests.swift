import Foundation
import RaonCore
import RaonIngest
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// A large file is read, normalised and encoded on one thread while the chunks before
/// are inserted on another: a fault late in the file still records nothing.
@Suite struct SnapshotJobStreamingTests {
  /// The sample's rows five times over (24,990 rows: three chunks), then `tail`.
  static func largeCatalog(tail: String) throws -> Data {
    let sample = try Data(contentsOf: Fixtures.sampleCSV)
    let headerEnd = try #require(sample.firstIndex(of: UInt8(ascii: "\n")))
    var body = sample[(headerEnd + 1)...]
    if body.last != UInt8(ascii: "\n") { body.append(contentsOf: Array("\r\n".utf8)) }
    var data = Data(sample[...headerEnd])
    for _ in 0..<5 { data.append(body) }
    data.append(contentsOf: Array(tail.utf8))
    return data
  }

  @Test func aFaultAfterSeveralChunksRecordsNothing() throws {
    #expect(SnapshotJob.chunkSize < 4_998 * 5, "the file spans several chunks")
    let dir = try Fixtures.temporaryDirectory("raon-streaming")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let job = SnapshotJob(store: store, environment: RaonEnvironment(workingDirectory: dir))
    _ = try job.recordSample()
    let before = try store.statistics()

    let broken = dir.appendingPathComponent("broken.csv")
    try Self.largeCatalog(tail: "\"an open quote,x\r\n").write(to: broken)
    #expect {
      _ = try job.recordFiles([broken.path], takenAt: nil)
    } throws: { error in
      guard case .unterminatedQuote(_, let line, _)? = error as? CSVCatalogError else { return false }
      return line == 4_998 * 5 + 2
    }
    #expect(try store.snapshots().count == 1)
    #expect(try store.statistics().versionCount == before.versionCount)
    #expect(try store.integrityCheck() == ["ok"])

    // The same rows without the fault: one snapshot of every row, all in one.
    let whole = dir.appendingPathComponent("whole.csv")
    try Self.largeCatalog(tail: "").write(to: whole)
    let recorded = try job.recordFiles([whole.path], takenAt: nil)
    #expect(recorded.map(\.programCount) == [4_998 * 5])
    #expect(try store.programs(inSnapshot: recorded[0].id).count == 4_998 * 5)
  }
}
