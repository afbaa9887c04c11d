import Foundation
import RaonCore

/// A column of `program_version` that holds a version's content, named once for both
/// databases: the shared reads decode versions by these names, the recordings of both
/// stores find and insert versions with these columns, and the recorded program is made
/// back from them (``ProgramVersion/program(rawValues:)``). (`id` and `raw_hash` are the
/// store's own and not listed.)
///
/// Adding a column: an entry here, last, with its ``Addition`` (each store's migration is
/// made from it: ``StoreSchema/addedColumns(_:)``), and the ``ProgramVersion`` property its
/// ``Access`` names, which that type's initialisers must then set (the compiler says
/// where). Equality, the stored reads and writes and the decoding follow from the entry.
package struct VersionColumn: Sendable {
  /// How a column added after the first release is created in a store that exists: its
  /// kind, and the value (SQL) of the rows recorded before it, or `nil` for NULL (a
  /// nullable column). Never changed once released.
  package struct Addition: Sendable {
    package var kind: StoreSchema.Kind
    package var defaultValue: String?

    package init(_ kind: StoreSchema.Kind, default defaultValue: String? = nil) {
      self.kind = kind
      self.defaultValue = defaultValue
    }
  }

  /// The ``ProgramVersion`` property the column holds and the ``Program`` field (or the raw
  /// record's part) it stands for.
  package enum Access: @unchecked Sendable {
    /// A program field kept as it is.
    case text(WritableKeyPath<ProgramVersion, String>, WritableKeyPath<Program, String>)
    case optionalInteger(WritableKeyPath<ProgramVersion, Int?>, WritableKeyPath<Program, Int?>)
    case optionalReal(WritableKeyPath<ProgramVersion, Double?>, WritableKeyPath<Program, Double?>)
    case optionalFlag(WritableKeyPath<ProgramVersion, Bool?>, WritableKeyPath<Program, Bool?>)
    /// A program's calendar day, as `YYYY-MM-DD`.
    case day(WritableKeyPath<ProgramVersion, String?>, WritableKeyPath<Program, CalendarDay?>)
    /// `quality_flags`: the program's flags, `;`-separated.
    case qualityFlags
    /// `program_text`: the program's other text fields and its registration day.
    case programText
    /// `field_set_id`: the raw record's field names, by their id in `field_set`.
    case fieldSet
    /// `raw_values`: the raw record's values, a JSON array.
    case rawValues
    /// `invalid_bytes_replaced`: the raw record's flag.
    case invalidBytesReplaced
  }

  /// Where a column's value is kept in a ``ProgramVersion`` and its kind of SQL value,
  /// whatever it stands for: what the stores bind and read.
  package enum Storage: @unchecked Sendable {
    case text(WritableKeyPath<ProgramVersion, String>)
    case optionalText(WritableKeyPath<ProgramVersion, String?>)
    case optionalInteger(WritableKeyPath<ProgramVersion, Int?>)
    case optionalReal(WritableKeyPath<ProgramVersion, Double?>)
    case flag(WritableKeyPath<ProgramVersion, Bool>)
    case optionalFlag(WritableKeyPath<ProgramVersion, Bool?>)
    /// The id of the version's field names in `field_set`, which the recording gives.
    case fieldSet
  }

  package let name: String
  package let access: Access
  /// Made from ``access`` once, not at every row.
  package let storage: Storage
  /// `nil` for the columns the first release made (``StoreSchema``'s frozen tables).
  package let added: Addition?

  package init(name: String, access: Access, added: Addition? = nil) {
    self.name = name
    self.access = access
    self.added = added
    storage =
      switch access {
      case .text(let path, _): .text(path)
      case .optionalInteger(let path, _): .optionalInteger(path)
      case .optionalReal(let path, _): .optionalReal(path)
      case .optionalFlag(let path, _): .optionalFlag(path)
      case .day(let path, _): .optionalText(path)
      case .qualityFlags: .text(\.qualityFlags)
      case .programText: .text(\.programText)
      case .fieldSet: .fieldSet
      case .rawValues: .text(\.rawJSON)
      case .invalidBytesReplaced: .flag(\.invalidBytesReplaced)
      }
  }

  /// Whether the column may hold NULL.
  package var isNullable: Bool {
    switch storage {
    case .optionalText, .optionalInteger, .optionalReal, .optionalFlag: true
    case .text, .flag, .fieldSet: false
    }
  }

  /// Whether the raw record's content hash (`raw_hash`) stands for this column: the field
  /// names, the raw values and their flag.
  package var isRaw: Bool {
    switch access {
    case .fieldSet, .rawValues, .invalidBytesReplaced: true
    case .text, .optionalInteger, .optionalReal, .optionalFlag, .day, .qualityFlags, .programText: false
    }
  }

  /// The content columns, in the table's order.
  package static let all: [VersionColumn] = [
    VersionColumn(name: "program_id", access: .text(\.programID, \.id)),
    VersionColumn(name: "title", access: .text(\.title, \.title)),
    VersionColumn(name: "category", access: .text(\.category, \.category)),
    VersionColumn(name: "district", access: .text(\.district, \.district)),
    VersionColumn(name: "is_free", access: .optionalFlag(\.isFree, \.isFree)),
    VersionColumn(name: "fee_min_krw", access: .optionalInteger(\.feeMinKRW, \.feeMinKRW)),
    VersionColumn(name: "fee_max_krw", access: .optionalInteger(\.feeMaxKRW, \.feeMaxKRW)),
    VersionColumn(name: "start_date", access: .day(\.startDate, \.startDate)),
    VersionColumn(name: "end_date", access: .day(\.endDate, \.endDate)),
    VersionColumn(name: "latitude", access: .optionalReal(\.latitude, \.latitude)),
    VersionColumn(name: "longitude", access: .optionalReal(\.longitude, \.longitude)),
    VersionColumn(name: "quality_flags", access: .qualityFlags),
    VersionColumn(name: "program_text", access: .programText),
    VersionColumn(name: "field_set_id", access: .fieldSet),
    VersionColumn(name: "raw_values", access: .rawValues),
    VersionColumn(name: "invalid_bytes_replaced", access: .invalidBytesReplaced),
  ]

  /// The column's value for `version`, whose field names have id `fieldSetID`.
  package func value(of version: ProgramVersion, fieldSetID: Int64) -> StoreValue {
    switch storage {
    case .text(let path): .text(version[keyPath: path])
    case .optionalText(let path): version[keyPath: path].storeValue
    case .optionalInteger(let path): version[keyPath: path].storeValue
    case .optionalReal(let path): version[keyPath: path].storeValue
    case .flag(let path): .bool(version[keyPath: path])
    case .optionalFlag(let path): version[keyPath: path].storeValue
    case .fieldSet: .integer(fieldSetID)
    }
  }

  /// Sets the column's property of `version` from `row` (by the column's name).
  func read(_ row: StoreRow, into version: inout ProgramVersion) throws {
    switch storage {
    case .text(let path): version[keyPath: path] = try row.get(name)
    case .optionalText(let path): version[keyPath: path] = try row.get(name)
    case .optionalInteger(let path): version[keyPath: path] = try row.get(name)
    case .optionalReal(let path): version[keyPath: path] = try row.get(name)
    case .flag(let path): version[keyPath: path] = try row.get(name)
    case .optionalFlag(let path): version[keyPath: path] = try row.get(name)
    case .fieldSet: break
    }
  }

  /// Sets the program field the column stands for from `version` (nothing for the raw
  /// record's columns).
  ///
  /// - Parameter rawValues: The version's raw values, which `program_text` may refer to.
  func decode(_ version: ProgramVersion, rawValues: [String?], into program: inout Program) throws {
    switch access {
    case .text(let stored, let field): program[keyPath: field] = version[keyPath: stored]
    case .optionalInteger(let stored, let field): program[keyPath: field] = version[keyPath: stored]
    case .optionalReal(let stored, let field): program[keyPath: field] = version[keyPath: stored]
    case .optionalFlag(let stored, let field): program[keyPath: field] = version[keyPath: stored]
    case .day(let stored, let field): program[keyPath: field] = try ProgramVersion.day(version[keyPath: stored], name)
    case .qualityFlags: program.qualityFlags = QualityFlags(joinedNames: version.qualityFlags)
    case .programText: try version.decodeProgramText(rawValues: rawValues, into: &program)
    case .fieldSet, .rawValues, .invalidBytesReplaced: break
    }
  }

  /// The content columns as a select list, each prefixed with `table.`.
  package static func selectList(_ table: String) -> String {
    all.map { "\(table).\($0.name)" }.joined(separator: ", ")
  }
}

extension ProgramVersion {
  /// A version as a row of `program_version` holds it, read by column name (raw values not
  /// parsed yet: see ``program(rawValues:)``).
  package init(row: StoreRow, fieldSets: [Int64: FieldNames], versionID: Int64) throws {
    let fieldSetID: Int64 = try row.get("field_set_id")
    guard let names = fieldSets[fieldSetID] else {
      throw DecodingFailure("version \(versionID) refers to missing field set \(fieldSetID)")
    }
    self.init(blankWith: names)
    for column in VersionColumn.all { try column.read(row, into: &self) }
  }

  /// The values of the content columns, in ``VersionColumn/all``'s order.
  package func columnValues(fieldSetID: Int64) -> [StoreValue] {
    VersionColumn.all.map { $0.value(of: self, fieldSetID: fieldSetID) }
  }
}
