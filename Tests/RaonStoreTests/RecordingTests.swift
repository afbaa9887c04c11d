import Foundation
import RaonCore
import Testing

@testable import RaonStore

@Suite("Recording and reading back")
struct RecordingTests {
  /// Records with what the readers can produce: nulls, an unknown column, replaced bytes,
  /// a program that is not copied verbatim from its raw values, and unsorted ids.
  static func mixedSnapshot() -> NewSnapshot {
    let apiNames = FieldNames(["TITLE", "GUNAME", "NEW_KEY", "USE_FEE", "HMPG_ADDR", "PLACE"])
    let apiRaw = RawRecord(
      names: apiNames,
      values: ["한강 \"여름\" 축제\n2부", nil, "새 값 / \\ \u{1}", "", nil, "여의도 \u{FFFD}공원"],
      invalidBytesReplaced: true)
    var apiProgram = Program(
      id: "h:00ab00ab00ab00ab", title: "한강 \"여름\" 축제\n2부", district: District.unknown,
      place: "여의도 \u{FFFD}공원", feeText: "무료 (정규화됨)", isFree: true, feeMinKRW: 0,
      feeMaxKRW: 0, qualityFlags: [.districtMissing, .invalidBytesReplaced, .idFromHash])
    apiProgram.latitude = 37.528_1
    apiProgram.longitude = 126.932_9
    apiProgram.registeredOn = CalendarDay(iso: "2025-01-31")
    return NewSnapshot(
      takenAt: Date(timeIntervalSince1970: 1_725_840_000.123_456), source: "culturalEventInfo.csv",
      sourceTotal: 4,
      entries: [
        SyntheticCatalog.entry(30), SyntheticCatalog.entry(7),
        NewSnapshot.Entry(program: apiProgram, raw: apiRaw), SyntheticCatalog.entry(12),
      ])
  }

  @Test func recordedSnapshotReadsBackExactly() throws {
    let store = try SnapshotStore.inMemory()
    let snapshot = Self.mixedSnapshot()
    let info = try store.record(snapshot)

    #expect(info.id >= 1)
    #expect(info.programCount == 4)
    #expect(info.sourceTotal == 4)
    #expect(info.source == "culturalEventInfo.csv")
    // Kept to the millisecond.
    #expect(abs(info.takenAt.timeIntervalSince1970 - 1_725_840_000.123) < 0.000_5)
    #expect(try store.snapshots() == [info])
    #expect(try store.snapshot(id: info.id) == info)
    #expect(try store.snapshot(id: info.id + 1) == nil)
    #expect(try store.latestSnapshot() == info)

    let expected = sortedByID(snapshot.entries.map(\.program))
    #expect(try store.programs(inSnapshot: info.id) == expected)
    #expect(expected.map(\.id) == ["cult:100007", "cult:100012", "cult:100030", "h:00ab00ab00ab00ab"])

    let raws = try store.rawRecords(inSnapshot: info.id)
    let expectedRaws = expected.map { program in
      snapshot.entries.first { $0.program == program }?.raw
    }
    #expect(raws.map(\.record) == expectedRaws.compactMap { $0 })
    #expect(raws.map(\.programID) == expected.map(\.id))
    let api = try #require(raws.last)
    #expect(api.fields.map(\.name) == ["TITLE", "GUNAME", "NEW_KEY", "USE_FEE", "HMPG_ADDR", "PLACE"])
    #expect(api.fields.map(\.value) == ["한강 \"여름\" 축제\n2부", nil, "새 값 / \\ \u{1}", "", nil, "여의도 \u{FFFD}공원"])
    #expect(api.record.invalidBytesReplaced)
    #expect(raws.first?.record.invalidBytesReplaced == false)
  }

