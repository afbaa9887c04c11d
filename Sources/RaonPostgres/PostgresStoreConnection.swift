import Foundation
import PostgresNIO
import RaonCore
import RaonStoreCore

/// The shared store algorithm's statements on a PostgreSQL connection. Statements come
/// with SQLite's numbered placeholders (`?1`), sent as PostgreSQL's (`$1`); values always
/// travel bound, never inside the SQL text.
final class PostgresStoreConnection: StoreConnection {
  let connection: BlockingConnection
  /// Rows a cursor hands over per round trip.
  private let pageSize = 20_000
  private var cursors = 0

  init(_ connection: BlockingConnection) {
    self.connection = connection
  }

  var dialect: SQLDialect { Self.dialect }

  static let dialect = SQLDialect(
    byBytes: #" COLLATE "C""#,  // by bytes, as SQLite orders text, whatever the database's collation
    jsonText: { column, key in
      """
      CASE coalesce(jsonb_typeof(\(column)::jsonb -> '\(key)'), 'null')
        WHEN 'string' THEN \(column)::jsonb ->> '\(key)' WHEN 'null' THEN NULL ELSE '?' END
      """
    },
    inIntegerList: { column, placeholder in "\(column) = ANY(\(placeholder)::bigint[])" },
    lastSnapshotID: "SELECT last_id FROM snapshot_sequence",
    snapshotIDGiven: "UPDATE snapshot_sequence SET last_id = ?1",
    reserveSnapshotIDs: ["UPDATE snapshot_sequence SET last_id = greatest(last_id, ?1)"])

  /// `sql` with `?n` as `$n`, and its arguments bound.
  static func query(_ sql: String, _ arguments: [StoreValue]) -> PostgresQuery {
    var text = ""
    text.reserveCapacity(sql.utf8.count)
    var previous: Character = " "
    for character in sql {
      // A `?` before a digit is a placeholder; the one in `'?'` is text.
      if previous == "?", character.isNumber { text.removeLast(); text.append("$") }
      text.append(character)
      previous = character
    }
    var bindings = PostgresBindings(capacity: arguments.count)
    for value in arguments {
      switch value {
      case .null: bindings.appendNull()
      case .integer(let v): bindings.append(v)
      case .real(let v): bindings.append(v)
      case .text(let v): bindings.append(v)
      case .blob(let v): bindings.append(ByteBuffer(bytes: v))
      case .bool(let v): bindings.append(v)
      case .integers(let v): bindings.append(v)
      }
    }
    return PostgresQuery(unsafeSQL: text, binds: bindings)
  }

  /// A cell as a store value, by its PostgreSQL type.
  static func value(_ cell: PostgresCell) throws -> StoreValue {
    guard cell.bytes != nil else { return .null }
    switch cell.dataType {
    case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
    case .float4, .float8: return .real(try cell.decode(Double.self))
    case .bool: return .bool(try cell.decode(Bool.self))
    case .bytea: return .blob(Data(try cell.decode(ByteBuffer.self).readableBytesView))
    default: return .text(try cell.decode(String.self))
    }
  }

  static func rows(_ result: PostgresQueryResult, columns: inout StoreColumns?) throws -> [StoreRow] {
    var rows: [StoreRow] = []
    for row in result {
      var values: [StoreValue] = []
      var names: [String] = []
      for cell in row {
        values.append(try value(cell))
        if columns == nil { names.append(cell.columnName) }
      }
      if columns == nil { columns = StoreColumns(names) }
      if let columns { rows.append(StoreRow(columns: columns, values: values)) }
    }
    return rows
  }

  func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
    var columns: StoreColumns?
    return try Self.rows(try connection.query(Self.query(sql, arguments)), columns: &columns)
  }

  /// Through a cursor, a page per round trip (inside the caller's transaction).
  func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Bool) throws {
    cursors += 1
    let cursor = "raon_cursor_\(cursors)"
    try connection.query(Self.query("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", arguments))
    var columns: StoreColumns?
    while true {
      let page = try connection.query(PostgresQuery(unsafeSQL: "FETCH FORWARD \(pageSize) FROM \(cursor)"))
      let rows = try Self.rows(page, columns: &columns)
      if rows.isEmpty { break }
      for row in rows where try !body(row) {
        try connection.run("CLOSE \(cursor)")
        return
      }
    }
    try connection.run("CLOSE \(cursor)")
  }

  @discardableResult
  func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
    try connection.query(Self.query(sql, arguments)).metadata.rows ?? 0
  }

  /// In one statement: each column bound as an array (`unnest`). PostgresNIO binds no
  /// arrays of optionals, so a NULL is a placeholder value with the column's bit set in
  /// a last array, `nulls`.
  func insert(into table: String, columns: [String], rows: [[StoreValue]]) throws {
    guard !rows.isEmpty else { return }
    var bindings = PostgresBindings()
    var selected: [String] = []
    var arrays: [String] = []
    var nulls = [Int64](repeating: 0, count: rows.count)
    for i in columns.indices {
      let values = rows.map { $0[i] }
      let bit = Int64(1) << i
      for (r, value) in values.enumerated() where value == .null { nulls[r] |= bit }
      guard let kind = values.first(where: { $0 != .null }) else {
        selected.append("NULL")
        continue
      }
      let placeholder = "$\(bindings.count + 1)"
      switch kind {
      case .integer, .null, .integers:
        bindings.append(values.map { if case .integer(let v) = $0 { v } else { Int64(0) } })
        arrays.append("\(placeholder)::bigint[]")
      case .real:
        bindings.append(values.map { if case .real(let v) = $0 { v } else { 0.0 } })
        arrays.append("\(placeholder)::float8[]")
      case .text:
        bindings.append(values.map { if case .text(let v) = $0 { v } else { "" } })
        arrays.append("\(placeholder)::text[]")
      case .bool:
        bindings.append(values.map { if case .bool(let v) = $0 { v } else { false } })
        arrays.append("\(placeholder)::boolean[]")
      case .blob:
        bindings.append(values.map { if case .blob(let v) = $0 { ByteBuffer(bytes: v) } else { ByteBuffer() } })
        arrays.append("\(placeholder)::bytea[]")
      }
      selected.append("CASE WHEN t.nulls & \(bit) = 0 THEN t.c\(i) END")
    }
    bindings.append(nulls)
    arrays.append("$\(bindings.count)::bigint[]")
    let names = columns.indices.compactMap { i in selected[i] == "NULL" ? nil : "c\(i)" } + ["nulls"]
    try connection.query(
      PostgresQuery(
        unsafeSQL: """
          INSERT INTO \(table) (\(columns.joined(separator: ", ")))
          SELECT \(selected.joined(separator: ", "))
          FROM unnest(\(arrays.joined(separator: ", "))) AS t(\(names.joined(separator: ", ")))
          """, binds: bindings))
  }
}

