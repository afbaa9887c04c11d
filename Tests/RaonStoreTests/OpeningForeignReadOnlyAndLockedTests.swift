import Foundation
import GRDB
import RaonCore
import TestSupport
import Testing

@testable import RaonStore

/// Opening what is not a Raon store leaves it untouched; a read-only store opens for
/// reading; a lock held by another program is named as such.
@Suite("Opening foreign, read-only and locked stores")
struct OpeningForeignReadOnlyAndLockedTests {
  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// Item 10: another application's SQLite file (in rollback-journal mode) is refused
  /// before anything in it changes; opening used to switch it to WAL.
  @Test(arguments: [Int32(0), Int32(0x1234_5678)])
  func anotherApplicationsDatabaseIsRefusedByteForByteUnchanged(applicationID: Int32) throws {
    let folder = try Fixtures.temporaryDirectory("raon-foreign")
    defer { remove(folder) }
    let path = folder.appendingPathComponent("notes.sqlite").path
    do {
      let other = try DatabaseQueue(path: path)
      try other.write { db in
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
      }
    }
    let before = try #require(Self.bytes(path))
    #expect(throws: SnapshotStore.Error.notAStore(path: path)) { try SnapshotStore(path: path) }
    #expect(throws: SnapshotStore.Error.notAStore(path: path)) { try SnapshotStore(path: path, readOnly: true) }
    #expect(Self.bytes(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  /// Item 5: a read-only open never creates a file or a folder.
  @Test func aReadOnlyOpenCreatesNothing() throws {
    let folder = try Fixtures.temporaryDirectory("raon-ro")
    defer { remove(folder) }
    let path = folder.appendingPathComponent("typo/a/b.sqlite").path
    #expect(throws: SnapshotStore.Error.self) { try SnapshotStore(path: path, readOnly: true) }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("typo").path))
  }

  /// Item 9: a read-only open reads a store without writing to its file.
  @Test func aReadOnlyOpenReadsWithoutWriting() throws {
    let (store, path, folder) = try temporaryStore("raon-ro-read")
    defer { remove(folder) }
    let info = try store.record(SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 20)))
    try store.checkpoint()
    let before = try #require(Self.bytes(path))
    let reader = try SnapshotStore(path: path, readOnly: true)
    #expect(try reader.snapshots().map(\.id) == [info.id])
    #expect(try reader.programs(inSnapshot: info.id).count == 20)
    #expect(throws: SnapshotStore.Error.self) {
      try reader.record(SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 2), day: 1))
    }
    #expect(Self.bytes(path) == before)
  }

  /// Item 9: a lock another program holds is named as such (it used to say "check the
  /// path"). The other program keeps the database locked exclusively for longer than the
  /// busy timeout.
  @Test func aLockHeldByAnotherProgramIsNamed() throws {
    let folder = try Fixtures.temporaryDirectory("raon-locked")
    defer { remove(folder) }
    let path = folder.appendingPathComponent("raon.sqlite").path
    do {
      let store = try SnapshotStore(path: path)
      _ = try store.record(SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 3)))
    }
    // Another program: Python's sqlite3, holding an exclusive lock for 30 s at most.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    holder.arguments = [
      "python3", "-c",
      """
      import sqlite3, sys, time
      db = sqlite3.connect(sys.argv[1], isolation_level=None)
      db.execute("PRAGMA locking_mode = EXCLUSIVE")
      db.execute("BEGIN EXCLUSIVE")
      db.execute("UPDATE snapshot SET source = source")
      print("locked", flush=True)
      time.sleep(30)
      """, path,
    ]
    let output = Pipe()
    holder.standardOutput = output
    try holder.run()
    defer {
      holder.terminate()
      holder.waitUntilExit()
    }
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    try #require(line.contains("locked"), "the lock holder did not start: \(line)")
    var thrown: (any Error)?
    do { _ = try SnapshotStore(path: path) } catch { thrown = error }
    let error = try #require(thrown as? SnapshotStore.Error)
    #expect(error == .busy(path: path, seconds: Int(SnapshotStore.busyTimeout)), "\(error)")
    #expect(error.description.contains("another process"))
    #expect(!error.description.contains("check the path"))
  }

  /// Item 11: after a recording the write-ahead log is folded into the file, and the
  /// store says when it could not be.
  @Test func theLogIsFoldedAfterRecording() throws {
    let (store, path, folder) = try temporaryStore("raon-fold")
    defer { remove(folder) }
    _ = try store.record(SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 50)))
    #expect(store.foldLog() == nil)
    // The file alone, copied without its log, holds the snapshot.
    let copy = folder.appendingPathComponent("copy.sqlite").path
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    let count = try DatabaseQueue(path: copy).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM snapshot") }
    #expect(count == 1)
  }
}
