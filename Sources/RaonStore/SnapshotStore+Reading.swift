import Foundation
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
    // Decoding failures become ``Error/corrupt(path:detail:)``.
    try translatingErrors(Error.readFailed) {
      var result: [Program] = []
      var firstProgramError: Swift.Error?
      // Rows are read and decoded a chunk at a time, so a large snapshot is held only as
      // programs, never also as rows. Decoding is pure and most of the read's cost: spread
      // over the cores. Each version's raw values are parsed, checked and dropped in one
      // step. Errors come in the sequential order: the first version whose raw values
      // fail, else the first whose program fails.
      try forEachVersionChunk(inSnapshot: id, reserve: { result.reserveCapacity($0) }) { present in
        let decoded = ParallelWork.map(present.count) {
          i -> (rawError: Swift.Error?, program: Result<Program, Swift.Error>) in
          var version = present[i].version
          do {
            version.rawValues = try Self.rawValues(of: version, versionID: present[i].id)
          } catch {
            return (error, .failure(error))
          }
          return (nil, Result { try version.program() })
        }
        if let failed = decoded.first(where: { $0.rawError != nil }), let error = failed.rawError {
          throw error
        }
        guard firstProgramError == nil else { return }
        for (stored, item) in zip(present, decoded) {
          switch item.program {
          case .success(let program):
            for _ in 0..<stored.copies { result.append(program) }
          case .failure(let error):
            firstProgramError = error
            return
          }
        }
      }
      if let firstProgramError { throw firstProgramError }
      return result
    }
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
      try forEachVersionChunk(inSnapshot: id, chunkSize: .max) { rows.append(contentsOf: $0) }
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
    inSnapshot id: Int64, chunkSize: Int = 20_000, reserve: (Int) -> Void = { _ in },
    _ body: ([PresentVersion]) throws -> Void
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
          SELECT v.id, v.raw_values, v.program_id, v.title, v.category, v.district, v.is_free,
            v.fee_min_krw, v.fee_max_krw, v.start_date, v.end_date, v.latitude, v.longitude,
            v.quality_flags, v.program_text, v.field_set_id, v.raw_values,
            v.invalid_bytes_replaced, p.copies
          FROM presence p JOIN program_version v ON v.id = p.version_id
          WHERE p.first_snapshot_id <= ?1 AND p.last_snapshot_id >= ?1
          ORDER BY v.program_id, v.id
          """,
        arguments: [id])
      var chunk: [PresentVersion] = []
      while let row = try rows.next() {
        let versionID: Int64 = row[0]
        let fieldSetID: Int64 = row[15]
        guard let names = fieldSets[fieldSetID] else {
          throw DecodingFailure("version \(versionID) refers to missing field set \(fieldSetID)")
        }
        let rawJSON: String = row[16]
        let version = ProgramVersion(
          fieldNames: names, rawValues: [], rawJSON: rawJSON, invalidBytesReplaced: row[17],
          programID: row[2], title: row[3], category: row[4], district: row[5], isFree: row[6],
          feeMinKRW: row[7], feeMaxKRW: row[8], startDate: row[9], endDate: row[10],
          latitude: row[11], longitude: row[12], qualityFlags: row[13], programText: row[14])
        chunk.append(PresentVersion(id: versionID, version: version, copies: row[18]))
        if chunk.count >= chunkSize {
          try body(chunk)
          chunk.removeAll(keepingCapacity: true)
        }
      }
      if !chunk.isEmpty { try body(chunk) }
    }
  }
}

/// Pure per-item work (encoding, decoding) spread over the cores, for large snapshots.
enum ParallelWork {
  /// Below this many items the work runs on the calling thread.
  static let minimumCount = 2_000

  /// `body(0..<count)` in order, for work that cannot fail.
  static func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
    // `body` throws nothing, so neither does the throwing version.
    try! map(count, { (i: Int) throws -> T in body(i) })
  }

  /// `body(0..<count)` in order. When several items fail, the error of the first failing
  /// index is thrown, as a sequential loop would.
  static func map<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
    guard count >= minimumCount else { return try (0..<count).map(body) }
    let chunks = min(ProcessInfo.processInfo.activeProcessorCount * 4, count)
    let chunkSize = (count + chunks - 1) / chunks
    var results = [Result<T, Swift.Error>?](repeating: nil, count: count)
    withoutActuallyEscaping(body) { body in
      nonisolated(unsafe) let work = body
      results.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let out = buffer
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          let lower = chunk * chunkSize
          let upper = min(count, lower + chunkSize)
          guard lower < upper else { return }
          for i in lower..<upper {
            do { out[i] = .success(try work(i)) } catch { out[i] = .failure(error); return }
          }
        }
      }
      _ = work
    }
    var values: [T] = []
    values.reserveCapacity(count)
    for i in 0..<count {
      switch results[i] {
      case .success(let value)?: values.append(value)
      case .failure(let error)?: throw error
      // Not reached: only a chunk that failed stops early, after its failure.
      case nil: values.append(try body(i))
      }
    }
    return values
  }
}

extension SnapshotStore {
  /// A version's raw values, parsed from its `raw_values` and checked against its field names.
  fileprivate static func rawValues(of version: ProgramVersion, versionID: Int64) throws -> [String?] {
    let values = try CompactJSON.parseArray(version.rawJSON)
    guard values.count == version.fieldNames.names.count else {
      throw DecodingFailure(
        "version \(versionID) has \(values.count) raw values for \(version.fieldNames.names.count) field names")
    }
    return values
  }
}

/// A version in a snapshot, with how many times it is there.
private struct PresentVersion {
  var id: Int64
  var version: ProgramVersion
  var copies: Int
}
