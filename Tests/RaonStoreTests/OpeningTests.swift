import Foundation
import GRDB
import RaonCore
import Testing
import TestSupport

@testable import RaonStore

@Suite("Opening, migrating and refusing stores")
struct OpeningTests {
  /// A new temporary folder, and a path two missing folders deep in it.
  static func place() throws -> (folder: URL, path: String) {
    let folder = try Fixtures.temporaryDirectory("raon-open")
    return (folder, folder.appendingPathComponent("nested/dir/raon.sqlite").path)
  }

  @Test func opensANewStoreInWALModeCreatingItsFolder() throws {
    let (folder, path) = try Self.place()
    defer { remove(folder) }
    let store = try SnapshotStore(path: path)
    #expect(FileManager.default.fileExists(atPath: path))
    let mode = try store.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    #expect(mode == "wal")
    #expect(try store.count("PRAGMA user_version") == SnapshotStore.schemaVersion)
    #expect(try store.count("PRAGMA application_id") == 0x5241_4F4E)
    #expect(try store.count("PRAGMA page_size") == 16_384)
    #expect(try store.snapshots().isEmpty)
    #expect(try store.latestSnapshot() == nil)
    #expect(try store.integrityCheck() == ["ok"])
  }

  @Test func aStoreFromTheFirstSchemaUpgradesInPlace() throws {
    let (folder, path) = try Self.place()
    defer { remove(folder) }
    let recorded: SnapshotInfo
    let entries = [SyntheticCatalog.entry(1), SyntheticCatalog.entry(2)]
    do {
      // What an older Raon, which knew only the first migration, made.
      try FileManager.default.createDirectory(
        at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
      let pool = try DatabasePool(path: path, configuration: SnapshotStore.configuration())
      let old = try SnapshotStore(
        writer: pool, path: path, fileURL: URL(fileURLWithPath: path), schemaVersion: 1)
      recorded = try old.record(
        NewSnapshot(takenAt: Date(timeIntervalSince1970: 1_725_840_000), source: "old.csv",
          sourceTotal: 2, entries: entries))
      #expect(try old.count("PRAGMA user_version") == 1)
      #expect(try old.count("SELECT count(*) FROM sqlite_master WHERE name = 'snapshot_program'") == 0)
    }

    let store = try SnapshotStore(path: path)
    #expect(try store.count("PRAGMA user_version") == SnapshotStore.schemaVersion)
    #expect(try store.count("SELECT count(*) FROM grdb_migrations") == SnapshotStore.schemaVersion)
    #expect(try store.snapshots() == [recorded])
    #expect(try store.programs(inSnapshot: recorded.id) == entries.map(\.program))
    #expect(try store.count("SELECT count(*) FROM snapshot_program WHERE snapshot_id = ?", [recorded.id]) == 2)
    // And it keeps working: the same catalog again reuses the old versions.
    let next = try store.record(
      NewSnapshot(takenAt: Date(), source: "new.csv", sourceTotal: 2, entries: entries))
    #expect(try store.statistics().versionCount == 2)
    #expect(try store.programs(inSnapshot: next.id) == entries.map(\.program))
  }

  @Test func aStoreFromANewerRaonIsRefused() throws {
    let (folder, path) = try Self.place()
    defer { remove(folder) }
    do {
      let store = try SnapshotStore(path: path)
      try store.record(SyntheticCatalog.snapshot([1: 0]))
      try store.writer.write { db in
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-something-new')")
        try db.execute(sql: "PRAGMA user_version = 99")
      }
    }
    let supported = SnapshotStore.schemaVersion
    #expect(throws: SnapshotStore.Error.newerSchema(path: path, found: 99, supported: supported)) {
      try SnapshotStore(path: path)
    }
    let message = SnapshotStore.Error.newerSchema(path: path, found: 99, supported: supported).description
    #expect(message.contains("newer Raon") && message.contains(path) && message.contains("schema v99"))
  }

  @Test func anotherSQLiteDatabaseIsRefused() throws {
    let (folder, path) = try Self.place()
    defer { remove(folder) }
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    do {
      let other = try DatabaseQueue(path: path)
      try other.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
    }
    #expect(throws: SnapshotStore.Error.notAStore(path: path)) { try SnapshotStore(path: path) }
    // Untouched: no Raon tables were added to it.
    let tables = try DatabaseQueue(path: path).read {
      try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    #expect(tables == ["notes"])
  }

  @Test func aFileThatIsNotSQLiteIsAClearError() throws {
    let (folder, path) = try Self.place()
    defer { remove(folder) }
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(String(repeating: "분류,자치구,공연/행사명\n", count: 400).utf8).write(to: URL(fileURLWithPath: path))
    var thrown: (any Error)?
    do { _ = try SnapshotStore(path: path) } catch { thrown = error }
    let error = try #require(thrown as? SnapshotStore.Error)
    guard case .cannotOpen(let where_, _) = error else {
      Issue.record("expected cannotOpen, got \(error)")
      return
    }
    #expect(where_ == path)
    #expect(error.description.hasPrefix("cannot open the store at \(path): "))
    #expect(error.description.hasSuffix("— check the path or set --db/RAON_DB"))
    #expect(!error.description.contains("\n"))
  }

  @Test func aPathUnderAFileIsAClearError() throws {
    let (folder, _) = try Self.place()
    defer { remove(folder) }
    let file = folder.appendingPathComponent("plain-file")
    try Data("x".utf8).write(to: file)
    let path = file.appendingPathComponent("raon.sqlite").path
    #expect {
      try SnapshotStore(path: path)
    } throws: { error in
      guard case .cannotOpen(let p, _)? = error as? SnapshotStore.Error else { return false }
      return p == path
    }
  }
}
