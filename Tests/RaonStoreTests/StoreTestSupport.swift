import Foundation
import GRDB
import RaonCore
import TestSupport

@testable import RaonStore

/// A store in a new temporary folder, its path, and the folder to remove when done.
func temporaryStore(_ label: String = "raon-store") throws -> (
  store: SnapshotStore, path: String, folder: URL
) {
  let folder = try Fixtures.temporaryDirectory(label)
  let path = folder.appendingPathComponent("raon.sqlite").path
  return (try SnapshotStore(path: path), path, folder)
}

/// Removes a temporary folder (open stores in it keep working on Linux until closed).
func remove(_ folder: URL) {
  try? FileManager.default.removeItem(at: folder)
}

extension SnapshotStore {
  /// A number from SQL, read straight from the tables (independently of the store's API).
  func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try writer.read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? -1 }
  }

  /// Folds the WAL into the file and returns the file plus WAL size.
  func bytesOnDiskAfterCheckpoint() throws -> Int {
    try checkpoint()
    return try statistics().fileBytes ?? -1
  }
}

/// Programs sorted as the store returns them: by id, stable.
func sortedByID(_ programs: [Program]) -> [Program] {
  programs.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }
    .map(\.element)
}

extension SnapshotStore {
  /// Every snapshot with the summaries of its programs (sorted by id, as
  /// ``programs(inSnapshot:)``), rebuilt by applying the store's trend steps in order.
  func trendSeries() throws -> [(info: SnapshotInfo, programs: [ProgramSummary])] {
    var present: [Int64: TrendVersion] = [:]
    return try trendSteps(try snapshots()).map { step in
      for version in step.leaving { present[version.versionID] = nil }
      for version in step.entering { present[version.versionID] = version }
      let versions = present.values.sorted {
        ($0.program.id, $0.versionID) < ($1.program.id, $1.versionID)
      }
      let programs = versions.flatMap { version in
        repeatElement(
          ProgramSummary(
            id: version.program.id, category: version.program.category, district: version.program.district,
            isFree: version.program.isFree),
          count: version.copies)
      }
      return (step.snapshot, programs)
    }
  }
}

/// The few fields of a program that a snapshot's trend membership is checked by.
struct ProgramSummary: Sendable, Hashable {
  var id: String
  var category: String
  var district: String
  var isFree: Bool?

  init(id: String, category: String, district: String, isFree: Bool?) {
    self.id = id
    self.category = category
    self.district = district
    self.isFree = isFree
  }

  init(_ program: Program) {
    self.init(
      id: program.id, category: program.category, district: program.district,
      isFree: program.isFree)
  }
}

extension SnapshotStore {
  /// A new empty store in memory.
  static func inMemory() throws -> SnapshotStore {
    try SnapshotStore(writer: DatabaseQueue(configuration: configuration()), path: ":memory:", fileURL: nil)
  }

  /// The most recently recorded snapshot (highest id), or `nil` when the store is empty.
  func latestSnapshot() throws -> SnapshotInfo? {
    try snapshots().last
  }

  /// The lines of SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound store.
  func integrityCheck() throws -> [String] {
    try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
  }
}
