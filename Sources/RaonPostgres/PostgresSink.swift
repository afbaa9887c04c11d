import Foundation
import PostgresNIO
import RaonConcurrency
import RaonCore
import RaonStore

/// Receives a snapshot's entries chunk by chunk and stores them, inside the recording's
/// transaction (which holds the writers' lock, so the ids it gives are the next ones).
///
/// Ids are given as SQLite gives them — a version or field set gets the largest id + 1, a
/// snapshot the largest id ever given + 1 — so one history recorded into either store has
/// the same snapshot ids. Each chunk costs two statements whatever its size: one finds
/// the versions already stored (by their whole content, as SQLite's store does), one
/// inserts the new ones, and the field sets are looked up once per distinct list. Values
/// always travel as bound arrays (`unnest`), never inside the SQL text.
final class PostgresSink: SnapshotReceiving {
  private let connection: BlockingConnection
  /// The latest snapshot before this one, if any.
  let previousID: Int64?
  /// The id the snapshot gets when it is finished.
  let snapshotID: Int64
  var inputSHA256: String?
  private(set) var entryCount = 0
  private var nextVersionID: Int64
  private var fieldSetIDs: [FieldNames: Int64] = [:]
  private var copiesByVersionID: [Int64: Int] = [:]
  private var orderedVersionIDs: [Int64] = []
  /// Whether an ``append(_:)`` failed (the error is then the store's, not the producer's).
  private(set) var failed = false

  init(_ connection: BlockingConnection) throws {
    self.connection = connection
    let row = try connection.query(
      """
      SELECT (SELECT max(id) FROM snapshot), (SELECT last_id FROM snapshot_sequence),
        (SELECT coalesce(max(id), 0) FROM program_version)
      """
    ).first
    guard let (previous, sequence, lastVersion) = try row?.decode((Int64?, Int64?, Int64).self) else {
      throw DecodingFailure("the store's ids could not be read")
    }
    previousID = previous
    snapshotID = max(sequence ?? 0, previous ?? 0) + 1
    nextVersionID = lastVersion + 1
  }

  func append(_ entries: [NewSnapshot.Entry]) throws {
    do {
      try insert(entries)
    } catch {
      failed = true
      throw error
    }
  }

  private func insert(_ entries: [NewSnapshot.Entry]) throws {
    guard !entries.isEmpty else { return }
    entryCount += entries.count
    let (versions, copies) = SnapshotStore.distinctVersions(of: entries)
    let columns = try VersionColumns(versions, fieldSetIDs: versions.map { try fieldSetID($0.fieldNames) })
    // Every version's content hash, over the cores: the lookup compares it instead of the
    // raw values themselves, which PostgreSQL keeps compressed out of line.
    let hashes = ParallelWork.map(versions.count) { ByteBuffer(bytes: RawContent.hash(of: versions[$0].rawRecord)) }
    var ids = try existingIDs(columns, hashes: hashes)
    let missing = ids.indices.filter { ids[$0] == nil }
    if !missing.isEmpty {
      let newIDs = missing.indices.map { nextVersionID + Int64($0) }
      nextVersionID += Int64(missing.count)
      try insertVersions(columns.subset(missing), ids: newIDs, hashes: missing.map { hashes[$0] })
      for (index, id) in zip(missing, newIDs) { ids[index] = id }
    }
    for (id, count) in zip(ids, copies) {
      guard let id else { continue }
      if let existing = copiesByVersionID[id] {
        copiesByVersionID[id] = existing + count
      } else {
        copiesByVersionID[id] = count
        orderedVersionIDs.append(id)
      }
    }
  }

  /// The field set's id, added when new (the largest id + 1, as SQLite gives it).
  private func fieldSetID(_ names: FieldNames) throws -> Int64 {
    if let id = fieldSetIDs[names] { return id }
    let text = CompactJSON.array(names.names)
    let id: Int64
    if let found = try connection.query("SELECT id FROM field_set WHERE names = \(text)").first {
      id = try found.decode(Int64.self)
    } else {
      let added = try connection.query(
        """
        INSERT INTO field_set (id, names)
        VALUES ((SELECT coalesce(max(id), 0) + 1 FROM field_set), \(text)) RETURNING id
        """
      ).first
      guard let added else { throw DecodingFailure("a new field set got no id") }
      id = try added.decode(Int64.self)
    }
    fieldSetIDs[names] = id
    return id
  }

