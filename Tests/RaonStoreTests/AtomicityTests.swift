import Foundation
import GRDB
import RaonCore
import Testing

@testable import RaonStore

@Suite("A failed recording leaves nothing behind")
struct AtomicityTests {
  struct Counts: Equatable {
    var snapshots, versions, presence, fieldSets, sequence: Int
    var intervals: [String]
  }

  static func counts(_ store: SnapshotStore) throws -> Counts {
    Counts(
      snapshots: try store.count("SELECT count(*) FROM snapshot"),
      versions: try store.count("SELECT count(*) FROM program_version"),
      presence: try store.count("SELECT count(*) FROM presence"),
      fieldSets: try store.count("SELECT count(*) FROM field_set"),
      sequence: try store.count("SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'snapshot'"),
      intervals: try store.writer.read { db in
        try String.fetchAll(
          db,
          sql: "SELECT version_id || ':' || first_snapshot_id || '-' || last_snapshot_id || 'x' || copies FROM presence ORDER BY 1")
      })
  }

  /// A catalog that changes some programs, adds others from a new source layout, and
  /// carries a program titled "boom" in the middle.
  static func failingSnapshot() -> NewSnapshot {
    var entries = (0..<30).map { SyntheticCatalog.entry($0, revision: $0 < 10 ? 1 : 0) }
    var boom = SyntheticCatalog.entry(99)
    boom.program.title = "boom"
    entries.insert(boom, at: 20)
    entries.append(
      NewSnapshot.Entry(
        program: Program(id: "h:1111111111111111", title: "new layout"),
        raw: RawRecord(["TITLE": "new layout", "EXTRA": nil])))
    return NewSnapshot(takenAt: Date(), source: "bad.csv", sourceTotal: nil, entries: entries)
  }

  @Test func failureWhileAddingVersionsKeepsTheStoreAsItWas() throws {
    let (store, _, folder) = try temporaryStore()
    defer { remove(folder) }
    let good = try store.record(SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 30)))
    let before = try Self.counts(store)
    try store.writer.write { db in
      try db.execute(
        sql: """
          CREATE TRIGGER test_fail BEFORE INSERT ON program_version WHEN NEW.title = 'boom'
          BEGIN SELECT RAISE(ABORT, 'injected failure'); END
          """)
    }

    var thrown: (any Error)?
    do { try store.record(Self.failingSnapshot()) } catch { thrown = error }
    let error = try #require(thrown as? SnapshotStore.Error)
    guard case .recordFailed = error else {
      Issue.record("expected recordFailed, got \(error)")
      return
    }
    #expect(error.description.contains("injected failure"))
    #expect(error.description.contains("nothing was recorded"))
    #expect(!error.description.contains("\n"))

    #expect(try Self.counts(store) == before)
    #expect(try store.latestSnapshot() == good)
    #expect(try store.programs(inSnapshot: good.id).count == 30)
    #expect(try store.integrityCheck() == ["ok"])

    // The next good recording takes the next id: the failed one left no trace.
    try store.writer.write { try $0.execute(sql: "DROP TRIGGER test_fail") }
    let next = try store.record(Self.failingSnapshot())
    #expect(next.id == good.id + 1)
  }

  @Test func failureWhileExtendingIntervalsKeepsTheStoreAsItWas() throws {
    let store = try SnapshotStore.inMemory()
    try store.record(SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 30)))
    let before = try Self.counts(store)
    // Fails in the last phase, after the snapshot row and the new versions are written.
    try store.writer.write { db in
      try db.execute(
        sql: """
          CREATE TRIGGER test_fail BEFORE UPDATE ON presence
          BEGIN SELECT RAISE(ABORT, 'injected failure'); END
          """)
    }
    #expect(throws: SnapshotStore.Error.self) { try store.record(Self.failingSnapshot()) }
    #expect(try Self.counts(store) == before)
  }
}
