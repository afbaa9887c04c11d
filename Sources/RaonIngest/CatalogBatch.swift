import RaonCore

/// The records of one ingestion, as read from one source, before normalisation.
public struct CatalogBatch: Sendable {
  /// A file name or the API base URL with the key redacted.
  public var source: String
  /// The source's own count (`list_total_count`, or the number of data rows in a file).
  public var sourceTotal: Int?
  public var records: [RawRecord]
  /// SHA-256 (lower-case hex) of the file's bytes as read; `nil` for the Open API.
  public var inputSHA256: String?
  /// One-line warnings about the source that do not stop the reading (e.g. a known column
  /// no header label matched).
  public var warnings: [String]
  /// Records skipped because every field was blank (a line of bare commas, a table row of
  /// empty cells); they are not in `records` nor in `sourceTotal`.
  public var emptyRecordsSkipped = 0

  public init(
    source: String, sourceTotal: Int?, records: [RawRecord], inputSHA256: String? = nil,
    warnings: [String] = []
  ) {
    self.source = source
    self.sourceTotal = sourceTotal
    self.records = records
    self.inputSHA256 = inputSHA256
    self.warnings = warnings
  }
}
