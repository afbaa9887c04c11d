import Foundation

/// What the store knows about one recorded snapshot of the catalog.
public struct SnapshotInfo: Sendable, Hashable, Codable {
  /// Positive, increasing with insertion.
  public var id: Int64
  /// When the catalog was taken (`--taken-at`, or the time of ingestion).
  public var takenAt: Date
  /// Where it came from: a file name, or the API base URL (never the key).
  public var source: String
  /// How many programs the snapshot holds.
  public var programCount: Int
  /// The source's own total (`list_total_count`, or the file's row count).
  public var sourceTotal: Int?

  public init(id: Int64, takenAt: Date, source: String, programCount: Int, sourceTotal: Int? = nil) {
    self.id = id
    self.takenAt = takenAt
    self.source = source
    self.programCount = programCount
    self.sourceTotal = sourceTotal
  }

  /// The calendar day in Korea the snapshot was taken.
  public var koreaDay: CalendarDay { CalendarDay(koreaDateOf: takenAt) }
}
