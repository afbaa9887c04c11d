import Foundation
import RaonConcurrency
import GRDB
import RaonCore

// MARK: - Reading programs

extension SnapshotStore {
  /// The programs of a snapshot, exactly as recorded, sorted by id.
  ///
  /// Programs that share an id (a source that repeats a record, or gives two versions of
  /// one program) all appear, ordered by when their version was first stored; a record
  /// repeated `n` times appears `n` times.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot.
  public func programs(inSnapshot id: Int64) throws -> [Program] {
    try translatingErrors(Error.readFailed) {
      var result: [Program] = []
      try forEachProgramChunk(inSnapshot: id, reserve: { result.reserveCapacity($0) }) {
        result.append(contentsOf: $0)
        return true
      }
      return result
    }
  }

  /// The programs of a snapshot (as ``programs(inSnapshot:)``), read from the store chunk
  /// by chunk on every pass rather than held in memory: for catalogs too large to hold.
  ///
  /// Snapshots never change once recorded, so every pass reads the same programs.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot (now; a
  ///   pass throws the store's errors as ``programs(inSnapshot:)`` does).
  public func programChunks(inSnapshot id: Int64, chunkSize: Int = 20_000) throws -> ProgramChunks {
    guard let info = try snapshot(id: id) else { throw Error.noSuchSnapshot(id: id, path: path) }
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.translatingErrors(Error.readFailed) {
        try store.forEachProgramChunk(inSnapshot: id, chunkSize: chunkSize, body)
      }
    }
  }

  /// A snapshot's programs with only the fields stored in columns: id, title, category,
  /// district, free flag, fees, dates, coordinates and quality flags, and the registration
  /// day (the other text fields are empty). That is all statistics read, and it reads several times faster
  /// than whole programs: no JSON, no raw values. Sorted and repeated as
  /// ``programs(inSnapshot:)``, read from the store on every pass.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot.
  public func programColumnChunks(inSnapshot id: Int64, chunkSize: Int = 50_000) throws
    -> ProgramChunks
  {
    guard let info = try snapshot(id: id) else { throw Error.noSuchSnapshot(id: id, path: path) }
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.translatingErrors(Error.readFailed) {
        try store.writer.read { db in
          let rows = try Row.fetchCursor(
            db,
            sql: """
              SELECT v.program_id, v.title, v.category, v.district, v.is_free, v.fee_min_krw,
                v.fee_max_krw, v.start_date, v.end_date, v.latitude, v.longitude,
                v.quality_flags, p.copies, json_extract(v.program_text, '$.registered_on')
              FROM presence p JOIN program_version v ON v.id = p.version_id
              WHERE p.first_snapshot_id <= ?1 AND p.last_snapshot_id >= ?1
              ORDER BY v.program_id, v.id
              """,
            arguments: [id])
          var chunk: [Program] = []
          chunk.reserveCapacity(min(chunkSize, info.programCount))
          while let row = try rows.next() {
            var program = Program(
              id: row[0], title: row[1], category: row[2], district: row[3], isFree: row[4],
              feeMinKRW: row[5], feeMaxKRW: row[6], latitude: row[9], longitude: row[10],
              qualityFlags: QualityFlags(joinedNames: row[11]))
            program.startDate = try ProgramVersion.day(row[7], "start_date")
            program.endDate = try ProgramVersion.day(row[8], "end_date")
            program.registeredOn = try ProgramVersion.day(row[13], "registered_on")
            let copies: Int = row[12]
            for _ in 0..<copies { chunk.append(program) }
            if chunk.count >= chunkSize {
              guard try body(chunk) else { return }
              chunk.removeAll(keepingCapacity: true)
            }
          }
          if !chunk.isEmpty { _ = try body(chunk) }
        }
      }
    }
  }

  /// The programs of two snapshots that are not in both alike: for each program id whose
  /// versions (or copies) differ between `old` and `new`, every program with that id in
  /// each snapshot, sorted as ``programs(inSnapshot:)``.
  ///
  /// Versions are content, so an id outside these lists has exactly the same programs in
  /// both snapshots: comparing the two lists finds every addition, removal and change
  /// while reading only what changed.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when either snapshot does not exist.
  public func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program]) {
    try translatingErrors(Error.readFailed) {
      var before: [Program] = []
      var after: [Program] = []
      try forEachProgramChunk(inSnapshot: old, differingFrom: new) {
        before.append(contentsOf: $0)
        return true
      }
      try forEachProgramChunk(inSnapshot: new, differingFrom: old) {
        after.append(contentsOf: $0)
        return true
      }
      return (before, after)
    }
  }

  /// Decodes a snapshot's programs a chunk at a time, in id order, until `body` returns
  /// `false` (see ``programs(of:)``).
  private func forEachProgramChunk(
    inSnapshot id: Int64, differingFrom other: Int64? = nil, chunkSize: Int = 20_000,
    reserve: (Int) -> Void = { _ in }, _ body: ([Program]) throws -> Bool
  ) throws {
    try forEachVersionChunk(
      inSnapshot: id, differingFrom: other, chunkSize: chunkSize, reserve: reserve
    ) { present in
      try body(try Self.programs(of: present))
    }
  }

  /// The programs of versions read from a store, in order, each repeated as often as it
  /// is present. Decoding is pure and most of a read's cost: it is spread over the cores.
  /// Errors come in order: the first version whose raw values fail, else the first whose
  /// program fails. Each version's raw values are parsed, checked and dropped in one step,
  /// so a snapshot is never held as rows and programs at once.
  package static func programs(of present: [PresentVersion]) throws -> [Program] {
    var decoded = ParallelWork.map(present.count) {
      i -> (rawError: Swift.Error?, program: Result<Program, Swift.Error>?) in
      let values: [String?]
      do {
        values = try Self.rawValues(of: present[i].version, versionID: present[i].id)
      } catch {
        return (error, nil)
      }
      return (nil, Result { try present[i].version.program(rawValues: values) })
    }
    for i in decoded.indices {
      if let error = decoded[i].rawError { throw error }
    }
    var programs: [Program] = []
    programs.reserveCapacity(present.count)
    for i in decoded.indices {
      // Moved out of `decoded` rather than copied (see `ParallelWork.map`).
      guard let program = try decoded[i].program.take()?.get() else { continue }
      for _ in 1..<max(1, present[i].copies) { programs.append(program) }
      programs.append(program)
    }
    return programs
  }

  /// The raw records of a snapshot, exactly as the source gave them: every field name in
  /// source order, every value, nulls as `nil`.
  ///
  /// In the same order as ``programs(inSnapshot:)``: the n-th raw record is the source of
  /// the n-th program.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot.
  public func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord] {
    try versions(inSnapshot: id).flatMap { stored in
      let raw = StoredRawRecord(
        programID: stored.version.programID, versionID: stored.id,
        record: stored.version.rawRecord)
      return Array(repeating: raw, count: stored.copies)
    }
  }

  /// Every snapshot in ascending id order with the summaries of its programs (sorted by id,
  /// as ``programs(inSnapshot:)``), for trend charts.
  ///
  /// A version's summary is built once and shared by every snapshot holding it, so 365
  /// snapshots of 5,000 programs cost one string per distinct value, not 1.8 million.
  public func trendSeries() throws -> [(info: SnapshotInfo, programs: [ProgramSummary])] {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in
        let infos = try SnapshotRow.order(SnapshotRow.Columns.id).fetchAll(db).map { try $0.info() }
        let ids = infos.map(\.id)
        var series = infos.map { info -> [ProgramSummary] in
          var programs: [ProgramSummary] = []
          programs.reserveCapacity(info.programCount)
          return programs
        }
        var intervals: [Int64: [(first: Int64, last: Int64, copies: Int)]] = [:]
        let presence = try Row.fetchCursor(
          db, sql: "SELECT version_id, first_snapshot_id, last_snapshot_id, copies FROM presence")
        while let row = try presence.next() {
          intervals[row[0], default: []].append((row[1], row[2], row[3]))
        }
        // Versions in program-id order, so each snapshot's list comes out sorted.
        let versions = try Row.fetchCursor(
          db,
          sql: """
            SELECT id, program_id, category, district, is_free FROM program_version
            ORDER BY program_id, id
            """)
        while let row = try versions.next() {
          let versionID: Int64 = row[0]
          guard let spans = intervals[versionID] else { continue }
          let summary = ProgramSummary(id: row[1], category: row[2], district: row[3], isFree: row[4])
          for span in spans {
            var index = Self.firstIndex(in: ids, notBelow: span.first)
            while index < ids.count, ids[index] <= span.last {
              for _ in 0..<span.copies { series[index].append(summary) }
              index += 1
            }
          }
        }
        return Array(zip(infos, series)).map { (info: $0.0, programs: $0.1) }
      }
    }
  }

  /// Binary search: the index of the first id that is `>= value`.
  private static func firstIndex(in ids: [Int64], notBelow value: Int64) -> Int {
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The versions present in a snapshot with their copies, sorted by program id then
  /// version id.
  private func versions(inSnapshot id: Int64, parsingRawValues: Bool = true) throws -> [PresentVersion] {
    try translatingErrors(Error.readFailed) {
      var rows: [PresentVersion] = []
      try forEachVersionChunk(inSnapshot: id, chunkSize: .max) {
        rows.append(contentsOf: $0)
        return true
      }
      guard parsingRawValues else { return rows }
      // The raw values are parsed afterwards, over the cores.
      let values = try ParallelWork.map(rows.count) { i in
        try Self.rawValues(of: rows[i].version, versionID: rows[i].id)
      }
      var result = rows
      for i in result.indices { result[i].version.rawValues = values[i] }
      return result
    }
  }

  /// The versions present in a snapshot with their copies (raw values not parsed), sorted
  /// by program id then version id, in chunks of at most `chunkSize`.
  ///
  /// - Parameter reserve: Called first with the number of programs (copies counted).
  private func forEachVersionChunk(
    inSnapshot id: Int64, differingFrom other: Int64? = nil, chunkSize: Int = 20_000,
    reserve: (Int) -> Void = { _ in }, _ body: ([PresentVersion]) throws -> Bool
  ) throws {
    try writer.read { db in
      guard let snapshot = try SnapshotRow.fetchOne(db, key: id) else {
        throw Error.noSuchSnapshot(id: id, path: path)
      }
      reserve(snapshot.programCount)
      var fieldSets: [Int64: FieldNames] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT id, names FROM field_set") {
        let fieldSetID: Int64 = row[0]
        let names = try CompactJSON.parseArray(row[1]).compactMap { $0 }
        fieldSets[fieldSetID] = FieldNames(names)
      }
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT v.id, v.program_id, v.title, v.category, v.district, v.is_free,
            v.fee_min_krw, v.fee_max_krw, v.start_date, v.end_date, v.latitude, v.longitude,
            v.quality_flags, v.program_text, v.field_set_id, v.raw_values,
            v.invalid_bytes_replaced, p.copies
          FROM presence p JOIN program_version v ON v.id = p.version_id
          WHERE p.first_snapshot_id <= ?1 AND p.last_snapshot_id >= ?1
          \(other == nil ? "" : Self.differingProgramIDs)
          ORDER BY v.program_id, v.id
          """,
        arguments: other.map { [id, $0] } ?? [id])
      var chunk: [PresentVersion] = []
      while let row = try rows.next() {
        let versionID: Int64 = row[0]
        let fieldSetID: Int64 = row[14]
        guard let names = fieldSets[fieldSetID] else {
          throw DecodingFailure("version \(versionID) refers to missing field set \(fieldSetID)")
        }
        let rawJSON: String = row[15]
        let version = ProgramVersion(
          fieldNames: names, rawValues: [], rawJSON: rawJSON, invalidBytesReplaced: row[16],
          programID: row[1], title: row[2], category: row[3], district: row[4], isFree: row[5],
          feeMinKRW: row[6], feeMaxKRW: row[7], startDate: row[8], endDate: row[9],
          latitude: row[10], longitude: row[11], qualityFlags: row[12], programText: row[13])
        chunk.append(PresentVersion(id: versionID, version: version, copies: row[17]))
        if chunk.count >= chunkSize {
          guard try body(chunk) else { return }
          chunk.removeAll(keepingCapacity: true)
        }
      }
      if !chunk.isEmpty { _ = try body(chunk) }
    }
  }

  /// The filter of ``programsThatDiffer(old:new:)`` (snapshot `?1`, the other one `?2`): a
  /// presence row holding exactly one of the two snapshots is a version, or a number of
  /// copies, that the other lacks, so its program id differs.
  private static let differingProgramIDs = """
    AND v.program_id IN (
      SELECT dv.program_id FROM presence dp JOIN program_version dv ON dv.id = dp.version_id
      WHERE (dp.first_snapshot_id <= ?1 AND dp.last_snapshot_id >= ?1)
        <> (dp.first_snapshot_id <= ?2 AND dp.last_snapshot_id >= ?2))
    """
}

extension SnapshotStore {
  /// A version's raw values, parsed from its `raw_values` and checked against its field names.
  package static func rawValues(of version: ProgramVersion, versionID: Int64) throws -> [String?] {
    let values = try CompactJSON.parseArray(version.rawJSON)
    guard values.count == version.fieldNames.names.count else {
      throw DecodingFailure(
        "version \(versionID) has \(values.count) raw values for \(version.fieldNames.names.count) field names")
    }
    return values
  }
}

/// A version in a snapshot, with how many times it is there.
package struct PresentVersion {
  package var id: Int64
  package var version: ProgramVersion
  package var copies: Int

  package init(id: Int64, version: ProgramVersion, copies: Int) {
    self.id = id
    self.version = version
    self.copies = copies
  }
}
