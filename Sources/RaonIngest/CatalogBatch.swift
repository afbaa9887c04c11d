import RaonCore

/// The records of one ingestion, as read from one source, before normalisation.
public struct CatalogBatch: Sendable {
  /// A file name or the API base URL with the key redacted.
  public var source: String
  /// The source's own count (`list_total_count`, or the number of data rows in a file).
  public var sourceTotal: Int?
  public var records: [RawRecord]

  public init(source: String, sourceTotal: Int?, records: [RawRecord]) {
    self.source = source
    self.sourceTotal = sourceTotal
    self.records = records
  }
}
