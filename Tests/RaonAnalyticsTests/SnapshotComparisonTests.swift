import Foundation
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

@Test func sameContentCoversEveryStoredPropertyOfProgram() {
  // `sameContent` lists Program's 23 stored properties by hand; when Program grows, update
  // it (and this count), or the diff's fast path would miss changes to the new property.
  #expect(Mirror(reflecting: Program(id: "x")).children.count == 23)
}

@Test func sameContentAgreesWithTheColumnsOnSingleFieldChanges() {
  let base = Program(
    id: "cult:1", title: "가", category: "클래식", district: "종로구", place: "p", organizer: "o",
    audience: "a", feeText: "f", isFree: false, feeMinKRW: 1, feeMaxKRW: 2,
    startDate: day("2024-09-01"), endDate: day("2024-09-02"), theme: "t", latitude: 37.5,
    longitude: 127.0, portalURL: "u", orgLink: "l", imageURL: "i", registeredOn: day("2024-08-01"),
    qualityFlags: [.coordsMissing])
  let mutations: [(inout Program) -> Void] = [
    { $0.title = "나" }, { $0.category = "국악" }, { $0.district = "중구" }, { $0.place = "q" },
    { $0.organizer = "x" }, { $0.audience = "b" }, { $0.feeText = "g" }, { $0.isFree = true },
    { $0.feeMinKRW = nil }, { $0.feeMaxKRW = 3 }, { $0.startDate = nil },
    { $0.endDate = day("2024-09-03") }, { $0.theme = "s" }, { $0.latitude = 37.6 },
    { $0.longitude = nil }, { $0.portalURL = "v" }, { $0.orgLink = "m" }, { $0.imageURL = "j" },
    { $0.registeredOn = nil }, { $0.qualityFlags = [] }, { $0.isFree = nil },
    { $0.inquiry = "02-123-4567" }, { $0.eventTime = "19:30" },
  ]
  #expect(SnapshotComparison.sameContent(base, base))
  for mutate in mutations {
    var changed = base
    mutate(&changed)
    #expect(!SnapshotComparison.sameContent(base, changed))
    #expect(!SnapshotComparison.fieldChanges(from: base, to: changed).isEmpty)
  }
  // Canonically equal but byte-different text: not the same bytes, yet no column changes.
  var decomposed = base
  decomposed.title = "\u{1100}\u{1161}"  // 가 as conjoining jamo
  #expect(!SnapshotComparison.sameContent(base, decomposed))
  #expect(SnapshotComparison.diff(old: [base], new: [decomposed]).isEmpty)
}

@Test func groupsMergeCanonicallyEqualKeys() {
  // 클래식 spelled with composed syllables and with conjoining jamo: one group, as `String ==`
  // says, named by the first spelling seen.
  let composed = "클래식"
  let decomposed = composed.decomposedStringWithCanonicalMapping
  #expect(Array(composed.utf8) != Array(decomposed.utf8))
  let tables = CatalogStatistics.tables(for: [
    Program(id: "a", category: composed), Program(id: "b", category: decomposed),
  ])
  #expect(tables.byCategory.map(\.count) == [2])
  #expect(tables.byCategory.first.map { Array($0.key.utf8) } == Array(composed.utf8))
}