/// Finds and inserts a snapshot's versions a chunk per statement: one statement finds the
/// versions already stored (by their whole content, the raw record by its SHA-256, which
/// spares comparing the raw values PostgreSQL keeps compressed out of line), one inserts
/// the new ones. Ids are given as SQLite gives them (the largest id + 1).
final class PostgresVersions: VersionStoring {
  let connection: PostgresStoreConnection
  let hashesEveryVersion = true
  private var nextVersionID: Int64

  init(_ connection: PostgresStoreConnection) throws {
    self.connection = connection
    nextVersionID = (try connection.value("SELECT coalesce(max(id), 0) FROM program_version") ?? 0) + 1
  }

  func store(_ chunk: EncodedChunk, fieldSetIDs: [Int64]) throws -> [Int64] {
    let hashes = chunk.versions.indices.map { StoreValue.blob(chunk.hash($0)) }
    let compared = VersionColumn.all.filter { !$0.isRaw }
    let rows = chunk.versions.indices.map { i in
      [StoreValue.integer(Int64(i))] + compared.map { $0.value(of: chunk.versions[i], fieldSetID: fieldSetIDs[i]) }
        + [hashes[i]]
    }
    var ids = try existingIDs(rows, compared: compared)
    let missing = ids.indices.filter { ids[$0] == nil }
    if !missing.isEmpty {
      let newIDs = missing.indices.map { nextVersionID + Int64($0) }
      nextVersionID += Int64(missing.count)
      try connection.insert(
        into: "program_version", columns: ["id"] + VersionColumn.all.map(\.name) + ["raw_hash"],
        rows: zip(missing, newIDs).map { index, id in
          [.integer(id)] + chunk.versions[index].columnValues(fieldSetID: fieldSetIDs[index]) + [hashes[index]]
        })
      for (index, id) in zip(missing, newIDs) { ids[index] = id }
    }
    return ids.map { $0 ?? 0 }
  }

  /// For each row (its index, the compared columns, the raw hash), the id of a stored
  /// version with exactly that content, if any: the rows go to a temporary table in one
  /// statement, then one query looks them all up.
  private func existingIDs(_ rows: [[StoreValue]], compared: [VersionColumn]) throws -> [Int64?] {
    let names = ["n"] + compared.map(\.name) + ["raw_hash"]
    try connection.connection.run(
      """
      CREATE TEMPORARY TABLE IF NOT EXISTS raon_lookup ON COMMIT DELETE ROWS AS
      SELECT 0::bigint AS n, \(compared.map { "v.\($0.name)" }.joined(separator: ", ")), v.raw_hash
      FROM program_version v WITH NO DATA
      """)
    try connection.connection.run("TRUNCATE raon_lookup")
    try connection.insert(into: "raon_lookup", columns: names, rows: rows)
    let matches = compared.map { column in
      column.isNullable ? "v.\(column.name) IS NOT DISTINCT FROM t.\(column.name)" : "v.\(column.name) = t.\(column.name)"
    }
    var ids = [Int64?](repeating: nil, count: rows.count)
    for row in try connection.rows(
      """
      SELECT t.n AS n, (SELECT v.id FROM program_version v
        WHERE \(matches.joined(separator: " AND ")) AND v.raw_hash = t.raw_hash
        ORDER BY v.id LIMIT 1) AS id
      FROM raon_lookup t
      """, [])
    {
      let n: Int = try row.get("n")
      guard n >= 0, n < rows.count else { throw DecodingFailure("a lookup returned row \(n) of \(rows.count)") }
      ids[n] = try row.get("id")
    }
    return ids
  }
}
