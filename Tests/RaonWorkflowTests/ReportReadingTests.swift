import Foundation
import RaonCore
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// A report of a snapshot read from the store chunk by chunk (as a catalog over
/// ``SnapshotReading/inMemoryLimit`` is) is byte for byte the report of the same snapshot
/// held in memory: every file, the workbook included.
@Suite struct ReportReadingTests {
  @Test func aReportReadInChunksIsTheReportHeldInMemory() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-reading")
    defer { try? FileManager.default.removeItem(at: dir) }
    let modified = dir.appendingPathComponent("modified.csv").path
    let made = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, modified,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let environment = RaonEnvironment(
      now: { Date(timeIntervalSince1970: 1_726_000_000) }, variables: [:], workingDirectory: dir)
    _ = try SnapshotJob(store: store, environment: environment).recordSample()

    var request = ReportRequest()
    request.inputs = [modified]
    request.compareTo = "previous"
    request.out = "memory"
    let memory = try await ReportJob(store: store, storePath: "store.sqlite", environment: environment)
      .run(request)
    #expect(memory.changed ?? 0 > 0 && memory.added ?? 0 > 0 && memory.removed ?? 0 > 0)

    var chunked = ReportJob(store: store, storePath: "store.sqlite", environment: environment)
    chunked.inMemoryLimit = 0
    chunked.chunkSize = 700  // several chunks, the last one short
    request.inputs = []
    request.snapshot = String(memory.snapshot.id)
    request.out = "chunks"
    let fromStore = try await chunked.run(request)
    #expect(fromStore.files == memory.files)
    #expect((fromStore.added, fromStore.removed, fromStore.changed) == (memory.added, memory.removed, memory.changed))
    for file in memory.files {
      let a = try Data(contentsOf: dir.appendingPathComponent("memory/\(file)"))
      let b = try Data(contentsOf: dir.appendingPathComponent("chunks/\(file)"))
      #expect(a == b, "\(file) differs between the in-memory and the chunked report")
    }
  }
}
