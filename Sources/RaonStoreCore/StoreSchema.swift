/// The parts of the schema both databases create alike, written once. Frozen: they are what
/// the first migrations made, so they never change (a change comes as a new migration in
/// each store, or, for a version column added later, from its ``VersionColumn`` entry:
/// ``addedColumns(_:)``).
package enum StoreSchema {
  /// How one database spells a column type.
  package enum Types {
    case sqlite
    case postgresql
  }

  /// A column's kind, spelled by each database (``sql(_:)``).
  package enum Kind: Sendable {
    case integer, text, real, blob
    /// SQLite keeps it as an integer checked to be 0 or 1.
    case flag

    /// The type `types` gives this kind.
    func sql(_ types: Types) -> String {
      switch (self, types) {
      case (.integer, .sqlite), (.flag, .sqlite): "INTEGER"
      case (.integer, .postgresql): "bigint"
      case (.text, .sqlite): "TEXT"
      case (.text, .postgresql): "text"
      case (.real, .sqlite): "REAL"
      case (.real, .postgresql): "double precision"
      case (.blob, .sqlite): "BLOB"
      case (.blob, .postgresql): "bytea"
      case (.flag, .postgresql): "boolean"
      }
    }
  }

  /// The tables both databases define alike, as the first release made them.
  package enum Table {
    case fieldSet, programVersion, presence

    /// Name, kind, `NOT NULL` and what follows, a column a line; a kind `nil` is a
    /// table constraint written as it is.
    fileprivate var lines: [(String, Kind?, Bool, String?)] {
      switch self {
      case .fieldSet: StoreSchema.fieldSet
      case .programVersion: StoreSchema.programVersion
      case .presence: StoreSchema.presence
      }
    }
  }

  fileprivate static let fieldSet: [(String, Kind?, Bool, String?)] = [
    ("id", .integer, false, "PRIMARY KEY"),
    ("names", .text, true, "UNIQUE"),
  ]

  fileprivate static let presence: [(String, Kind?, Bool, String?)] = [
    ("version_id", .integer, true, "REFERENCES program_version(id)"),
    ("first_snapshot_id", .integer, true, "REFERENCES snapshot(id)"),
    ("last_snapshot_id", .integer, true, "REFERENCES snapshot(id)"),
    ("copies", .integer, true, "DEFAULT 1 CHECK (copies >= 1)"),
    ("PRIMARY KEY (version_id, first_snapshot_id)", nil, false, nil),
    ("CHECK (first_snapshot_id <= last_snapshot_id)", nil, false, nil),
  ]

  fileprivate static let programVersion: [(String, Kind?, Bool, String?)] = [
    ("id", .integer, false, "PRIMARY KEY"),
    ("raw_hash", .blob, true, "CHECK (length(raw_hash) = 32)"),
    ("program_id", .text, true, nil),
    ("title", .text, true, nil),
    ("category", .text, true, nil),
    ("district", .text, true, nil),
    ("is_free", .flag, true, nil),
    ("fee_min_krw", .integer, false, nil),
    ("fee_max_krw", .integer, false, nil),
    ("start_date", .text, false, nil),
    ("end_date", .text, false, nil),
    ("latitude", .real, false, nil),
    ("longitude", .real, false, nil),
    ("quality_flags", .text, true, nil),
    ("program_text", .text, true, nil),
    ("field_set_id", .integer, true, "REFERENCES field_set(id)"),
    ("raw_values", .text, true, nil),
    ("invalid_bytes_replaced", .flag, true, nil),
  ]

  /// The column definitions of `program_version` (see ``columns(of:_:freeFlagKnown:)``).
  ///
  /// - Parameter freeFlagKnown: `is_free` NOT NULL, as before SQLite's v4 (PostgreSQL's v1
  ///   was made after it: `false`).
  package static func programVersionColumns(_ types: Types, freeFlagKnown: Bool) -> String {
    columns(of: .programVersion, types, freeFlagKnown: freeFlagKnown)
  }

  /// The column definitions of a table, one a line (the first unindented, the others by
  /// two spaces, to sit in a `CREATE TABLE` written with two-space indents).
  package static func columns(of table: Table, _ types: Types, freeFlagKnown: Bool = true) -> String {
    table.lines.map { name, kind, notNull, rest in
      guard let kind else { return name }
      var line = name + " " + kind.sql(types)
      if notNull && (name != "is_free" || freeFlagKnown) { line += " NOT NULL" }
      if let rest { line += " " + rest }
      if kind == .flag, types == .sqlite { line += " CHECK (\(name) IN (0, 1))" }
      return line
    }.joined(separator: ",\n  ")
  }

  /// `field_set`, `program_version` and `presence` with their indexes, as the first
  /// migration of each database creates them.
  ///
  /// - Parameter freeFlagKnown: `is_free` NOT NULL, as before SQLite's v4 (PostgreSQL's v1
  ///   was made after it: `false`).
  package static func tables(_ types: Types, freeFlagKnown: Bool) -> String {
    let on = types == .sqlite ? "" : " "
    return """
      -- The distinct lists of source field names, stored once and shared by versions.
      CREATE TABLE field_set (
        \(columns(of: .fieldSet, types))
      );

      -- One row per distinct content: a raw record and the program made from it.
      CREATE TABLE program_version (
        \(columns(of: .programVersion, types, freeFlagKnown: freeFlagKnown))
      );
      CREATE INDEX program_version_by_program_id ON program_version\(on)(program_id);

      -- Membership as validity intervals: the version is in every snapshot whose id is
      -- between first_snapshot_id and last_snapshot_id, `copies` times.
      CREATE TABLE presence (
        \(columns(of: .presence, types))
      )\(types == .sqlite ? " WITHOUT ROWID" : "");
      CREATE INDEX presence_by_last_snapshot ON presence\(on)(last_snapshot_id, first_snapshot_id);
      """
  }

  /// One migration per version column added after the first release, in
  /// ``VersionColumn/all``'s order: each store's migrations end with these, so a new column
  /// is its entry there (and the ``ProgramVersion`` property it maps), not a migration
  /// written for each database. Rows recorded before it hold its default (NULL for a
  /// nullable one).
  ///
  /// - Returns: Each migration's name (`column-NAME`, never to change once released) and its
  ///   statement.
  package static func addedColumns(_ types: Types) -> [(identifier: String, sql: String)] {
    VersionColumn.all.compactMap { column in
      column.added.map { ("column-\(column.name)", addColumn(column.name, $0, types)) }
    }
  }

  /// `ALTER TABLE program_version ADD COLUMN …` for `added`.
  package static func addColumn(_ name: String, _ added: VersionColumn.Addition, _ types: Types) -> String {
    var sql = "ALTER TABLE program_version ADD COLUMN \(name) \(added.kind.sql(types))"
    if let value = added.defaultValue { sql += " NOT NULL DEFAULT \(value)" }
    if added.kind == .flag, types == .sqlite { sql += " CHECK (\(name) IN (0, 1))" }
    return sql
  }

  /// The analysts' view: the programs of every snapshot, one row per (snapshot, version).
  package static let snapshotProgramView = """
    CREATE VIEW snapshot_program AS
      SELECT s.id AS snapshot_id, v.id AS version_id, p.copies, v.program_id, v.title,
        v.category, v.district, v.is_free, v.fee_min_krw, v.fee_max_krw, v.start_date,
        v.end_date, v.latitude, v.longitude, v.quality_flags
      FROM snapshot s
      JOIN presence p ON p.first_snapshot_id <= s.id AND p.last_snapshot_id >= s.id
      JOIN program_version v ON v.id = p.version_id;
    """
}
