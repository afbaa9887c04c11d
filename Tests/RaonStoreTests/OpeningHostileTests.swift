import Foundation
import TestSupport
import Testing

@testable import RaonStore

/// Bugs the hostile-case runner of issue 18 found at the store (scripts/hostile/RESULTS.md,
/// findings 4 and 5).
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
}
