import Foundation
import RaonCore

/// A column of `program_version` that holds a version's content, named once for both
/// databases: the shared reads decode versions by these names, the recordings of both
/// stores find and insert versions with these columns, and the recorded program is made
/// back from them. (`id` and `raw_hash` are the store's own and not listed.)
///
/// Adding a column is a case of ``ID``, last; the compiler then asks for the rest, each in
/// one `switch` with no `default:` — its ``ProgramVersion`` property and, for a column added
/// after the first release, its ``Addition`` (``init(_:)``: each store's migration is made
/// from it, ``StoreSchema/addedColumns(_:)``), the program field it is decoded into
/// (``ProgramVersion/program(rawValues:)``), whether it is the raw record's (``isRaw``) — and
/// the property itself, which `ProgramVersion`'s initialisers must set. Equality is
/// synthesised, and the stored reads and writes walk ``all``.
package struct VersionColumn: Sendable {
  /// The content columns, in the table's order; the raw value is the column's name.
  package enum ID: String, CaseIterable, Sendable {
    case programID = "program_id"
    case title
    case category
    case district
    case isFree = "is_free"
    case feeMinKRW = "fee_min_krw"
    case feeMaxKRW = "fee_max_krw"
    case startDate = "start_date"
    case endDate = "end_date"
    case latitude
    case longitude
    case qualityFlags = "quality_flags"
    case programText = "program_text"
    case fieldSet = "field_set_id"
    case rawValues = "raw_values"
    case invalidBytesReplaced = "invalid_bytes_replaced"
  }

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

  /// How the column maps to a ``ProgramVersion`` property.
  package enum Access: @unchecked Sendable {
    case text(WritableKeyPath<ProgramVersion, String>)
    case optionalText(WritableKeyPath<ProgramVersion, String?>)
    case optionalInteger(WritableKeyPath<ProgramVersion, Int?>)
    case optionalReal(WritableKeyPath<ProgramVersion, Double?>)
    case flag(WritableKeyPath<ProgramVersion, Bool>)
    case optionalFlag(WritableKeyPath<ProgramVersion, Bool?>)
    /// `field_set_id`: the id of the version's field names in `field_set`.
    case fieldSet
  }

  package let id: ID
  package let name: String
  package let access: Access
  /// `nil` for the columns the first release made (``StoreSchema``'s frozen tables).
  package let added: Addition?

  /// The column `id`: its property, and how a store that exists gets it.
  init(_ id: ID) {
    self.id = id
    name = id.rawValue
    (access, added) =
      switch id {
      case .programID: (.text(\.programID), nil)
      case .title: (.text(\.title), nil)
      case .category: (.text(\.category), nil)
      case .district: (.text(\.district), nil)
      case .isFree: (.optionalFlag(\.isFree), nil)
      case .feeMinKRW: (.optionalInteger(\.feeMinKRW), nil)
      case .feeMaxKRW: (.optionalInteger(\.feeMaxKRW), nil)
      case .startDate: (.optionalText(\.startDate), nil)
      case .endDate: (.optionalText(\.endDate), nil)
      case .latitude: (.optionalReal(\.latitude), nil)
      case .longitude: (.optionalReal(\.longitude), nil)
      case .qualityFlags: (.text(\.qualityFlags), nil)
      case .programText: (.text(\.programText), nil)
      case .fieldSet: (.fieldSet, nil)
      case .rawValues: (.text(\.rawJSON), nil)
      case .invalidBytesReplaced: (.flag(\.invalidBytesReplaced), nil)
      // A column added later: (.optionalText(\.newField), Addition(.text)).
      }
  }

  /// The content columns, in the table's order.
  package static let all: [VersionColumn] = ID.allCases.map(VersionColumn.init)

  /// Whether the column may hold NULL.
  package var isNullable: Bool {
    switch access {
    case .optionalText, .optionalInteger, .optionalReal, .optionalFlag: true
    case .text, .flag, .fieldSet: false
    }
  }

  /// Whether the raw record's content hash (`raw_hash`) stands for this column: the field
  /// names, the raw values and their flag.
  package var isRaw: Bool {
    switch id {
    case .fieldSet, .rawValues, .invalidBytesReplaced: true
    case .programID, .title, .category, .district, .isFree, .feeMinKRW, .feeMaxKRW, .startDate, .endDate,
      .latitude, .longitude, .qualityFlags, .programText:
      false
    }
  }

  /// The column's value for `version`, whose field names have id `fieldSetID`.
  package func value(of version: ProgramVersion, fieldSetID: Int64) -> StoreValue {
    switch access {
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
    switch access {
    case .text(let path): version[keyPath: path] = try row.get(name)
    case .optionalText(let path): version[keyPath: path] = try row.get(name)
    case .optionalInteger(let path): version[keyPath: path] = try row.get(name)
    case .optionalReal(let path): version[keyPath: path] = try row.get(name)
    case .flag(let path): version[keyPath: path] = try row.get(name)
    case .optionalFlag(let path): version[keyPath: path] = try row.get(name)
    case .fieldSet: break
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