  /// For each version, the id of a stored version with exactly its content, if any: the
  /// same raw record (its SHA-256: field names, values and flag) and the same program.
  private func existingIDs(_ c: VersionColumns, hashes: [ByteBuffer]) throws -> [Int64?] {
    let rows = try connection.query(
      """
      SELECT t.n, (SELECT v.id FROM program_version v
        WHERE v.program_id = t.program_id AND v.title = t.title AND v.category = t.category
          AND v.district = t.district
          AND v.is_free IS NOT DISTINCT FROM (CASE WHEN t.nulls & 64 = 0 THEN t.is_free END)
          AND v.fee_min_krw IS NOT DISTINCT FROM (CASE WHEN t.nulls & 1 = 0 THEN t.fee_min END)
          AND v.fee_max_krw IS NOT DISTINCT FROM (CASE WHEN t.nulls & 2 = 0 THEN t.fee_max END)
          AND v.start_date IS NOT DISTINCT FROM (CASE WHEN t.nulls & 4 = 0 THEN t.start_date END)
          AND v.end_date IS NOT DISTINCT FROM (CASE WHEN t.nulls & 8 = 0 THEN t.end_date END)
          AND v.latitude IS NOT DISTINCT FROM (CASE WHEN t.nulls & 16 = 0 THEN t.latitude END)
          AND v.longitude IS NOT DISTINCT FROM (CASE WHEN t.nulls & 32 = 0 THEN t.longitude END)
          AND v.quality_flags = t.quality_flags AND v.program_text = t.program_text
          AND v.raw_hash = t.raw_hash
        ORDER BY v.id LIMIT 1)
      FROM unnest(\(c.programID)::text[], \(c.title)::text[], \(c.category)::text[],
        \(c.district)::text[], \(c.isFree)::boolean[], \(c.feeMin)::bigint[], \(c.feeMax)::bigint[],
        \(c.startDate)::text[], \(c.endDate)::text[], \(c.latitude)::float8[],
        \(c.longitude)::float8[], \(c.qualityFlags)::text[], \(c.programText)::text[],
        \(hashes)::bytea[], \(c.nulls)::integer[])
        WITH ORDINALITY AS t(program_id, title, category, district, is_free, fee_min, fee_max,
          start_date, end_date, latitude, longitude, quality_flags, program_text, raw_hash,
          nulls, n)
      """)
    var ids = [Int64?](repeating: nil, count: c.count)
    for row in rows {
      let (n, id) = try row.decode((Int64, Int64?).self)
      guard n >= 1, n <= c.count else { throw DecodingFailure("a lookup returned row \(n) of \(c.count)") }
      ids[Int(n - 1)] = id
    }
    return ids
  }

  private func insertVersions(_ c: VersionColumns, ids: [Int64], hashes: [ByteBuffer]) throws {
    try connection.query(
      """
      INSERT INTO program_version (id, program_id, title, category, district, is_free,
        fee_min_krw, fee_max_krw, start_date, end_date, latitude, longitude, quality_flags,
        program_text, field_set_id, raw_values, invalid_bytes_replaced, raw_hash)
      SELECT t.id, t.program_id, t.title, t.category, t.district,
        CASE WHEN t.nulls & 64 = 0 THEN t.is_free END,
        CASE WHEN t.nulls & 1 = 0 THEN t.fee_min END, CASE WHEN t.nulls & 2 = 0 THEN t.fee_max END,
        CASE WHEN t.nulls & 4 = 0 THEN t.start_date END, CASE WHEN t.nulls & 8 = 0 THEN t.end_date END,
        CASE WHEN t.nulls & 16 = 0 THEN t.latitude END, CASE WHEN t.nulls & 32 = 0 THEN t.longitude END,
        t.quality_flags, t.program_text, t.field_set_id, t.raw_values, t.invalid_bytes_replaced,
        t.raw_hash
      FROM unnest(\(ids)::bigint[], \(c.programID)::text[], \(c.title)::text[],
        \(c.category)::text[], \(c.district)::text[], \(c.isFree)::boolean[], \(c.feeMin)::bigint[],
        \(c.feeMax)::bigint[], \(c.startDate)::text[], \(c.endDate)::text[],
        \(c.latitude)::float8[], \(c.longitude)::float8[], \(c.qualityFlags)::text[],
        \(c.programText)::text[], \(c.fieldSetID)::bigint[], \(c.rawValues)::text[],
        \(c.invalidBytesReplaced)::boolean[], \(c.nulls)::integer[], \(hashes)::bytea[])
        AS t(id, program_id, title, category, district, is_free, fee_min, fee_max, start_date,
          end_date, latitude, longitude, quality_flags, program_text, field_set_id, raw_values,
          invalid_bytes_replaced, nulls, raw_hash)
      ORDER BY t.id
      """)
  }

