import Foundation
import RaonConcurrency
import RaonCore

/// A row of `snapshot`.
package struct SnapshotRecord: Sendable, Equatable {
  package var id: Int64
  /// ISO 8601 UTC text (see ``ISOTimestamp``).
  package var takenAt: String
  package var source: String
  package var sourceTotal: Int?
  package var programCount: Int
  /// SHA-256 (lower-case hex) of the input file (SQLite schema v3 on).
  package var inputSHA256: String?

  package init(
    id: Int64, takenAt: String, source: String, sourceTotal: Int?, programCount: Int,
    inputSHA256: String?
  ) {
    self.id = id
    self.takenAt = takenAt
    self.source = source
    self.sourceTotal = sourceTotal
    self.programCount = programCount
    self.inputSHA256 = inputSHA256
  }

  init(_ row: StoreRow) throws {
    id = try row.get("id")
    takenAt = try row.get("taken_at")
    source = try row.get("source")
    sourceTotal = try row.get("source_total")
    programCount = try row.get("program_count")
    // A store at SQLite schema v1–v2 has no such column.
    inputSHA256 = row.columns.names.contains("input_sha256") ? try row.get("input_sha256") : nil
  }

  package func info() throws -> SnapshotInfo {
    guard let date = ISOTimestamp.parse(takenAt) else {
      throw DecodingFailure("snapshot \(id) has taken_at '\(takenAt)', not ISO 8601 UTC")
    }
    return SnapshotInfo(
      id: id, takenAt: date, source: source, programCount: programCount, sourceTotal: sourceTotal)
  }
}

