import Foundation
import RaonCore

/// A column of `program_version` that holds a version's content, named once for both
/// databases: the shared reads decode versions by these names and the recordings of both
/// stores find and insert versions with these columns. (`id` and `raw_hash` are the
/// store's own and not listed.)
///
/// Adding a column: an entry here, last, with its ``Addition`` (each store's migration is
/// made from it: ``StoreSchema/addedColumns(_:)``), and its property on ``ProgramVersion``.
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

  package let name: String
  package let access: Access
  /// `nil` for the columns the first release made (``StoreSchema``'s frozen tables).
  package let added: Addition?

  package init(name: String, access: Access, added: Addition? = nil) {
    self.name = name
    self.access = access
    self.added = added
  }

  /// Whether the column may hold NULL.
  package var isNullable: Bool {
    switch access {
    case .optionalText, .optionalInteger, .optionalReal, .optionalFlag: true
    case .text, .flag, .fieldSet: false
    }
  }

  /// Whether the raw record's content hash (`raw_hash`) stands for this column: the field
  /// names, the raw values and their flag.
  package var isRaw: Bool { ["field_set_id", "raw_values", "invalid_bytes_replaced"].contains(name) }

  /// The content columns, in the table's order.
  package static let all: [VersionColumn] = [
    VersionColumn(name: "program_id", access: .text(\.programID)),
    VersionColumn(name: "title", access: .text(\.title)),
    VersionColumn(name: "category", access: .text(\.category)),
    VersionColumn(name: "district", access: .text(\.district)),
    VersionColumn(name: "is_free", access: .optionalFlag(\.isFree)),
    VersionColumn(name: "fee_min_krw", access: .optionalInteger(\.feeMinKRW)),
    VersionColumn(name: "fee_max_krw", access: .optionalInteger(\.feeMaxKRW)),
    VersionColumn(name: "start_date", access: .optionalText(\.startDate)),
    VersionColumn(name: "end_date", access: .optionalText(\.endDate)),
    VersionColumn(name: "latitude", access: .optionalReal(\.latitude)),
    VersionColumn(name: "longitude", access: .optionalReal(\.longitude)),
    VersionColumn(name: "quality_flags", access: .text(\.qualityFlags)),
    VersionColumn(name: "program_text", access: .text(\.programText)),
    VersionColumn(name: "field_set_id", access: .fieldSet),
    VersionColumn(name: "raw_values", access: .text(\.rawJSON)),
    VersionColumn(name: "invalid_bytes_replaced", access: .flag(\.invalidBytesReplaced)),
  ]

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
    self = ProgramVersion.stored(
      fieldNames: names, rawJSON: "", invalidBytesReplaced: false, programID: "", title: "",
      category: "", district: "", isFree: nil, feeMinKRW: nil, feeMaxKRW: nil, startDate: nil,
      endDate: nil, latitude: nil, longitude: nil, qualityFlags: "", programText: "")
    for column in VersionColumn.all { try column.read(row, into: &self) }
  }

  /// The values of the content columns, in ``VersionColumn/all``'s order.
  package func columnValues(fieldSetID: Int64) -> [StoreValue] {
    VersionColumn.all.map { $0.value(of: self, fieldSetID: fieldSetID) }
  }
}