  /// Inserts the snapshot row and its presence intervals: intervals that reach the
  /// previous snapshot continue when the version is still here as often; anything else
  /// opens a new interval.
  func finish(takenAt: String, source: String, sourceTotal: Int?) throws -> SnapshotInfo {
    let total = sourceTotal.map(Int64.init)
    try connection.query(
      """
      INSERT INTO snapshot (id, taken_at, source, source_total, program_count, input_sha256)
      VALUES (\(snapshotID), \(takenAt), \(source), \(total), \(Int64(entryCount)), \(inputSHA256))
      """)
    try connection.query("UPDATE snapshot_sequence SET last_id = \(snapshotID)")

    var open: [Int64: Int] = [:]
    if let previousID {
      let rows = try connection.query(
        "SELECT version_id, copies FROM presence WHERE last_snapshot_id = \(previousID)")
      for row in rows {
        let (version, copies) = try row.decode((Int64, Int64).self)
        open[version] = Int(copies)
      }
    }
    var extended: [Int64] = []
    var started: [Int64] = []
    var startedCopies: [Int64] = []
    for id in orderedVersionIDs {
      let count = copiesByVersionID[id] ?? 1
      if open[id] == count {
        extended.append(id)
      } else {
        started.append(id)
        startedCopies.append(Int64(count))
      }
    }
    if !started.isEmpty {
      try connection.query(
        """
        INSERT INTO presence (version_id, first_snapshot_id, last_snapshot_id, copies)
        SELECT t.version_id, \(snapshotID), \(snapshotID), t.copies
        FROM unnest(\(started)::bigint[], \(startedCopies)::bigint[]) AS t(version_id, copies)
        """)
    }
    if let previousID, !extended.isEmpty {
      let changed = try connection.query(
        """
        UPDATE presence SET last_snapshot_id = \(snapshotID)
        WHERE last_snapshot_id = \(previousID) AND version_id = ANY(\(extended)::bigint[])
        """
      ).metadata.rows
      guard changed == extended.count else {
        throw DecodingFailure(
          "\(changed ?? 0) presence intervals reached snapshot \(previousID) for \(extended.count) versions")
      }
    }
    let record = SnapshotRecord(
      id: snapshotID, takenAt: takenAt, source: source, sourceTotal: sourceTotal,
      programCount: entryCount, inputSHA256: inputSHA256)
    return try record.info()
  }
}

/// Versions as one array per column, to bind to `unnest`. PostgresNIO binds no arrays of
/// optionals, so a null is a placeholder value with its bit set in `nulls` (1 fee_min,
/// 2 fee_max, 4 start_date, 8 end_date, 16 latitude, 32 longitude, 64 is_free).
struct VersionColumns {
  var programID: [String] = []
  var title: [String] = []
  var category: [String] = []
  var district: [String] = []
  var isFree: [Bool] = []
  var feeMin: [Int64] = []
  var feeMax: [Int64] = []
  var startDate: [String] = []
  var endDate: [String] = []
  var latitude: [Double] = []
  var longitude: [Double] = []
  var qualityFlags: [String] = []
  var programText: [String] = []
  var fieldSetID: [Int64] = []
  var rawValues: [String] = []
  var invalidBytesReplaced: [Bool] = []
  var nulls: [Int32] = []

  var count: Int { programID.count }

  init(_ versions: [ProgramVersion], fieldSetIDs: [Int64]) throws {
    for (version, fieldSet) in zip(versions, fieldSetIDs) {
      append(version, fieldSet: fieldSet)
    }
  }

  private init() {}

  private mutating func append(_ v: ProgramVersion, fieldSet: Int64) {
    var nullBits: Int32 = 0
    programID.append(v.programID)
    title.append(v.title)
    category.append(v.category)
    district.append(v.district)
    isFree.append(v.isFree ?? false)
    if v.isFree == nil { nullBits |= 64 }
    feeMin.append(Int64(v.feeMinKRW ?? 0))
    if v.feeMinKRW == nil { nullBits |= 1 }
    feeMax.append(Int64(v.feeMaxKRW ?? 0))
    if v.feeMaxKRW == nil { nullBits |= 2 }
    startDate.append(v.startDate ?? "")
    if v.startDate == nil { nullBits |= 4 }
    endDate.append(v.endDate ?? "")
    if v.endDate == nil { nullBits |= 8 }
    latitude.append(v.latitude ?? 0)
    if v.latitude == nil { nullBits |= 16 }
    longitude.append(v.longitude ?? 0)
    if v.longitude == nil { nullBits |= 32 }
    qualityFlags.append(v.qualityFlags)
    programText.append(v.programText)
    fieldSetID.append(fieldSet)
    rawValues.append(v.rawJSON)
    invalidBytesReplaced.append(v.invalidBytesReplaced)
    nulls.append(nullBits)
  }

  /// The rows at `indices`, in that order.
  func subset(_ indices: [Int]) -> VersionColumns {
    var out = VersionColumns()
    out.programID = indices.map { programID[$0] }
    out.title = indices.map { title[$0] }
    out.category = indices.map { category[$0] }
    out.district = indices.map { district[$0] }
    out.isFree = indices.map { isFree[$0] }
    out.feeMin = indices.map { feeMin[$0] }
    out.feeMax = indices.map { feeMax[$0] }
    out.startDate = indices.map { startDate[$0] }
    out.endDate = indices.map { endDate[$0] }
    out.latitude = indices.map { latitude[$0] }
    out.longitude = indices.map { longitude[$0] }
    out.qualityFlags = indices.map { qualityFlags[$0] }
    out.programText = indices.map { programText[$0] }
    out.fieldSetID = indices.map { fieldSetID[$0] }
    out.rawValues = indices.map { rawValues[$0] }
    out.invalidBytesReplaced = indices.map { invalidBytesReplaced[$0] }
    out.nulls = indices.map { nulls[$0] }
    return out
  }
}
