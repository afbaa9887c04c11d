import Foundation
import GRDB
import GRDBSQLite
import RaonStoreCore

/// The shared store algorithm's statements on an SQLite connection (GRDB's `Database`).
struct SQLiteConnection: StoreConnection {
  let db: Database

  var dialect: SQLDialect { Self.dialect }

  static let dialect = SQLDialect(
    byBytes: "",  // SQLite's BINARY collation orders text by its bytes
    jsonText: { column, key in
      """
      CASE coalesce(json_type(\(column), '$.\(key)'), 'null')
        WHEN 'text' THEN json_extract(\(column), '$.\(key)') WHEN 'null' THEN NULL ELSE '?' END
      """
    },
    inIntegerList: { column, placeholder in "\(column) IN (SELECT value FROM json_each(\(placeholder)))" },
    lastSnapshotID: "SELECT seq FROM sqlite_sequence WHERE name = 'snapshot'",
    // Inserting an id above AUTOINCREMENT's memory raises it.
    snapshotIDGiven: nil,
    reserveSnapshotIDs: [
      "UPDATE sqlite_sequence SET seq = max(seq, ?1) WHERE name = 'snapshot'",
      "INSERT INTO sqlite_sequence (name, seq) SELECT 'snapshot', ?1 WHERE changes() = 0",
    ])

  static func arguments(_ values: [StoreValue]) -> StatementArguments {
    StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in
      switch value {
      case .null: nil
      case .integer(let v): v
      case .real(let v): v
      case .text(let v): v
      case .blob(let v): v
      case .bool(let v): v ? Int64(1) : Int64(0)
      case .integers(let list): "[" + list.map(String.init).joined(separator: ",") + "]"
      }
    })
  }

  static func value(_ value: DatabaseValue) -> StoreValue {
    switch value.storage {
    case .null: .null
    case .int64(let v): .integer(v)
    case .double(let v): .real(v)
    case .string(let v): .text(v)
    case .blob(let v): .blob(v)
    }
  }

  func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Bool) throws {
    let statement = try db.cachedStatement(sql: sql)
    let columns = StoreColumns(statement.columnNames)
    let count = columns.names.count
    let rows = try Row.fetchCursor(statement, arguments: Self.arguments(arguments))
    while let row = try rows.next() {
      let values = (0..<count).map { Self.value(row[$0]) }
      guard try body(StoreRow(columns: columns, values: values)) else { return }
    }
  }

  func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
    try allRows(sql, arguments)
  }

  @discardableResult
  func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
    try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
    return db.changesCount
  }

  func insert(into table: String, columns: [String], rows: [[StoreValue]]) throws {
    guard !rows.isEmpty else { return }
    let statement = try db.cachedStatement(
      sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
    for row in rows { try statement.execute(arguments: Self.arguments(row)) }
  }
}

/// Finds and inserts a snapshot's versions one at a time: a version is found by its exact
/// content through the `program_id` index, so the SHA-256 content hash is computed only
/// for versions not stored yet (the unchanged 99% of a daily catalog costs no hashing).
/// Comparing the program too means a record normalised differently (a newer Raon) makes a
/// new version, so every snapshot returns exactly the programs recorded with it.
final class SQLiteVersions: VersionStoring {
  let connection: SQLiteConnection
  /// Into an empty store (a first import) nearly every version is new: hash them all up
  /// front, over the cores.
  let hashesEveryVersion: Bool
  private let find: Statement
  private let add: Statement

  init(_ db: Database) throws {
    connection = SQLiteConnection(db: db)
    let columns = VersionColumn.all
    find = try db.cachedStatement(
      sql: """
        SELECT id FROM program_version
        WHERE \(columns.map { "\($0.name) \($0.isNullable ? "IS" : "=") ?" }.joined(separator: " AND "))
        LIMIT 1
        """)
    add = try db.cachedStatement(
      sql: """
        INSERT INTO program_version (\(columns.map(\.name).joined(separator: ", ")), raw_hash)
        VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")), ?)
        """)
    hashesEveryVersion = try Int64.fetchOne(db, sql: "SELECT id FROM program_version LIMIT 1") == nil
  }

  func store(_ chunk: EncodedChunk, fieldSetIDs: [Int64]) throws -> [Int64] {
    var ids: [Int64] = []
    ids.reserveCapacity(chunk.versions.count)
    for (index, version) in chunk.versions.enumerated() {
      try bind(version, fieldSetID: fieldSetIDs[index], to: find)
      if let found = try step(find) {
        ids.append(found)
      } else {
        try bind(version, fieldSetID: fieldSetIDs[index], to: add)
        try check(chunk.hash(index).bind(to: add.sqliteStatement, at: CInt(VersionColumn.all.count + 1)), add)
        _ = try step(add)
        ids.append(connection.db.lastInsertedRowID)
      }
    }
    return ids
  }

  // The content columns are bound straight from the version into the prepared statements
  // (no value array, no `StatementArguments`): this lookup runs once per program of every
  // recording, and the arrays cost a recording of an unchanged 20,000-program catalog
  // about 0.1 s (bench/RESULTS.md, "recording").

  /// Resets `statement` and binds `version`'s content columns, in ``VersionColumn/all``'s
  /// order, to its first parameters.
  private func bind(_ version: ProgramVersion, fieldSetID: Int64, to statement: Statement) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    for (offset, column) in VersionColumn.all.enumerated() {
      let index = CInt(offset + 1)
      let code: CInt =
        switch column.access {
        case .text(let path): version[keyPath: path].bind(to: handle, at: index)
        case .optionalText(let path): Self.bind(version[keyPath: path], to: handle, at: index)
        case .optionalInteger(let path): Self.bind(version[keyPath: path].map(Int64.init), to: handle, at: index)
        case .optionalReal(let path): Self.bind(version[keyPath: path], to: handle, at: index)
        case .flag(let path): version[keyPath: path].bind(to: handle, at: index)
        case .optionalFlag(let path): Self.bind(version[keyPath: path], to: handle, at: index)
        case .fieldSet: fieldSetID.bind(to: handle, at: index)
        }
      try check(code, statement)
    }
  }

  private static func bind(_ value: (some StatementBinding)?, to handle: SQLiteStatement, at index: CInt) -> CInt {
    value.map { $0.bind(to: handle, at: index) } ?? sqlite3_bind_null(handle, index)
  }

  /// Runs `statement` once: the first column of its row, `nil` when it has none.
  private func step(_ statement: Statement) throws -> Int64? {
    let handle = statement.sqliteStatement
    defer { sqlite3_reset(handle) }
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return sqlite3_column_int64(handle, 0)
    case SQLITE_DONE: return nil
    case let code: try check(code, statement); return nil
    }
  }

  private func check(_ code: CInt, _ statement: Statement) throws {
    guard code != SQLITE_OK else { return }
    throw DatabaseError(
      resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection.db.sqliteConnection)),
      sql: statement.sql)
  }
}
