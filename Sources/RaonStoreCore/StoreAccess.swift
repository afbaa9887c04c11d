import RaonCore

/// How the shared reads (``SnapshotStoring``'s default implementations) reach one store's
/// database: its location for messages, and one read transaction that sees one moment of
/// the store and reports failures as ``StoreError``; and a writing transaction for the
/// ledger of weekly runs (``RunLedger``), which changes no snapshot. Only Raon's stores
/// make one.
public struct StoreAccess: Sendable {
  package let location: String
  private let transaction: @Sendable (_ body: (any StoreConnection) throws -> Void) throws -> Void
  private let writeTransaction: @Sendable (_ body: (any StoreConnection) throws -> Void) throws -> Void
  /// Takes the store's run lock (``RunLedger/takeRunLock()``): `nil` when nothing else can
  /// reach this store (one in memory); throws ``StoreRunLock/Held`` when another run has it.
  package let runLock: @Sendable () throws -> StoreRunLock?

  package init(
    location: String,
    transaction: @escaping @Sendable (_ body: (any StoreConnection) throws -> Void) throws -> Void,
    writeTransaction: @escaping @Sendable (_ body: (any StoreConnection) throws -> Void) throws -> Void,
    runLock: @escaping @Sendable () throws -> StoreRunLock? = { nil }
  ) {
    self.location = location
    self.transaction = transaction
    self.writeTransaction = writeTransaction
    self.runLock = runLock
  }

  /// Runs `body` in one writing transaction: all of it commits, or none (a throw, a kill).
  @discardableResult
  package func writing<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
    var result: T?
    try writeTransaction { result = try body($0) }
    guard let result else { throw StoreError.recordFailed(path: location, reason: "the write ran nothing") }
    return result
  }

  /// Runs `body` in one read transaction.
  package func reading<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
    var result: T?
    try transaction { result = try body($0) }
    guard let result else { throw StoreError.readFailed(path: location, reason: "the read ran nothing") }
    return result
  }
}

// MARK: - The reads, once for every store

extension SnapshotStoring {
  public func snapshots() throws -> [SnapshotInfo] {
    try storeAccess.reading { c in try StoreQueries.snapshotRecords(c).map { try $0.info() } }
  }

  public func unchangedSince(snapshot id: Int64) throws -> Int64? {
    try storeAccess.reading { c in try StoreQueries.unchangedSince(id, c) }
  }

  public func details(snapshot id: Int64) throws -> SnapshotDetails {
    let access = storeAccess
    guard let found = try access.reading({ c in try StoreQueries.details(id, c) }) else {
      throw StoreError.noSuchSnapshot(id: id, path: access.location)
    }
    return found
  }

  public func trendSteps(_ snapshots: [SnapshotInfo]) throws -> [TrendStep] {
    let access = storeAccess
    return try access.reading { c in try StoreQueries.trendSteps(snapshots, c, location: access.location) }
  }

  public func programs(inSnapshot id: Int64) throws -> [Program] {
    var result: [Program] = []
    try forEachVersionChunk(inSnapshot: id, reserve: { result.reserveCapacity($0) }) {
      result.append(contentsOf: try VersionCoding.programs(of: $0))
    }
    return result
  }

  /// A snapshot's programs and its raw records together, each `raw_values` parsed once.
  public func programsAndRawRecords(inSnapshot id: Int64) throws -> (programs: [Program], records: [StoredRawRecord]) {
    var programs: [Program] = []
    var records: [StoredRawRecord] = []
    try forEachVersionChunk(inSnapshot: id, reserve: { programs.reserveCapacity($0); records.reserveCapacity($0) }) {
      let chunk = try VersionCoding.programsAndRawRecords(of: $0)
      programs.append(contentsOf: chunk.programs)
      records.append(contentsOf: chunk.records)
    }
    return (programs, records)
  }

  public func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord] {
    var result: [StoredRawRecord] = []
    try forEachVersionChunk(inSnapshot: id) { result.append(contentsOf: try VersionCoding.rawRecords(of: $0)) }
    return result
  }

  public func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program]) {
    var sides: [[Program]] = [[], []]
    for (side, (id, other)) in [(old, new), (new, old)].enumerated() {
      try forEachVersionChunk(inSnapshot: id, differingFrom: other) {
        sides[side].append(contentsOf: try VersionCoding.programs(of: $0))
      }
    }
    return (sides[0], sides[1])
  }

  public func programChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    let access = storeAccess
    let info = try snapshotInfo(id)
    return ProgramChunks(count: info.programCount) { body in
      try access.reading { c in
        try StoreQueries.forEachVersionChunk(inSnapshot: id, chunkSize: chunkSize, c, location: access.location) {
          try body(try VersionCoding.programs(of: $0))
        }
      }
    }
  }

  public func programColumnChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    let access = storeAccess
    let info = try snapshotInfo(id)
    return ProgramChunks(count: info.programCount) { body in
      try access.reading { c in
        try StoreQueries.forEachColumnChunk(
          inSnapshot: id, programCount: info.programCount, chunkSize: chunkSize, c, body)
      }
    }
  }

  /// The snapshot, or ``StoreError/noSuchSnapshot(id:path:)``.
  package func snapshotInfo(_ id: Int64) throws -> SnapshotInfo {
    let access = storeAccess
    return try access.reading { c in try StoreQueries.existingSnapshot(id, c, location: access.location).info() }
  }

  /// Every chunk of a snapshot's versions (20,000 at a time), in one read transaction.
  private func forEachVersionChunk(
    inSnapshot id: Int64, differingFrom other: Int64? = nil, reserve: (Int) -> Void = { _ in },
    _ body: ([PresentVersion]) throws -> Void
  ) throws {
    let access = storeAccess
    try access.reading { c in
      try StoreQueries.forEachVersionChunk(
        inSnapshot: id, differingFrom: other, chunkSize: 20_000, c, location: access.location,
        reserve: reserve
      ) {
        try body($0)
        return true
      }
    }
  }
}
