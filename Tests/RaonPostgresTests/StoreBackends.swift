import Foundation
import RaonCore
import RaonIngest
import RaonPostgres
import RaonStore
import Testing
import TestSupport

/// The two stores the suite runs against: a new SQLite file, or a new schema on the
/// private PostgreSQL test server.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite, postgresql

  var testDescription: String { rawValue }

  /// A new, empty store; `nil` (the test is skipped, with the reason printed) when there is
  /// no PostgreSQL server here.
  func makeStore(_ test: String = #function) throws -> (any SnapshotStoring)? {
    switch self {
    case .sqlite:
      let folder = try Fixtures.temporaryDirectory("raon-backend")
      return try SnapshotStore(path: folder.appendingPathComponent("raon.sqlite").path)
    case .postgresql:
      guard let server = PostgresTestServer.available(test) else { return nil }
      return try PostgresSnapshotStore(url: server.url(), environment: server.environment)
    }
  }
}

/// The bundled sample, normalised once, and catalogs made from it.
enum Catalogs {
  static let sample: [NewSnapshot.Entry] = {
    guard let batch = try? CatalogFileReader.read(Fixtures.sampleCSV) else { return [] }
    return batch.records.map { NewSnapshot.Entry(program: ProgramNormalizer.normalize($0), raw: $0) }
  }()

  /// The sample a week later: 300 programs gone, 50 retitled, 5 whose free flag became
  /// unknown, one record twice.
  static let nextWeek: [NewSnapshot.Entry] = {
    var entries = Array(sample.dropFirst(300))
    for i in stride(from: 0, to: 500, by: 10) { entries[i].program.title += " (변경)" }
    for i in stride(from: 505, to: 530, by: 5) { entries[i].program.isFree = nil }
    entries.append(entries[7])
    return entries
  }()

  static func snapshot(_ entries: [NewSnapshot.Entry], day: Int, source: String = "sample.csv") -> NewSnapshot {
    NewSnapshot(
      takenAt: Date(timeIntervalSince1970: 1_725_840_000 + Double(day) * 86_400), source: source,
      sourceTotal: entries.count, entries: entries, inputSHA256: String(repeating: "ab", count: 32))
  }
}

/// What a store holds, read through the protocol only, for comparing two stores.
struct StoreContents: Equatable {
  var snapshots: [SnapshotInfo]
  var programs: [[Program]]
  var raw: [[StoredRawRecordContent]]
  var columns: [[Program]]
  var details: [SnapshotDetails]
  var unchanged: [Int64?]

  init(_ store: any SnapshotStoring) throws {
    snapshots = try store.snapshots()
    programs = try snapshots.map { try store.programs(inSnapshot: $0.id) }
    raw = try snapshots.map { try store.rawRecords(inSnapshot: $0.id).map(StoredRawRecordContent.init) }
    columns = try snapshots.map { try store.programColumnChunks(inSnapshot: $0.id, chunkSize: 700).collect() }
    details = try snapshots.map { try store.details(snapshot: $0.id) }
    unchanged = try snapshots.map { try store.unchangedSince(snapshot: $0.id) }
  }
}

/// A raw record's content (names, values, flag) and the version id the store gave it.
struct StoredRawRecordContent: Equatable {
  var programID: String
  var versionID: Int64
  var names: [String]
  var values: [String?]
  var replaced: Bool

  init(_ stored: StoredRawRecord) {
    programID = stored.programID
    versionID = stored.versionID
    names = stored.record.names.names
    values = stored.record.values
    replaced = stored.record.invalidBytesReplaced
  }
}
