import Foundation
import PostgresNIO
import RaonCore
import RaonStore

// MARK: - Reading programs
//
// The same queries as the SQLite store's. Program ids are ordered `COLLATE "C"` (by bytes,
// as SQLite orders text), whatever the database's collation, so both stores hand over
// programs in the same order and every report file comes out the same.

extension PostgresSnapshotStore {
  public func programs(inSnapshot id: Int64) throws -> [Program] {
    var result: [Program] = []
    try forEachVersionChunk(inSnapshot: id, chunkSize: 20_000) { present in
      result.append(contentsOf: try SnapshotStore.programs(of: present))
      return true
    }
    return result
  }

  public func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord] {
    var result: [StoredRawRecord] = []
    try forEachVersionChunk(inSnapshot: id, chunkSize: 20_000) { present in
      for stored in present {
        var version = stored.version
        version.rawValues = try SnapshotStore.rawValues(of: version, versionID: stored.id)
        let raw = StoredRawRecord(programID: version.programID, versionID: stored.id, record: version.rawRecord)
        result.append(contentsOf: repeatElement(raw, count: stored.copies))
      }
      return true
    }
    return result
  }

  public func programChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    let info = try snapshotInfo(id)
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.forEachVersionChunk(inSnapshot: id, chunkSize: chunkSize) { present in
        try body(try SnapshotStore.programs(of: present))
      }
    }
  }

  public func programColumnChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    let info = try snapshotInfo(id)
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.reading { connection in
        try connection.query(
          """
          DECLARE raon_columns NO SCROLL CURSOR FOR
          SELECT v.program_id, v.title, v.category, v.district, v.is_free, v.fee_min_krw,
            v.fee_max_krw, v.start_date, v.end_date, v.latitude, v.longitude,
            v.quality_flags, p.copies, v.program_text::jsonb ->> 'registered_on'
          FROM presence p JOIN program_version v ON v.id = p.version_id
          WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)
          ORDER BY v.program_id COLLATE "C", v.id
          """)
        var chunk: [Program] = []
        while true {
          let rows = try connection.query(Self.fetch("raon_columns", chunkSize))
          if rows.isEmpty { break }
          for row in rows {
            let (
              programID, title, category, district, isFree, feeMin, feeMax, start, end, latitude,
              longitude, flags, copies, registered
            ) = try row.decode(
              (
                String, String, String, String, Bool?, Int64?, Int64?, String?, String?, Double?,
                Double?, String, Int64, String?
              ).self)
            var program = Program(
              id: programID, title: title, category: category, district: district, isFree: isFree,
              feeMinKRW: feeMin.map(Int.init), feeMaxKRW: feeMax.map(Int.init), latitude: latitude,
              longitude: longitude, qualityFlags: QualityFlags(joinedNames: flags))
            program.startDate = try ProgramVersion.day(start, "start_date")
            program.endDate = try ProgramVersion.day(end, "end_date")
            program.registeredOn = try ProgramVersion.day(registered, "registered_on")
            for _ in 0..<copies { chunk.append(program) }
          }
          // FETCH returns whole pages; hand over what makes a chunk, keep the rest.
          while chunk.count >= chunkSize {
            guard try body(Array(chunk.prefix(chunkSize))) else { return }
            chunk.removeFirst(chunkSize)
          }
        }
        if !chunk.isEmpty { _ = try body(chunk) }
      }
    }
  }

  public func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program]) {
    var before: [Program] = []
    var after: [Program] = []
    try forEachVersionChunk(inSnapshot: old, differingFrom: new, chunkSize: 20_000) {
      before.append(contentsOf: try SnapshotStore.programs(of: $0))
      return true
    }
    try forEachVersionChunk(inSnapshot: new, differingFrom: old, chunkSize: 20_000) {
      after.append(contentsOf: try SnapshotStore.programs(of: $0))
      return true
    }
    return (before, after)
  }

  /// The snapshot, or ``SnapshotStore/Error/noSuchSnapshot(id:path:)``.
  func snapshotInfo(_ id: Int64) throws -> SnapshotInfo {
    let rows = try reading { connection in try Self.snapshotRows(connection, id: id) }
    guard let row = rows.first else {
      throw SnapshotStore.Error.noSuchSnapshot(id: id, path: location)
    }
    return try translatingDecoding { try row.info() }
  }

  /// `work`, with a stored value that does not read back reported as `corrupt`.
  func translatingDecoding<T>(_ work: () throws -> T) throws -> T {
    do {
      return try work()
    } catch let error as DecodingFailure {
      throw SnapshotStore.Error.corrupt(path: location, detail: error.description)
    }
  }

  static func fetch(_ cursor: String, _ count: Int) -> PostgresQuery {
    // Both are Raon's own: a cursor name and a page size (no value from outside).
    PostgresQuery(unsafeSQL: "FETCH FORWARD \(max(1, min(count, 100_000))) FROM \(cursor)")
  }

  /// The versions present in a snapshot with their copies (raw values not parsed), sorted
  /// by program id then version id, in chunks of at most `chunkSize`, read through a
  /// cursor in one read-only transaction, until `body` returns `false`.
  ///
  /// With `other`, only the program ids whose versions or copies differ between the two
  /// snapshots (a presence row holding exactly one of them).
  func forEachVersionChunk(
    inSnapshot id: Int64, differingFrom other: Int64? = nil, chunkSize: Int,
    _ body: ([PresentVersion]) throws -> Bool
  ) throws {
    try reading { connection in
      guard try !Self.snapshotRows(connection, id: id).isEmpty else {
        throw SnapshotStore.Error.noSuchSnapshot(id: id, path: location)
      }
      if let other, try Self.snapshotRows(connection, id: other).isEmpty {
        throw SnapshotStore.Error.noSuchSnapshot(id: other, path: location)
      }
      var fieldSets: [Int64: FieldNames] = [:]
      for row in try connection.query("SELECT id, names FROM field_set") {
        let (fieldSetID, text) = try row.decode((Int64, String).self)
        fieldSets[fieldSetID] = FieldNames(try CompactJSON.parseArray(text).compactMap { $0 })
      }
      let select = """
        DECLARE raon_versions NO SCROLL CURSOR FOR
        SELECT v.id, v.program_id, v.title, v.category, v.district, v.is_free,
          v.fee_min_krw, v.fee_max_krw, v.start_date, v.end_date, v.latitude, v.longitude,
          v.quality_flags, v.program_text, v.field_set_id, v.raw_values,
          v.invalid_bytes_replaced, p.copies
        FROM presence p JOIN program_version v ON v.id = p.version_id
        """
      let order = #"ORDER BY v.program_id COLLATE "C", v.id"#
      if let other {
        try connection.query(
          """
          \(unescaped: select)
          WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)
            AND v.program_id IN (
              SELECT dv.program_id FROM presence dp JOIN program_version dv ON dv.id = dp.version_id
              WHERE (dp.first_snapshot_id <= \(id) AND dp.last_snapshot_id >= \(id))
                <> (dp.first_snapshot_id <= \(other) AND dp.last_snapshot_id >= \(other)))
          \(unescaped: order)
          """)
      } else {
        try connection.query(
          """
          \(unescaped: select)
          WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)
          \(unescaped: order)
          """)
      }
      while true {
        let rows = try connection.query(Self.fetch("raon_versions", chunkSize))
        if rows.isEmpty { return }
        var chunk: [PresentVersion] = []
        chunk.reserveCapacity(rows.count)
        for row in rows {
          let (
            versionID, programID, title, category, district, isFree, feeMin, feeMax, start, end,
            latitude, longitude, flags, programText, fieldSetID, rawJSON, replaced, copies
          ) = try row.decode(
            (
              Int64, String, String, String, String, Bool?, Int64?, Int64?, String?, String?,
              Double?, Double?, String, String, Int64, String, Bool, Int64
            ).self)
          guard let names = fieldSets[fieldSetID] else {
            throw DecodingFailure("version \(versionID) refers to missing field set \(fieldSetID)")
          }
          let version = ProgramVersion.stored(
            fieldNames: names, rawJSON: rawJSON, invalidBytesReplaced: replaced,
            programID: programID, title: title, category: category, district: district,
            isFree: isFree, feeMinKRW: feeMin.map(Int.init), feeMaxKRW: feeMax.map(Int.init),
            startDate: start, endDate: end, latitude: latitude, longitude: longitude,
            qualityFlags: flags, programText: programText)
          chunk.append(PresentVersion(id: versionID, version: version, copies: Int(copies)))
        }
        guard try body(chunk) else { return }
      }
    }
  }
}
