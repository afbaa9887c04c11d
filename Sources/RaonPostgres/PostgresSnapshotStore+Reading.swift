import Foundation
import RaonCore
import RaonStoreCore

// MARK: - Reading programs
//
// The shared statements of ``StoreQueries``, each read in one read-only transaction through
// a cursor. Program ids are ordered `COLLATE "C"` (by bytes, as SQLite orders text), so
// both stores hand over programs in the same order and every report file comes out the same.

extension PostgresSnapshotStore {
  public func programs(inSnapshot id: Int64) throws -> [Program] {
    var result: [Program] = []
    try forEachVersionChunk(inSnapshot: id, chunkSize: 20_000) { present in
      result.append(contentsOf: try VersionCoding.programs(of: present))
      return true
    }
    return result
  }

  public func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord] {
    var result: [StoredRawRecord] = []
    try forEachVersionChunk(inSnapshot: id, chunkSize: 20_000) { present in
      result.append(contentsOf: try VersionCoding.rawRecords(of: present))
      return true
    }
    return result
  }

  public func programChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    let info = try snapshotInfo(id)
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.forEachVersionChunk(inSnapshot: id, chunkSize: chunkSize) { present in
        try body(try VersionCoding.programs(of: present))
      }
    }
  }

  public func programColumnChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    let info = try snapshotInfo(id)
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.reading { c in
        try StoreQueries.forEachColumnChunk(
          inSnapshot: id, programCount: info.programCount, chunkSize: chunkSize, c, body)
      }
    }
  }

  public func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program]) {
    var sides: [[Program]] = [[], []]
    for (side, (id, other)) in [(old, new), (new, old)].enumerated() {
      try forEachVersionChunk(inSnapshot: id, differingFrom: other, chunkSize: 20_000) {
        sides[side].append(contentsOf: try VersionCoding.programs(of: $0))
        return true
      }
    }
    return (sides[0], sides[1])
  }

  /// The snapshot, or ``StoreError/noSuchSnapshot(id:path:)``.
  func snapshotInfo(_ id: Int64) throws -> SnapshotInfo {
    try reading { c in try StoreQueries.existingSnapshot(id, c, location: location).info() }
  }

  /// ``StoreQueries/forEachVersionChunk(inSnapshot:differingFrom:chunkSize:_:location:reserve:_:)``
  /// in one read-only transaction.
  func forEachVersionChunk(
    inSnapshot id: Int64, differingFrom other: Int64? = nil, chunkSize: Int,
    _ body: ([PresentVersion]) throws -> Bool
  ) throws {
    try reading { c in
      try StoreQueries.forEachVersionChunk(
        inSnapshot: id, differingFrom: other, chunkSize: chunkSize, c, location: location, body)
    }
  }
}
