import Dispatch
import Foundation
import RaonCore
import Testing

@testable import RaonStore

@Suite("Two connections on one file")
struct ConcurrencyTests {
  @Test func twoStoresWritingAtOnceAreSerialised() throws {
    let (first, path, folder) = try temporaryStore("raon-concurrent")
    defer { remove(folder) }
    let second = try SnapshotStore(path: path)
    let stores = [first, second]
    // Each writer records its own catalog size, so every snapshot says who wrote it.
    let sizes = [120, 75]
    let perWriter = 6
    let collected = Collected()

    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for round in 0..<perWriter {
        let catalog = Dictionary(uniqueKeysWithValues: (0..<sizes[writer]).map { ($0, round % 2) })
        do {
          let info = try stores[writer].record(SyntheticCatalog.snapshot(catalog, day: round, source: "writer\(writer)"))
          collected.add(writer: writer, info: info)
        } catch {
          collected.fail("\(error)")
        }
      }
    }

    let (results, failures) = collected.values
    #expect(failures.isEmpty)
    #expect(results.count == 2 * perWriter)
    let ids = results.map(\.info.id)
    #expect(Set(ids).count == ids.count)
    #expect(try first.snapshots() == second.snapshots())
    #expect(try first.snapshots().map(\.id) == ids.sorted())
    for (writer, info) in results {
      #expect(info.source == "writer\(writer)")
      let programs = try second.programs(inSnapshot: info.id)
      #expect(programs.count == sizes[writer])
      let revision = (Int(info.takenAt.timeIntervalSince1970 - 1_725_840_000) / 86_400) % 2
      #expect(programs == (0..<sizes[writer]).map { SyntheticCatalog.entry($0, revision: revision).program })
    }
    // Both writers' programs at two revisions; the smaller catalog's are a subset.
    #expect(try first.statistics().versionCount == 2 * 120)
    #expect(try first.integrityCheck() == ["ok"])
    #expect(try second.integrityCheck() == ["ok"])
  }

  @Test func readersAreNotBlockedByAWriterOfAnotherConnection() throws {
    let (writing, path, folder) = try temporaryStore("raon-concurrent")
    defer { remove(folder) }
    let reading = try SnapshotStore(path: path)
    let before = try writing.record(SyntheticCatalog.snapshot([1: 0]))
    let writerHoldsTheLock = DispatchSemaphore(value: 0)
    let readerIsDone = DispatchSemaphore(value: 0)

    let writer = Thread {
      // A long recording, as another raon process would run it: the write lock is held
      // until the reader has finished.
      try? writing.writer.write { db in
        try db.execute(
          sql: "INSERT INTO snapshot (taken_at, source, program_count) VALUES ('2024-01-01T00:00:00Z', 'slow', 0)")
        writerHoldsTheLock.signal()
        _ = readerIsDone.wait(timeout: .now() + 5)
      }
    }
    writer.start()
    writerHoldsTheLock.wait()
    let start = Date()
    let seen = try reading.snapshots()
    let waited = Date().timeIntervalSince(start)
    readerIsDone.signal()

    #expect(seen == [before])  // the uncommitted snapshot is not visible
    #expect(waited < 1, "the reader waited \(waited) s")
  }
}

/// Results gathered from several threads.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [(writer: Int, info: SnapshotInfo)] = []
  private var failures: [String] = []

  func add(writer: Int, info: SnapshotInfo) { lock.withLock { results.append((writer, info)) } }
  func fail(_ message: String) { lock.withLock { failures.append(message) } }
  var values: ([(writer: Int, info: SnapshotInfo)], [String]) { lock.withLock { (results, failures) } }
}
