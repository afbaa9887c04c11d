import Foundation
import RaonCore

/// A catalog to record as one snapshot: every record of one ingestion with its program.
///
/// ```swift
/// let snapshot = NewSnapshot(
///   takenAt: Date(), source: "culturalEventInfo.csv", sourceTotal: records.count,
///   entries: records.map { NewSnapshot.Entry(program: ProgramNormalizer.normalize($0), raw: $0) })
/// let info = try store.record(snapshot)
/// ```
public struct NewSnapshot: Sendable {
  /// One record of the source and the program normalised from it.
  public struct Entry: Sendable, Hashable {
    public var program: Program
    public var raw: RawRecord

    public init(program: Program, raw: RawRecord) {
      self.program = program
      self.raw = raw
    }
  }

  /// When the catalog was taken. The store keeps it to the millisecond.
  public var takenAt: Date
  /// A file name, or the API base URL (never the key).
  public var source: String
  /// The source's own count of rows, when it gives one.
  public var sourceTotal: Int?
  /// Every record of the source, duplicates included.
  public var entries: [Entry]
  /// SHA-256 (lower-case hex) of the input file, when it came from one.
  public var inputSHA256: String?
  /// The catalog it is a snapshot of (a store holds one).
  public var catalog: CatalogProfile.Name

  public init(
    takenAt: Date, source: String, sourceTotal: Int?, entries: [Entry], inputSHA256: String? = nil,
    catalog: CatalogProfile.Name = .seoul
  ) {
    self.catalog = catalog
    self.takenAt = takenAt
    self.source = source
    self.sourceTotal = sourceTotal
    self.entries = entries
    self.inputSHA256 = inputSHA256
  }
}
