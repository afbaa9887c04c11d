import Foundation
import TestSupport
import Testing

@testable import RaonStore

/// Bugs the hostile-case runner found at the store (scripts/hostile/RESULTS.md, findings
/// 4 and 5).
@Suite("Opening, hostile cases")
struct OpeningHostileTests {
  /// Finding 4: a folder (like a FIFO or a device) as the store's path is named as such
  /// before SQLite touches it.
  @Test(arguments: [false, true])
  func aFolderIsNamedAsAFolder(readOnly: Bool) throws {
    let folder = try Fixtures.temporaryDirectory("raon-folder-store")
    defer { remove(folder) }
    let path = folder.appendingPathComponent("store.sqlite").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    #expect(throws: SnapshotStore.Error.cannotOpen(path: path, reason: "it is a folder, not a Raon store")) {
      try SnapshotStore(path: path, readOnly: readOnly)
    }
  }

  /// Finding 5: `raon snapshots delete ID` without `--yes` only counts; on a store opened
  /// read-only it failed (SQLite code 8) as it ran the deletion and rolled it back. It now
  /// counts exactly what a writable dry run counts, and changes nothing.
  @Test func aDryRunDeletionWorksOnAReadOnlyStore() throws {
    let (store, path, folder) = try temporaryStore("raon-ro-delete")
    defer { remove(folder) }
    var catalog = SyntheticCatalog.catalog(count: 30)
    for day in 0..<3 {
      _ = try store.record(SyntheticCatalog.snapshot(catalog, day: day))
      catalog[100 + day] = 0
      catalog[day] = 1
    }
    try store.checkpoint()
    let expected = try store.deleteSnapshot(id: 2, dryRun: true)
    let before = try #require(FileManager.default.contents(atPath: path))

    let reader = try SnapshotStore(path: path, readOnly: true)
    #expect(try reader.deleteSnapshot(id: 2, dryRun: true) == expected)
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: path)) {
      try reader.deleteSnapshot(id: 9, dryRun: true)
    }
    #expect(try reader.snapshots().map(\.id) == [1, 2, 3])
    #expect(FileManager.default.contents(atPath: path) == before)
  }
}