  @Test func snapshotTimesAreISOTextInUTC() throws {
    let store = try SnapshotStore.inMemory()
    var snapshot = SyntheticCatalog.snapshot([1: 0])
    snapshot.takenAt = Date(timeIntervalSince1970: 1_725_840_000)  // 2024-09-09 00:00 UTC
    try store.record(snapshot)
    snapshot.takenAt = Date(timeIntervalSince1970: 1_725_863_412.345)
    try store.record(snapshot)
    let texts = try store.writer.read { try String.fetchAll($0, sql: "SELECT taken_at FROM snapshot ORDER BY id") }
    #expect(texts == ["2024-09-09T00:00:00Z", "2024-09-09T06:30:12.345Z"])
    #expect(try store.snapshots().map(\.takenAt) == [
      Date(timeIntervalSince1970: 1_725_840_000), Date(timeIntervalSince1970: 1_725_863_412.345),
    ])
  }

  @Test func snapshotIDsIncreaseWithInsertion() throws {
    let store = try SnapshotStore.inMemory()
    var ids: [Int64] = []
    // Later insertions may carry earlier times (historical files): ids follow insertion.
    for day in [5, 1, 3] {
      ids.append(try store.record(SyntheticCatalog.snapshot([day: 0], day: day)).id)
    }
    #expect(ids == ids.sorted() && Set(ids).count == 3 && ids.allSatisfy { $0 > 0 })
    #expect(try store.snapshots().map(\.id) == ids)
    #expect(try store.latestSnapshot()?.id == ids.last)
  }

  @Test func sameCatalogAgainAddsOnlyASnapshot() throws {
    let (store, _, folder) = try temporaryStore()
    defer { remove(folder) }
    let snapshot = SyntheticCatalog.snapshot(SyntheticCatalog.catalog(count: 5_000))
    let first = try store.record(snapshot)
    let before = try store.statistics()
    let bytesBefore = try store.bytesOnDiskAfterCheckpoint()

    let second = try store.record(snapshot)
    let after = try store.statistics()
    let bytesAfter = try store.bytesOnDiskAfterCheckpoint()

    #expect(second.id > first.id)
    #expect(after.snapshotCount == 2)
    #expect(after.versionCount == before.versionCount)
    #expect(after.versionCount == 5_000)
    #expect(after.presenceCount == before.presenceCount)
    #expect(bytesAfter - bytesBefore < 100_000, "grew by \(bytesAfter - bytesBefore) bytes")
    #expect(try store.programs(inSnapshot: second.id) == sortedByID(snapshot.entries.map(\.program)))
    #expect(try store.integrityCheck() == ["ok"])
  }

  @Test func oneChangedRecordMakesOneNewVersion() throws {
    let store = try SnapshotStore.inMemory()
    var catalog = SyntheticCatalog.catalog(count: 50)
    let first = try store.record(SyntheticCatalog.snapshot(catalog))
    catalog[17] = 1
    let second = try store.record(SyntheticCatalog.snapshot(catalog, day: 1))

    #expect(try store.statistics().versionCount == 51)
    // 50 intervals of the first snapshot; 49 of them extended, and one opened.
    #expect(try store.statistics().presenceCount == 51)
    let old = try store.programs(inSnapshot: first.id).first { $0.id == "cult:100017" }
    let new = try store.programs(inSnapshot: second.id).first { $0.id == "cult:100017" }
    #expect(old == SyntheticCatalog.entry(17, revision: 0).program)
    #expect(new == SyntheticCatalog.entry(17, revision: 1).program)
    #expect(old != new)
  }

  @Test func aProgramNormalisedDifferentlyIsANewVersion() throws {
    // Same raw record, program changed (a newer normaliser): each snapshot keeps its own.
    let store = try SnapshotStore.inMemory()
    let entry = SyntheticCatalog.entry(3)
    var renormalised = entry
    renormalised.program.qualityFlags.insert(.datesFromRangeText)
    let a = try store.record(NewSnapshot(takenAt: Date(), source: "a", sourceTotal: nil, entries: [entry]))
    let b = try store.record(
      NewSnapshot(takenAt: Date(), source: "b", sourceTotal: nil, entries: [renormalised]))
    #expect(try store.programs(inSnapshot: a.id) == [entry.program])
    #expect(try store.programs(inSnapshot: b.id) == [renormalised.program])
    #expect(try store.statistics().versionCount == 2)
    // Both versions carry the same raw hash: the content hash is the raw record's.
    #expect(try store.count("SELECT count(DISTINCT raw_hash) FROM program_version") == 1)
  }

  @Test func duplicateRecordsInOneSnapshotAreAllKept() throws {
    let store = try SnapshotStore.inMemory()
    let a = SyntheticCatalog.entry(1, revision: 0)
    let b = SyntheticCatalog.entry(1, revision: 1)  // same program id, other content
    let c = SyntheticCatalog.entry(2)
    let entries = [b, c, a, b]  // b twice, identical
    let first = try store.record(NewSnapshot(takenAt: Date(), source: "dup.csv", sourceTotal: 4, entries: entries))

    #expect(first.programCount == 4)
    let programs = try store.programs(inSnapshot: first.id)
    #expect(programs.count == 4)
    #expect(programs.map(\.id) == ["cult:100001", "cult:100001", "cult:100001", "cult:100002"])
    // Same id: in the order their versions were first stored (b before a here).
    #expect(programs == [b.program, b.program, a.program, c.program])
    #expect(try store.rawRecords(inSnapshot: first.id).map(\.record) == [b.raw, b.raw, a.raw, c.raw])
    #expect(try store.statistics().versionCount == 3)

    // The same file again extends every interval.
    let second = try store.record(NewSnapshot(takenAt: Date(), source: "dup.csv", sourceTotal: 4, entries: entries))
    #expect(try store.statistics().presenceCount == 3)
    // One copy fewer of b: b's interval ends and a new one starts with one copy.
    let third = try store.record(NewSnapshot(takenAt: Date(), source: "dup.csv", sourceTotal: 3, entries: [b, c, a]))
    #expect(try store.statistics().presenceCount == 4)
    #expect(try store.programs(inSnapshot: second.id).count == 4)
    #expect(try store.programs(inSnapshot: third.id) == [b.program, a.program, c.program])
  }

  @Test func anEmptyCatalogIsASnapshotWithNoPrograms() throws {
    let store = try SnapshotStore.inMemory()
    let full = try store.record(SyntheticCatalog.snapshot([1: 0, 2: 0]))
    let empty = try store.record(SyntheticCatalog.snapshot([:], day: 1))
    #expect(empty.programCount == 0)
    #expect(try store.programs(inSnapshot: empty.id).isEmpty)
    #expect(try store.programs(inSnapshot: full.id).count == 2)
  }

  @Test func unknownSnapshotIsAClearError() throws {
    let store = try SnapshotStore.inMemory()
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: ":memory:")) {
      try store.programs(inSnapshot: 9)
    }
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: ":memory:")) {
      try store.rawRecords(inSnapshot: 9)
    }
    let message = SnapshotStore.Error.noSuchSnapshot(id: 9, path: ":memory:").description
    #expect(message == "there is no snapshot 9 in the store at :memory: — `raon snapshots` lists them")
  }
}
