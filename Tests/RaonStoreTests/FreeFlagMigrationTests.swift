import Foundation
import GRDB
import RaonCore
import Testing
import TestSupport

@testable import RaonStore

/// Schema v4 (issue 17): `is_free` becomes three-valued, and a store an older Raon wrote —
/// which counted a program with no 유무료 as paid — is migrated without rewriting history.
@Suite("The free flag's migration to three values")
struct FreeFlagMigrationTests {
  /// A record the way a catalog before 2024 has it (no 유무료 column) or a later one does.
  static func entry(_ cult: Int, fee: String, flag: String?, oldIsFree: Bool) -> NewSnapshot.Entry {
    var pairs: [(String, String?)] = [
      ("분류", "전시/미술"), ("자치구", "종로구"), ("공연/행사명", "전시 \(cult)"), ("장소", "미술관"),
      ("이용요금", fee),
      ("문화포털상세URL", "https://culture.seoul.go.kr/view.do?cultcode=\(cult)"),
    ]
    if let flag { pairs.append(("유무료", flag)) }
    let raw = RawRecord(names: FieldNames(pairs.map(\.0)), values: pairs.map(\.1))
    // What the older Raon recorded: the program normalised now, but with its free flag.
    var program = ProgramNormalizer.normalize(raw)
    program.isFree = oldIsFree
    if !oldIsFree, program.feeMinKRW == 0 { program.feeMinKRW = nil; program.feeMaxKRW = nil }
    return NewSnapshot.Entry(program: program, raw: raw)
  }

  @Test func aVersionCountedAsPaidForWantOfAFlagBecomesUnknownAndHistoryStays() throws {
    let folder = try Fixtures.temporaryDirectory("raon-free-v4")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("raon.sqlite").path
    let entries = [
      Self.entry(1, fee: "전석 초대", flag: nil, oldIsFree: false),  // ambiguous → unknown
      Self.entry(2, fee: "전석 20,000원", flag: nil, oldIsFree: false),  // an amount → paid
      Self.entry(3, fee: "무료", flag: nil, oldIsFree: true),  // says 무료 → free
      Self.entry(4, fee: "", flag: "유료", oldIsFree: false),  // the source says paid
      Self.entry(5, fee: "무료(예약금 5,000원)", flag: "?", oldIsFree: false),  // both → unknown
    ]
    let recorded: SnapshotInfo
    let before: [Row]
    do {
      let pool = try DatabasePool(path: path, configuration: SnapshotStore.configuration())
      let old = try SnapshotStore(
        writer: pool, path: path, fileURL: URL(fileURLWithPath: path), schemaVersion: 3)
      recorded = try old.record(
        NewSnapshot(takenAt: Date(timeIntervalSince1970: 1_600_000_000), source: "2020.csv",
          sourceTotal: entries.count, entries: entries))
      before = try pool.read {
        try Row.fetchAll($0, sql: "SELECT id, raw_hash, program_id, program_text FROM program_version ORDER BY id")
      }
      #expect(try old.count("PRAGMA user_version") == 3)
    }

    let store = try SnapshotStore(path: path)
    #expect(try store.count("PRAGMA user_version") == SnapshotStore.schemaVersion)
    let flags = try store.writer.read {
      try Row.fetchAll($0, sql: "SELECT program_id, is_free FROM program_version ORDER BY id")
        .map { ($0["program_id"] as String, $0["is_free"] as Bool?) }
    }
    #expect(flags.map(\.0) == ["cult:1", "cult:2", "cult:3", "cult:4", "cult:5"])
    #expect(flags.map(\.1) == [nil, false, true, false, nil])
    // Same rows, ids, hashes and texts; the snapshot and its presence untouched.
    let after = try store.writer.read {
      try Row.fetchAll($0, sql: "SELECT id, raw_hash, program_id, program_text FROM program_version ORDER BY id")
    }
    #expect(after == before)
    #expect(try store.snapshots() == [recorded])
    #expect(try store.count("SELECT count(*) FROM presence") == entries.count)
    #expect(try store.count("SELECT count(*) FROM snapshot_program WHERE snapshot_id = ?", [recorded.id]) == 5)
    #expect(try store.count("SELECT count(*) FROM snapshot_program WHERE is_free IS NULL") == 2)
    let programs = try store.programs(inSnapshot: recorded.id)
    #expect(programs.map(\.isFree) == [nil, false, true, false, nil])

    // Recording the same catalog now (normalised by today's rule) finds the same versions.
    let again = entries.map { NewSnapshot.Entry(program: ProgramNormalizer.normalize($0.raw), raw: $0.raw) }
    #expect(again.map(\.program.isFree) == [nil, false, true, false, nil])
    _ = try store.record(
      NewSnapshot(takenAt: Date(timeIntervalSince1970: 1_600_086_400), source: "2020b.csv",
        sourceTotal: again.count, entries: again))
    #expect(try store.statistics().versionCount == entries.count)
    #expect(try store.integrityCheck() == ["ok"])
  }
}