/// The store's algorithm, written once: every read, the deletion, the trend steps and the
/// end of a recording, as statements run on a ``StoreConnection`` of either database.
/// Callers hold the transaction (a read-only one for reads, the writers' one for changes)
/// and translate what is thrown into ``StoreError``.
package enum StoreQueries {
  /// "Version `v` is in snapshot `?n`", for presence row `p`.
  static func holds(_ p: String, _ placeholder: String) -> String {
    "\(p).first_snapshot_id <= \(placeholder) AND \(p).last_snapshot_id >= \(placeholder)"
  }

  // MARK: Snapshots

  /// Every snapshot row, in id order.
  package static func snapshotRecords(_ c: some StoreConnection) throws -> [SnapshotRecord] {
    try c.rows("SELECT * FROM snapshot ORDER BY id").map(SnapshotRecord.init)
  }

  /// The snapshot row with this id, or `nil`.
  package static func snapshotRecord(_ id: Int64, _ c: some StoreConnection) throws -> SnapshotRecord? {
    try c.rows("SELECT * FROM snapshot WHERE id = ?1", [.integer(id)]).first.map(SnapshotRecord.init)
  }

  /// The snapshot row with this id, else ``StoreError/noSuchSnapshot(id:path:)``.
  package static func existingSnapshot(
    _ id: Int64, _ c: some StoreConnection, location: String
  ) throws -> SnapshotRecord {
    guard let record = try snapshotRecord(id, c) else {
      throw StoreError.noSuchSnapshot(id: id, path: location)
    }
    return record
  }

  /// The snapshot before `id` when `id` holds exactly its content, else `nil`.
  package static func unchangedSince(_ id: Int64, _ c: some StoreConnection) throws -> Int64? {
    guard let previous: Int64 = try c.value("SELECT max(id) FROM snapshot WHERE id < ?1", [.integer(id)])
    else { return nil }
    // Every interval reaching the previous snapshot goes on into this one, and none begins
    // here: the same versions, the same number of times.
    let differs: Bool =
      try c.value(
        """
        SELECT EXISTS (SELECT 1 FROM presence WHERE first_snapshot_id = ?1)
          OR EXISTS (SELECT 1 FROM presence WHERE last_snapshot_id = ?2)
        """, [.integer(id), .integer(previous)]) ?? true
    return differs ? nil : previous
  }

  /// Everything `raon snapshots show` prints about snapshot `id`, or `nil`.
  package static func details(_ id: Int64, _ c: some StoreConnection) throws -> SnapshotDetails? {
    guard let record = try snapshotRecord(id, c) else { return nil }
    let arguments: [StoreValue] = [.integer(id)]
    func count(_ sql: String) throws -> Int { try c.value(sql, arguments) ?? 0 }
    let distinct = try count(
      """
      SELECT count(DISTINCT v.program_id) FROM presence p
      JOIN program_version v ON v.id = p.version_id WHERE \(holds("p", "?1"))
      """)
    let versions = try count("SELECT count(*) FROM presence p WHERE \(holds("p", "?1"))")
    let firstSeen = try count(
      """
      SELECT count(*) FROM presence p WHERE p.first_snapshot_id = ?1
        AND NOT EXISTS (SELECT 1 FROM presence q
          WHERE q.version_id = p.version_id AND q.first_snapshot_id < ?1)
      """)
    let sets = try c.rows(
      """
      SELECT f.names AS names, CAST(sum(p.copies) AS BIGINT) AS programs FROM presence p
      JOIN program_version v ON v.id = p.version_id
      JOIN field_set f ON f.id = v.field_set_id
      WHERE \(holds("p", "?1")) GROUP BY f.id ORDER BY 2 DESC, f.id
      """, arguments)
    let fieldSets: [(names: [String], programs: Int)] = try sets.map { set in
      let text: String = try set.get("names")
      guard let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
        throw DecodingFailure("a field set is not a JSON list of names")
      }
      return (names, try set.get("programs"))
    }
    return SnapshotDetails(
      snapshot: try record.info(), inputSHA256: record.inputSHA256, distinctPrograms: distinct,
      versionCount: versions, versionsFirstSeen: firstSeen,
      unchangedSince: try unchangedSince(id, c), fieldSets: fieldSets)
  }

  // MARK: Deleting

  /// Deletes snapshot `id` and whatever only it referenced (see the stores'
  /// `deleteSnapshot(id:dryRun:)`), inside the caller's writing transaction.
  package static func delete(
    _ id: Int64, _ c: some StoreConnection, location: String
  ) throws -> SnapshotDeletion {
    let info = try existingSnapshot(id, c, location: location).info()
    let at: [StoreValue] = [.integer(id)]
    let previous: Int64? = try c.value("SELECT max(id) FROM snapshot WHERE id < ?1", at)
    let next: Int64? = try c.value("SELECT min(id) FROM snapshot WHERE id > ?1", at)

    // Versions whose every interval is this snapshot alone go with it.
    let onlyHere: [Int64] = try c.rows(
      """
      SELECT version_id FROM presence WHERE first_snapshot_id = ?1 AND last_snapshot_id = ?1
      EXCEPT SELECT version_id FROM presence WHERE NOT (first_snapshot_id = ?1 AND last_snapshot_id = ?1)
      """, at
    ).map { try $0.first() }
    let intervalsRemoved = try c.execute(
      "DELETE FROM presence WHERE first_snapshot_id = ?1 AND last_snapshot_id = ?1", at)
    var shortened = 0
    if let next {
      shortened += try c.execute(
        "UPDATE presence SET first_snapshot_id = ?1 WHERE first_snapshot_id = ?2", [.integer(next), .integer(id)])
    }
    if let previous {
      shortened += try c.execute(
        "UPDATE presence SET last_snapshot_id = ?1 WHERE last_snapshot_id = ?2", [.integer(previous), .integer(id)])
    }
    // Intervals first = last = id are gone, and with no later (earlier) snapshot none can
    // begin (end) at id without ending (beginning) there too.
    var joined = 0
    if let previous, let next {
      // A version present just before and just after the gap, as often, is one interval
      // again — as if the deleted snapshot had never been recorded.
      let pairs = try c.rows(
        """
        SELECT a.version_id AS version_id, a.first_snapshot_id AS first_id, b.last_snapshot_id AS last_id
        FROM presence a JOIN presence b
          ON b.version_id = a.version_id AND b.first_snapshot_id = ?2 AND b.copies = a.copies
        WHERE a.last_snapshot_id = ?1
        """, [.integer(previous), .integer(next)])
      for pair in pairs {
        let version: Int64 = try pair.get("version_id")
        try c.execute(
          "DELETE FROM presence WHERE version_id = ?1 AND first_snapshot_id = ?2",
          [.integer(version), .integer(next)])
        try c.execute(
          "UPDATE presence SET last_snapshot_id = ?1 WHERE version_id = ?2 AND first_snapshot_id = ?3",
          [.integer(try pair.get("last_id")), .integer(version), .integer(try pair.get("first_id"))])
      }
      joined = pairs.count
    }
    try c.execute("DELETE FROM snapshot WHERE id = ?1", at)
    let versionsRemoved = try c.execute(
      "DELETE FROM program_version WHERE \(c.dialect.inIntegerList("id", "?1"))", [.integers(onlyHere)])
    let fieldSetsRemoved = try c.execute(
      "DELETE FROM field_set WHERE id NOT IN (SELECT DISTINCT field_set_id FROM program_version)", [])
    let stray: Int =
      try c.value("SELECT count(*) FROM presence WHERE first_snapshot_id = ?1 OR last_snapshot_id = ?1", at) ?? 0
    guard stray == 0 else {
      throw DecodingFailure("\(stray) presence intervals still refer to snapshot \(id)")
    }
    return SnapshotDeletion(
      snapshot: info, versionsRemoved: versionsRemoved, intervalsRemoved: intervalsRemoved,
      intervalsShortened: shortened, intervalsJoined: joined, fieldSetsRemoved: fieldSetsRemoved)
  }

  // MARK: Reading versions

  /// Every field set's names by id.
  static func fieldSets(_ c: some StoreConnection) throws -> [Int64: FieldNames] {
    var fieldSets: [Int64: FieldNames] = [:]
    for row in try c.rows("SELECT id, names FROM field_set") {
      fieldSets[try row.get("id")] = FieldNames(try CompactJSON.parseArray(try row.get("names")).compactMap { $0 })
    }
    return fieldSets
  }

  /// The versions present in snapshot `id` with their copies (raw values not parsed),
  /// sorted by program id (by bytes) then version id, in chunks of at most `chunkSize`,
  /// until `body` returns `false`.
  ///
  /// With `other`, only the program ids whose versions or copies differ between the two
  /// snapshots: a presence row holding exactly one of them.
  ///
  /// - Parameter reserve: Called first with the number of programs (copies counted).
  package static func forEachVersionChunk(
    inSnapshot id: Int64, differingFrom other: Int64? = nil, chunkSize: Int,
    _ c: some StoreConnection, location: String, reserve: (Int) -> Void = { _ in },
    _ body: ([PresentVersion]) throws -> Bool
  ) throws {
    let snapshot = try existingSnapshot(id, c, location: location)
    if let other { _ = try existingSnapshot(other, c, location: location) }
    reserve(snapshot.programCount)
    let fieldSets = try fieldSets(c)
    let differing = """
      AND v.program_id IN (
        SELECT dv.program_id FROM presence dp JOIN program_version dv ON dv.id = dp.version_id
        WHERE (\(holds("dp", "?1"))) <> (\(holds("dp", "?2"))))
      """
    try forEachChunk(
      """
      SELECT v.id AS id, \(VersionColumn.selectList("v")), p.copies AS copies
      FROM presence p JOIN program_version v ON v.id = p.version_id
      WHERE \(holds("p", "?1")) \(other == nil ? "" : differing)
      ORDER BY v.program_id\(c.dialect.byBytes), v.id
      """, [.integer(id)] + (other.map { [.integer($0)] } ?? []),
      chunkSize: chunkSize, expected: snapshot.programCount, c,
      add: { row, chunk in
        let versionID: Int64 = try row.get("id")
        let version = try ProgramVersion(row: row, fieldSets: fieldSets, versionID: versionID)
        chunk.append(PresentVersion(id: versionID, version: version, copies: try row.get("copies")))
      }, body)
  }

  /// A snapshot's programs with only the fields stored in columns (see the stores'
  /// `programColumnChunks(inSnapshot:chunkSize:)`), in chunks, until `body` returns `false`.
  package static func forEachColumnChunk(
    inSnapshot id: Int64, programCount: Int, chunkSize: Int, _ c: some StoreConnection,
    _ body: ([Program]) throws -> Bool
  ) throws {
    try forEachChunk(
      """
      SELECT v.program_id AS program_id, v.title AS title, v.category AS category,
        v.district AS district, v.is_free AS is_free, v.fee_min_krw AS fee_min_krw,
        v.fee_max_krw AS fee_max_krw, v.start_date AS start_date, v.end_date AS end_date,
        v.latitude AS latitude, v.longitude AS longitude, v.quality_flags AS quality_flags,
        p.copies AS copies, \(c.dialect.jsonText("v.program_text", "registered_on")) AS registered_on
      FROM presence p JOIN program_version v ON v.id = p.version_id
      WHERE \(holds("p", "?1"))
      ORDER BY v.program_id\(c.dialect.byBytes), v.id
      """, [.integer(id)], chunkSize: chunkSize, expected: programCount, c,
      add: { row, chunk in
        var program = Program(
          id: try row.get("program_id"), title: try row.get("title"), category: try row.get("category"),
          district: try row.get("district"), isFree: try row.get("is_free"),
          feeMinKRW: try row.get("fee_min_krw"), feeMaxKRW: try row.get("fee_max_krw"),
          latitude: try row.get("latitude"), longitude: try row.get("longitude"),
          qualityFlags: QualityFlags(joinedNames: try row.get("quality_flags")))
        program.startDate = try ProgramVersion.day(try row.get("start_date"), "start_date")
        program.endDate = try ProgramVersion.day(try row.get("end_date"), "end_date")
        program.registeredOn = try ProgramVersion.day(try row.get("registered_on"), "registered_on")
        let copies: Int = try row.get("copies")
        for _ in 0..<copies { chunk.append(program) }
      }, body)
  }

  /// Runs a query, `add`ing what each row holds to a chunk, and hands `body` each chunk
  /// once it has `chunkSize` items (the last one the rest), until `body` returns `false`.
  ///
  /// - Parameter expected: How many items the query gives at most (sizes the chunk).
  private static func forEachChunk<Item>(
    _ sql: String, _ arguments: [StoreValue], chunkSize: Int, expected: Int, _ c: some StoreConnection,
    add: (StoreRow, inout [Item]) throws -> Void, _ body: ([Item]) throws -> Bool
  ) throws {
    var chunk: [Item] = []
    chunk.reserveCapacity(min(chunkSize, expected))
    var stopped = false
    try c.forEachRow(sql, arguments) { row in
      try add(row, &chunk)
      guard chunk.count >= chunkSize else { return true }
      defer { chunk.removeAll(keepingCapacity: true) }
      stopped = try !body(chunk)
      return !stopped
    }
    if !stopped, !chunk.isEmpty { _ = try body(chunk) }
  }

  // MARK: Trend steps

  /// A series of snapshots as the versions entering and leaving at each step (see
  /// ``SnapshotStoring/trendSteps(_:)``), read from the validity intervals alone: the
  /// presence rows whose interval meets the series' id range are read once; an interval
  /// holding the series' snapshots k…m (in series order) enters at step k and leaves at
  /// step m + 1. Snapshots may come in any id order. A step's lists are in presence key
  /// order.
  package static func trendSteps(
    _ snapshots: [SnapshotInfo], _ c: some StoreConnection, location: String
  ) throws -> [TrendStep] {
    guard !snapshots.isEmpty else { return [] }
    let ids = snapshots.map(\.id)
    // Series positions by snapshot id, to find the positions an interval covers.
    let byID = ids.indices.sorted { ids[$0] < ids[$1] }
    let sortedIDs = byID.map { ids[$0] }
    let ascending = byID == Array(ids.indices)
    var steps = snapshots.map { TrendStep(snapshot: $0, entering: [], leaving: []) }
    for id in Set(ids) { _ = try existingSnapshot(id, c, location: location) }
    // Days repeat across versions: parse each distinct text once.
    var days: [String: CalendarDay] = [:]
    func day(_ text: String?, _ column: String) throws -> CalendarDay? {
      guard let text else { return nil }
      if let known = days[text] { return known }
      guard let parsed = try ProgramVersion.day(text, column) else { return nil }
      days[text] = parsed
      return parsed
    }
    try c.forEachRow(
      """
      SELECT p.version_id AS version_id, p.first_snapshot_id AS first_id,
        p.last_snapshot_id AS last_id, p.copies AS copies, v.program_id AS program_id,
        v.category AS category, v.district AS district, v.is_free AS is_free,
        v.start_date AS start_date, v.end_date AS end_date,
        \(c.dialect.jsonText("v.program_text", "registered_on")) AS registered_on
      FROM presence p JOIN program_version v ON v.id = p.version_id
      WHERE p.last_snapshot_id >= ?1 AND p.first_snapshot_id <= ?2
      ORDER BY p.version_id, p.first_snapshot_id
      """, [.integer(sortedIDs[0]), .integer(sortedIDs[sortedIDs.count - 1])]
    ) { row in
      let first: Int64 = try row.get("first_id")
      let last: Int64 = try row.get("last_id")
      let low = firstPosition(in: sortedIDs, notBelow: first)
      let high = firstPosition(in: sortedIDs, notBelow: last + 1)
      guard low < high else { return true }  // holds no snapshot of the series
      let versionID: Int64 = try row.get("version_id")
      let registered: String? = try row.get("registered_on")
      if registered == "?" {
        throw DecodingFailure("program_text.registered_on of version \(versionID) is not text")
      }
      let program = TrendProgram(
        id: try row.get("program_id"), category: try row.get("category"),
        district: try row.get("district"), isFree: try row.get("is_free"),
        startDate: try day(try row.get("start_date"), "start_date"),
        endDate: try day(try row.get("end_date"), "end_date"),
        registeredOn: try day(registered, "registered_on"))
      let version = TrendVersion(versionID: versionID, program: program, copies: try row.get("copies"))
      if ascending {
        steps[low].entering.append(version)
        if high < steps.count { steps[high].leaving.append(version) }
      } else {
        // The series positions holding the interval, in series order, as runs.
        let positions = byID[low..<high].sorted()
        for (i, position) in positions.enumerated() {
          if i == 0 || positions[i - 1] != position - 1 {
            steps[position].entering.append(version)
          }
          if i == positions.count - 1 || positions[i + 1] != position + 1, position + 1 < steps.count {
            steps[position + 1].leaving.append(version)
          }
        }
      }
      return true
    }
    return steps
  }

  /// Binary search: the index of the first id that is `>= value`.
  static func firstPosition(in ids: [Int64], notBelow value: Int64) -> Int {
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  // MARK: Recording

  /// The current programs (end day missing, or on or after `monday`) of snapshot `id`.
  package static func currentCount(_ id: Int64, monday: CalendarDay, _ c: some StoreConnection) throws -> Int {
    try c.value(
      """
      SELECT CAST(coalesce(sum(p.copies), 0) AS BIGINT) FROM presence p
      JOIN program_version v ON v.id = p.version_id
      WHERE \(holds("p", "?1")) AND (v.end_date IS NULL OR v.end_date\(c.dialect.byBytes) >= ?2)
      """, [.integer(id), .text(monday.description)]) ?? 0
  }

  /// Inserts the snapshot row and its presence intervals: intervals that reach the
  /// previous snapshot continue when the version is still here as often; anything else
  /// opens a new interval.
  package static func finishSnapshot(
    _ record: SnapshotRecord, previousID: Int64?, versionIDs: [Int64], copies: [Int64: Int],
    _ c: some StoreConnection
  ) throws {
    var columns = ["id", "taken_at", "source", "source_total", "program_count"]
    var values: [StoreValue] = [
      .integer(record.id), .text(record.takenAt), .text(record.source),
      record.sourceTotal.storeValue, .integer(Int64(record.programCount)),
    ]
    // Only when known, so a store still at SQLite schema v1–v2 (tests make one) takes the row.
    if let sha = record.inputSHA256 {
      columns.append("input_sha256")
      values.append(.text(sha))
    }
    try c.insert(into: "snapshot", columns: columns, rows: [values])

    var open: [Int64: Int] = [:]
    if let previousID {
      try c.forEachRow(
        "SELECT version_id, copies FROM presence WHERE last_snapshot_id = ?1", [.integer(previousID)]
      ) { row in
        open[try row.get("version_id")] = try row.get("copies")
        return true
      }
    }
    var extended: [Int64] = []
    var started: [[StoreValue]] = []
    extended.reserveCapacity(versionIDs.count)
    for id in versionIDs {
      let count = copies[id] ?? 1
      if open[id] == count {
        extended.append(id)
      } else {
        started.append([.integer(id), .integer(record.id), .integer(record.id), .integer(Int64(count))])
      }
    }
    try c.insert(
      into: "presence", columns: ["version_id", "first_snapshot_id", "last_snapshot_id", "copies"],
      rows: started)
    if let previousID, !extended.isEmpty {
      // One statement for the intervals that go on (nearly all of a daily catalog): a
      // version has one interval reaching the previous snapshot, so exactly these change.
      let changed = try c.execute(
        """
        UPDATE presence SET last_snapshot_id = ?1
        WHERE last_snapshot_id = ?2 AND \(c.dialect.inIntegerList("version_id", "?3"))
        """, [.integer(record.id), .integer(previousID), .integers(extended)])
      guard changed == extended.count else {
        throw DecodingFailure(
          "\(changed) presence intervals reached snapshot \(previousID) for \(extended.count) versions")
      }
    }
  }
}
