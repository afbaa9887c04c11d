import Foundation
import GRDB
import RaonCore
import TestSupport
import Testing

@testable import RaonStore

@Suite("Membership over a sequence of snapshots")
struct MembershipTests {
  /// The catalogs of twelve days: churn, plus a removal and re-addition, a change and its
  /// revert, and a duplicated record. Each is `[(number, revision)]` in file order.
  static func catalogs() -> [[(number: Int, revision: Int)]] {
    var random = SplitMix64(seed: 7)
    var catalog = SyntheticCatalog.catalog(count: 40)
    var days: [[(number: Int, revision: Int)]] = []
    for day in 0..<12 {
      if day > 0 { catalog = SyntheticCatalog.churn(catalog, rate: 0.15, random: &random) }
      switch day {
      case 4: catalog[500] = 0  // a program appears…
      case 6: catalog[500] = nil  // …goes away…
      case 9: catalog[500] = 0  // …and comes back unchanged: same version, new interval
      case 5: catalog[600] = 0
      case 7: catalog[600] = 1  // changed…
      case 8: catalog[600] = 0  // …and reverted: the old version again
      default: break
      }
      var entries = catalog.keys.sorted(by: >).map { (number: $0, revision: catalog[$0] ?? 0) }
      if day == 10, let first = entries.first { entries.append(first) }  // a repeated row
      days.append(entries)
    }
    return days
  }

