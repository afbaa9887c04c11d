import Foundation

/// A value bound to a statement or read from a row, whatever the database.
package enum StoreValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
  case bool(Bool)
  /// A list of integers bound as one value (see ``SQLDialect/inIntegerList``).
  case integers([Int64])
}

/// How one database spells what the shared statements need. Statements are written with
/// SQLite's numbered placeholders (`?1`, `?2`, …); a connection rewrites them as it must.
package struct SQLDialect: Sendable {
  /// Appended to a text column in `ORDER BY` and comparisons so text orders by its bytes
  /// (SQLite's `BINARY`; PostgreSQL's `COLLATE "C"`).
  package var byBytes: String
  /// The text of a JSON object's member `key` in column `column`, NULL when absent or
  /// null, and `'?'` when it is not text.
  package var jsonText: @Sendable (_ column: String, _ key: String) -> String
  /// `column IN <the list bound at placeholder>` (a ``StoreValue/integers(_:)``).
  package var inIntegerList: @Sendable (_ column: String, _ placeholder: String) -> String
  /// The highest snapshot id ever given (a one-value query), beside `max(id)`.
  package var lastSnapshotID: String
  /// Records that the snapshot id at `?1` was given, when inserting it does not.
  package var snapshotIDGiven: String?
  /// Makes the next snapshot id at least `?1` + 1.
  package var reserveSnapshotIDs: [String]

  package init(
    byBytes: String, jsonText: @escaping @Sendable (String, String) -> String,
    inIntegerList: @escaping @Sendable (String, String) -> String, lastSnapshotID: String,
    snapshotIDGiven: String?, reserveSnapshotIDs: [String]
  ) {
    self.byBytes = byBytes
    self.jsonText = jsonText
    self.inIntegerList = inIntegerList
    self.lastSnapshotID = lastSnapshotID
    self.snapshotIDGiven = snapshotIDGiven
    self.reserveSnapshotIDs = reserveSnapshotIDs
  }
}

/// One open connection (inside a transaction the store began) that the shared store
/// algorithm (``StoreQueries``) runs its statements on.
package protocol StoreConnection {
  var dialect: SQLDialect { get }
  /// Runs a query, handing each row to `body` until it returns `false`. Rows are read a
  /// page at a time, so a whole snapshot is never held as rows.
  func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Bool) throws
  /// Runs a statement and returns how many rows it changed.
  @discardableResult
  func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int
  /// Every row of a (small) query.
  func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow]
  /// Inserts rows (each the values of `columns`, in order) into `table`.
  func insert(into table: String, columns: [String], rows: [[StoreValue]]) throws
}

extension StoreConnection {
  package func rows(_ sql: String) throws -> [StoreRow] { try rows(sql, []) }

  /// Every row of a query, through ``forEachRow(_:_:_:)``.
  package func allRows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
    var rows: [StoreRow] = []
    try forEachRow(sql, arguments) {
      rows.append($0)
      return true
    }
    return rows
  }

  /// The first column of the first row, `nil` when there is no row or it is NULL.
  package func value<T: StoreDecodable>(_ sql: String, _ arguments: [StoreValue] = []) throws -> T? {
    try rows(sql, arguments).first?.first(T?.self) ?? nil
  }
}

/// The column names of a query's rows, shared by all of them.
package final class StoreColumns: @unchecked Sendable {
  package let names: [String]
  private let indexByName: [String: Int]

  package init(_ names: [String]) {
    self.names = names
    var index: [String: Int] = [:]
    for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
    indexByName = index
  }

  func index(_ name: String) throws -> Int {
    guard let i = indexByName[name] else {
      throw DecodingFailure("a query has no column \(name)")
    }
    return i
  }
}

/// A row of a query, read by column name.
package struct StoreRow {
  package let columns: StoreColumns
  package let values: [StoreValue]

  package init(columns: StoreColumns, values: [StoreValue]) {
    self.columns = columns
    self.values = values
  }

  /// The value of column `name` as `T` (an optional for a column that may be NULL).
  package func get<T: StoreDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
    try T.decode(values[try columns.index(name)], column: name)
  }

  /// The value of the first column.
  package func first<T: StoreDecodable>(_ type: T.Type = T.self) throws -> T {
    guard let value = values.first else { throw DecodingFailure("a query returned no column") }
    return try T.decode(value, column: columns.names.first ?? "?")
  }
}

/// A Swift type a stored value reads back as.
package protocol StoreDecodable {
  static func decode(_ value: StoreValue, column: String) throws -> Self
}

private func mismatch(_ value: StoreValue, _ column: String, _ wanted: String) -> DecodingFailure {
  DecodingFailure("column \(column) holds \(value == .null ? "NULL" : "\(value)") where \(wanted) belongs")
}

extension Int64: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> Int64 {
    guard case .integer(let v) = value else { throw mismatch(value, column, "an integer") }
    return v
  }
}

extension Int: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> Int {
    Int(try Int64.decode(value, column: column))
  }
}

extension Double: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> Double {
    switch value {
    case .real(let v): return v
    case .integer(let v): return Double(v)  // SQLite keeps a whole REAL as an integer
    default: throw mismatch(value, column, "a number")
    }
  }
}

extension String: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> String {
    guard case .text(let v) = value else { throw mismatch(value, column, "text") }
    return v
  }
}

extension Data: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> Data {
    guard case .blob(let v) = value else { throw mismatch(value, column, "bytes") }
    return v
  }
}

extension Bool: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> Bool {
    switch value {
    case .bool(let v): return v
    case .integer(0): return false  // SQLite's booleans
    case .integer(1): return true
    default: throw mismatch(value, column, "a boolean")
    }
  }
}

extension Optional: StoreDecodable where Wrapped: StoreDecodable {
  package static func decode(_ value: StoreValue, column: String) throws -> Wrapped? {
    value == .null ? nil : try Wrapped.decode(value, column: column)
  }
}

/// A Swift value bound to a statement.
package protocol StoreEncodable {
  var storeValue: StoreValue { get }
}

extension Int64: StoreEncodable { package var storeValue: StoreValue { .integer(self) } }
extension Int: StoreEncodable { package var storeValue: StoreValue { .integer(Int64(self)) } }
extension Double: StoreEncodable { package var storeValue: StoreValue { .real(self) } }
extension String: StoreEncodable { package var storeValue: StoreValue { .text(self) } }
extension Bool: StoreEncodable { package var storeValue: StoreValue { .bool(self) } }
extension Data: StoreEncodable { package var storeValue: StoreValue { .blob(self) } }
extension Optional: StoreEncodable where Wrapped: StoreEncodable {
  package var storeValue: StoreValue { self?.storeValue ?? .null }
}
