import RaonCore

/// A raw record as the store kept it, with the program it belongs to.
public struct StoredRawRecord: Sendable, Hashable {
  /// The normalised program's id (`cult:NNNNNN` or `h:…`).
  public var programID: String
  /// The `program_version` row holding this record.
  public var versionID: Int64
  /// Every field name and value in source order, nulls included, and whether invalid
  /// bytes were replaced; field names are shared by the records of one field set.
  public var record: RawRecord

  /// `(name, value)` pairs in source order; a `nil` value was a null in the source.
  public var fields: [(name: String, value: String?)] { record.fields }
}