  @Test func programsOfEverySnapshotMatchAPlainModel() throws {
    let store = try SnapshotStore.inMemory()
    var recorded: [(id: Int64, programs: [Program])] = []
    for (day, catalog) in Self.catalogs().enumerated() {
      let entries = catalog.map { SyntheticCatalog.entry($0.number, revision: $0.revision) }
      let info = try store.record(
        NewSnapshot(takenAt: Date(timeIntervalSince1970: Double(day) * 86_400), source: "day\(day)",
          sourceTotal: entries.count, entries: entries))
      #expect(info.programCount == entries.count)
      recorded.append((info.id, sortedByID(entries.map(\.program))))
    }
    // Read after everything is recorded: later snapshots must not disturb earlier ones.
    for (id, programs) in recorded {
      #expect(try store.programs(inSnapshot: id) == programs, "snapshot \(id)")
      #expect(try store.rawRecords(inSnapshot: id).map(\.programID) == programs.map(\.id))
    }

    // One version per distinct (program, revision) ever seen, reverts included.
    let distinct = Set(Self.catalogs().flatMap { $0.map { "\($0.number)/\($0.revision)" } })
    #expect(try store.statistics().versionCount == distinct.count)

    // Program 500 left and came back unchanged: one version, two intervals.
    let intervals = try store.writer.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT p.first_snapshot_id, p.last_snapshot_id FROM presence p
          JOIN program_version v ON v.id = p.version_id
          WHERE v.program_id = 'cult:100500' ORDER BY p.first_snapshot_id
          """
      ).map { [$0[0] as Int64, $0[1] as Int64] }
    }
    let ids = recorded.map(\.id)
    #expect(intervals == [[ids[4], ids[5]], [ids[9], ids[11]]])
    #expect(try store.count("SELECT count(*) FROM program_version WHERE program_id = 'cult:100500'") == 1)
    // Program 600: revision 0 on days 5-6 and again 8-11; revision 1 on day 7.
    #expect(try store.count("SELECT count(*) FROM program_version WHERE program_id = 'cult:100600'") == 2)
    #expect(try store.count(
      "SELECT count(*) FROM presence p JOIN program_version v ON v.id = p.version_id WHERE v.program_id = 'cult:100600'") == 3)
  }

  /// Reading in chunks gives the same programs as reading at once, on every pass; and the
  /// programs that differ between two snapshots are exactly those of the ids whose
  /// programs are not the same in both (ids outside them are identical in both).
  @Test func chunkedReadsAndDifferingProgramsAgreeWithWholeReads() throws {
    let store = try SnapshotStore.inMemory()
    var ids: [Int64] = []
    for (day, catalog) in Self.catalogs().enumerated() {
      let entries = catalog.map { SyntheticCatalog.entry($0.number, revision: $0.revision) }
      ids.append(try store.record(
        NewSnapshot(takenAt: Date(timeIntervalSince1970: Double(day) * 86_400), source: "day\(day)",
          sourceTotal: entries.count, entries: entries)).id)
    }
    var whole: [Int64: [Program]] = [:]
    for id in ids {
      whole[id] = try store.programs(inSnapshot: id)
      let chunks = try store.programChunks(inSnapshot: id, chunkSize: 7)
      #expect(chunks.count == whole[id]?.count)
      var sizes: [Int] = []
      try chunks.forEach { sizes.append($0.count) }
      #expect(sizes.dropLast().allSatisfy { $0 >= 7 }, "chunks of at least 7 programs but the last")
      #expect(try chunks.collect() == whole[id], "snapshot \(id)")
      #expect(try chunks.collect() == whole[id], "snapshot \(id), second pass")
      // By columns: the same programs, only the fields stored in columns (and the
      // registration day, which the week's figures read).
      let columnsOnly = (whole[id] ?? []).map { p in
        Program(
          id: p.id, title: p.title, category: p.category, district: p.district,
          isFree: p.isFree, feeMinKRW: p.feeMinKRW, feeMaxKRW: p.feeMaxKRW,
          startDate: p.startDate, endDate: p.endDate, latitude: p.latitude,
          longitude: p.longitude, registeredOn: p.registeredOn, qualityFlags: p.qualityFlags)
      }
      let byColumns = try store.programColumnChunks(inSnapshot: id, chunkSize: 5)
      #expect(byColumns.count == columnsOnly.count)
      #expect(try byColumns.collect() == columnsOnly, "snapshot \(id) by columns")
      // What a comparison keeps of the whole programs it decoded is the columns read.
      #expect((whole[id] ?? []).map(\.statisticsColumns) == columnsOnly, "snapshot \(id) statisticsColumns")
    }
    for old in ids {
      for new in ids where new != old {
        let before = whole[old] ?? [], after = whole[new] ?? []
        let differing = try store.programsThatDiffer(old: old, new: new)
        let flagged = Set(differing.old.map(\.id) + differing.new.map(\.id))
        #expect(differing.old == before.filter { flagged.contains($0.id) }, "\(old) → \(new)")
        #expect(differing.new == after.filter { flagged.contains($0.id) }, "\(old) → \(new)")
        let unflagged = Set(before.map(\.id) + after.map(\.id)).subtracting(flagged)
        let sameOutside = before.filter { unflagged.contains($0.id) } == after.filter { unflagged.contains($0.id) }
        #expect(sameOutside, "\(old) → \(new): an id left out differs")
        // Every id whose programs do differ is flagged.
        for id in Set(before.map(\.id) + after.map(\.id)) where !flagged.contains(id) {
          #expect(before.filter { $0.id == id } == after.filter { $0.id == id })
        }
      }
    }
    #expect(throws: SnapshotStore.Error.self) { try store.programChunks(inSnapshot: 999) }
    #expect(throws: SnapshotStore.Error.self) { try store.programColumnChunks(inSnapshot: 999) }
    #expect(throws: SnapshotStore.Error.self) { try store.programsThatDiffer(old: ids[0], new: 999) }
  }

  @Test func trendStepsRebuildEverySnapshotsPrograms() throws {
    let store = try SnapshotStore.inMemory()
    var expected: [[ProgramSummary]] = []
    for (day, catalog) in Self.catalogs().enumerated() {
      let entries = catalog.map { SyntheticCatalog.entry($0.number, revision: $0.revision) }
      try store.record(
        NewSnapshot(takenAt: Date(timeIntervalSince1970: Double(day) * 86_400), source: "day\(day)",
          sourceTotal: nil, entries: entries))
      expected.append(sortedByID(entries.map(\.program)).map(ProgramSummary.init))
    }
    let series = try store.trendSeries()
    #expect(series.map(\.info) == (try store.snapshots()))
    #expect(series.map(\.info.id) == series.map(\.info.id).sorted())
    #expect(series.map(\.programs) == expected)
    for (info, programs) in series {
      #expect(programs.count == info.programCount)
      let direct = try store.count(
        "SELECT sum(copies) FROM presence WHERE first_snapshot_id <= ?1 AND last_snapshot_id >= ?1",
        [info.id])
      #expect(programs.count == direct)
      // Per category and free, through the analysts' view.
      let byCategory = try store.writer.read { db in
        try Row.fetchAll(
          db,
          sql: """
            SELECT category, is_free, sum(copies) FROM snapshot_program WHERE snapshot_id = ?
            GROUP BY category, is_free
            """, arguments: [info.id]
        ).map { "\($0[0] as String)/\(($0[1] as Bool?).map { "\($0)" } ?? "unknown")/\($0[2] as Int)" }
      }
      let fromSeries = Dictionary(grouping: programs) { "\($0.category)/\($0.isFree.map { "\($0)" } ?? "unknown")" }
        .map { "\($0.key)/\($0.value.count)" }
      #expect(Set(byCategory) == Set(fromSeries))
    }
  }

  @Test func trendStepsOfAnEmptyStoreAreEmpty() throws {
    #expect(try SnapshotStore.inMemory().trendSeries().isEmpty)
  }
}
