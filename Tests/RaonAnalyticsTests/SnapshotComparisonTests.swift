import RaonCore
import Testing

@testable import RaonAnalytics

@Test func diffFindsAddedRemovedAndChangedFields() {
  let old = [
    Program(id: "cult:3", title: "가", feeText: "무료", isFree: true, feeMinKRW: 0),
    Program(id: "cult:1", title: "나", startDate: day("2024-09-01"), endDate: day("2024-09-01")),
    Program(id: "cult:2", title: "다"),
  ]
  let new = [
    Program(id: "cult:4", title: "라"),
    Program(id: "cult:1", title: "나", startDate: day("2024-09-01"), endDate: day("2024-09-03")),
    Program(id: "cult:3", title: "가!", feeText: "전석 20,000원", isFree: false, feeMinKRW: 20_000),
  ]
  let diff = SnapshotComparison.diff(old: old, new: new)
  #expect(diff.addedIds == ["cult:4"])
  #expect(diff.removedIds == ["cult:2"])
  #expect(diff.changedIds == ["cult:1", "cult:3"])
  // The end date moved by two days, so duration_days changed with it (1 → 3).
  #expect(
    diff.changed[0].fields == [
      FieldChange(field: "end_date", old: "2024-09-01", new: "2024-09-03"),
      FieldChange(field: "duration_days", old: "1", new: "3"),
    ])
  // In programs.csv column order.
  #expect(
    diff.changed[1].fields == [
      FieldChange(field: "title", old: "가", new: "가!"),
      FieldChange(field: "fee_text", old: "무료", new: "전석 20,000원"),
      FieldChange(field: "is_free", old: "true", new: "false"),
      FieldChange(field: "fee_min_krw", old: "0", new: "20000"),
    ])
  #expect(diff.changed[1].old.title == "가")
  #expect(diff.changed[1].new.title == "가!")
}

@Test func duplicateIdsLastOneWins() {
  let old = [Program(id: "cult:1", title: "first"), Program(id: "cult:1", title: "second")]
  let new = [Program(id: "cult:1", title: "second")]
  #expect(SnapshotComparison.diff(old: old, new: new).isEmpty)
  let changed = SnapshotComparison.diff(old: new, new: old.reversed())
  #expect(changed.changed.first?.fields == [FieldChange(field: "title", old: "second", new: "first")])
}

@Test func diffOfEmptyCatalogs() {
  let programs = RandomCatalog.catalog(count: 50, idRange: 1_000, seed: 9)
  #expect(SnapshotComparison.diff(old: [], new: []).isEmpty)
  let ids = Set(programs.map(\.id)).sorted()
  #expect(SnapshotComparison.diff(old: [], new: programs).addedIds == ids)
  #expect(SnapshotComparison.diff(old: programs, new: []).removedIds == ids)
}

@Test func unnamedFlagBitsAreNotAChange() {
  let a = Program(id: "cult:1", qualityFlags: QualityFlags(rawValue: 1 << 30))
  let b = Program(id: "cult:1")
  #expect(SnapshotComparison.diff(old: [a], new: [b]).isEmpty)
}

@Test(arguments: [21, 22, 23, 24] as [UInt64])
func diffInvariants(seed: UInt64) {
  // Ids drawn from a range smaller than the catalog, so both sides repeat ids and overlap.
  let a = RandomCatalog.catalog(count: 3_000, idRange: 4_000, seed: seed)
  let b = RandomCatalog.catalog(count: 3_000, idRange: 4_000, seed: seed + 100)
  #expect(SnapshotComparison.diff(old: a, new: a).isEmpty)

  let forward = SnapshotComparison.diff(old: a, new: b)
  let backward = SnapshotComparison.diff(old: b, new: a)
  #expect(forward.added == backward.removed)
  #expect(forward.removed == backward.added)
  #expect(forward.changedIds == backward.changedIds)
  for (f, r) in zip(forward.changed, backward.changed) {
    #expect(f.old == r.new && f.new == r.old)
    #expect(f.fields == r.fields.map { FieldChange(field: $0.field, old: $0.new, new: $0.old) })
  }

  // Applying the diff to A's ids gives B's ids.
  let idsA = Set(a.map(\.id))
  let idsB = Set(b.map(\.id))
  #expect(idsA.subtracting(forward.removedIds).union(forward.addedIds) == idsB)
  #expect(Set(forward.changedIds).isSubset(of: idsA.intersection(idsB)))

  // Sorted by id, and every change is real: the last occurrences' columns differ there.
  for list in [forward.addedIds, forward.removedIds, forward.changedIds] {
    #expect(list == list.sorted())
  }
  var lastA: [String: Program] = [:]
  var lastB: [String: Program] = [:]
  for p in a { lastA[p.id] = p }
  for p in b { lastB[p.id] = p }
  let expectedChanged = idsA.intersection(idsB).filter { id in
    lastA[id]?.csvValues != lastB[id]?.csvValues
  }
  #expect(Set(forward.changedIds) == expectedChanged)
  for change in forward.changed {
    #expect(!change.fields.isEmpty)
    #expect(!change.fields.contains { $0.field == "id" })
    #expect(change.old == lastA[change.id] && change.new == lastB[change.id])
  }
}
