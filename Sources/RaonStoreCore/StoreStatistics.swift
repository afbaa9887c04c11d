/// How big a store is and what it holds.
public struct StoreStatistics: Sendable, Hashable {
  /// Rows of `snapshot`.
  public var snapshotCount: Int
  /// Distinct program versions (rows of `program_version`).
  public var versionCount: Int
  /// Validity intervals (rows of `presence`).
  public var presenceCount: Int
  /// Distinct field-name lists (rows of `field_set`).
  public var fieldSetCount: Int
  /// Pages in use times page size, as SQLite counts it (free pages excluded).
  public var databaseBytes: Int
  /// The database file plus its write-ahead log on disk; `nil` for an in-memory store.
  public var fileBytes: Int?

  public init(
    snapshotCount: Int, versionCount: Int, presenceCount: Int, fieldSetCount: Int,
    databaseBytes: Int, fileBytes: Int?
  ) {
    self.snapshotCount = snapshotCount
    self.versionCount = versionCount
    self.presenceCount = presenceCount
    self.fieldSetCount = fieldSetCount
    self.databaseBytes = databaseBytes
    self.fileBytes = fileBytes
  }
}
