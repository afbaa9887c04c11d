import Foundation
import GRDB
import RaonCore

/// A row of `snapshot`.
struct SnapshotRow: Equatable {
  var id: Int64?
  /// ISO 8601 UTC text (see ``ISOTimestamp``).
  var takenAt: String
  var source: String
  var sourceTotal: Int?
  var programCount: Int
  /// SHA-256 (lower-case hex) of the input file (since schema v3).
  var inputSHA256: String? = nil
}

extension SnapshotRow {
  init(_ snapshot: NewSnapshot, takenAt: String) {
    id = nil
    self.takenAt = takenAt
    source = snapshot.source
    sourceTotal = snapshot.sourceTotal
    programCount = snapshot.entries.count
  }

  func info() throws -> SnapshotInfo {
    guard let id else { throw DecodingFailure("a snapshot row without an id") }
    guard let date = ISOTimestamp.parse(takenAt) else {
      throw DecodingFailure("snapshot \(id) has taken_at '\(takenAt)', not ISO 8601 UTC")
    }
    return SnapshotInfo(
      id: id, takenAt: date, source: source, programCount: programCount, sourceTotal: sourceTotal)
  }
}

// MARK: - Persistence

extension SnapshotRow: FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "snapshot"

  enum Columns {
    static let id = Column("id")
    static let takenAt = Column("taken_at")
    static let source = Column("source")
    static let sourceTotal = Column("source_total")
    static let programCount = Column("program_count")
    static let inputSHA256 = Column("input_sha256")
  }

  init(row: Row) throws {
    id = row[Columns.id]
    takenAt = row[Columns.takenAt]
    source = row[Columns.source]
    sourceTotal = row[Columns.sourceTotal]
    programCount = row[Columns.programCount]
    inputSHA256 = row[Columns.inputSHA256]
  }

  func encode(to container: inout PersistenceContainer) throws {
    container[Columns.id] = id
    container[Columns.takenAt] = takenAt
    container[Columns.source] = source
    container[Columns.sourceTotal] = sourceTotal
    container[Columns.programCount] = programCount
    // Only when known, so a store still at schema v1–v2 (tests make one) takes the row.
    if let inputSHA256 { container[Columns.inputSHA256] = inputSHA256 }
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
