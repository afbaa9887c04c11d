/// One record exactly as a source gave it: every field name and value, unknown ones too.
///
/// Field names are shared by all records of one source (a CSV header, an API page's key
/// set) through ``FieldNames``, so a million records cost one array of names, and the
/// canonical meaning of each column is resolved once per source, not once per row.
public struct RawRecord: Sendable, Hashable {
  /// The names of the fields, in source order, with their canonical meaning.
  public let names: FieldNames
  /// The values, parallel to `names.names`. `nil` is a JSON `null` (a CSV has none).
  public var values: [String?]
  /// Where the record came from, for error messages and flags (not part of its content).
  public var location: SourceLocation?
  /// True when the decoder replaced invalid bytes of this record with U+FFFD.
  public var invalidBytesReplaced: Bool

  public init(
    names: FieldNames, values: [String?], location: SourceLocation? = nil,
    invalidBytesReplaced: Bool = false
  ) {
    precondition(names.names.count == values.count, "a raw record needs one value per field name")
    self.names = names
    self.values = values
    self.location = location
    self.invalidBytesReplaced = invalidBytesReplaced
  }

  /// Convenience for tests and small sources: names and values in order.
  public init(_ pairs: KeyValuePairs<String, String?>, location: SourceLocation? = nil) {
    self.init(
      names: FieldNames(pairs.map(\.key)), values: pairs.map(\.value), location: location)
  }

  /// The value of the first field with this canonical meaning; `nil` when absent or null.
  public subscript(field: CanonicalField) -> String? {
    guard let i = names.index(of: field) else { return nil }
    return values[i]
  }

  /// The value of the field with exactly this source name.
  public subscript(name name: String) -> String? {
    guard let i = names.names.firstIndex(of: name) else { return nil }
    return values[i]
  }

  /// `(name, value)` pairs in source order.
  public var fields: [(name: String, value: String?)] {
    Array(zip(names.names, values)).map { (name: $0.0, value: $0.1) }
  }

  // Content equality ignores where the record was read from.
  public static func == (a: RawRecord, b: RawRecord) -> Bool {
    a.names.names == b.names.names && a.values == b.values
      && a.invalidBytesReplaced == b.invalidBytesReplaced
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(names.names)
    hasher.combine(values)
  }
}

/// The field names of a source, resolved once to their canonical meanings.
public final class FieldNames: Sendable, Hashable {
  public let names: [String]
  /// For each canonical field, the index of the first source column that carries it.
  private let indexByField: [CanonicalField: Int]
  /// The same, indexed by ``CanonicalField/ordinal`` (-1: absent), for the hot path.
  private let indexTable: [Int]
  /// The labels of a catalog's own that the shipped ones do not know (folded,
  /// ``CatalogProfile/headerAliases``), kept for the wider names of a long record.
  public let aliases: [String: CanonicalField]

  /// - Parameter aliases: A catalog's own labels, read where the shipped labels
  ///   (``CanonicalField/init(sourceName:)``) know a name not.
  public init(_ names: [String], aliases: [String: CanonicalField] = [:]) {
    self.names = names
    self.aliases = aliases
    var map: [CanonicalField: Int] = [:]
    for (i, name) in names.enumerated() {
      let field = CanonicalField(sourceName: name) ?? (aliases.isEmpty ? nil : aliases[CanonicalField.fold(name)])
      if let field, map[field] == nil { map[field] = i }
    }
    self.indexByField = map
    var table = [Int](repeating: -1, count: CanonicalField.count)
    for (field, i) in map { table[field.ordinal] = i }
    self.indexTable = table
  }

  public func index(of field: CanonicalField) -> Int? {
    let i = indexTable[field.ordinal]
    return i < 0 ? nil : i
  }

  /// The canonical fields this source provides.
  public var fields: Set<CanonicalField> { Set(indexByField.keys) }

  public static func == (a: FieldNames, b: FieldNames) -> Bool { a === b || a.names == b.names }
  public func hash(into hasher: inout Hasher) { hasher.combine(names) }
}

/// A place in a source: a file (or URL with the key redacted) and a line or row.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var source: String
  /// 1-based line of the record's first line (CSV), or 1-based row (JSON/API).
  public var line: Int

  public init(source: String, line: Int) {
    self.source = source
    self.line = line
  }

  public var description: String { "\(source):\(line)" }
}
