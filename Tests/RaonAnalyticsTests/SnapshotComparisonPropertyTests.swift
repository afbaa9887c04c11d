import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonAnalytics

/// `diff(A, B)` applied to A gives B: its ids, and for changed programs, B's column values.
@Suite struct SnapshotComparisonPropertyTests {
  static func program(_ id: String, _ g: inout PropertyRandom) -> Program {
    var p = Program(id: id)
    p.title = g.pick(["공연", "전시", "=1+1", "", "가\n나", "축제 \(Int.random(in: 0..<3, using: &g))"])
    p.category = g.pick(["콘서트", "전시/미술", "연극"])
    p.district = g.pick(District.all + [District.unknown])
    p.feeText = g.pick(["무료", "10,000원", ""])
    p.isFree = g.chance(0.5)
    p.feeMinKRW = g.chance(0.7) ? Int.random(in: 0...3, using: &g) * 10_000 : nil
    p.feeMaxKRW = p.feeMinKRW
    p.startDate = g.chance(0.9) ? CalendarDay(year: 2024, month: 9, day: Int.random(in: 1...3, using: &g)) : nil
    p.endDate = p.startDate
    p.latitude = g.chance(0.5) ? 37.5 + Double(Int.random(in: 0...2, using: &g)) / 100 : nil
    if g.chance(0.2) { p.qualityFlags.insert(.coordsMissing) }
    return p
  }

  /// Two catalogs over overlapping id ranges; some programs mutated.
  static func pair(seed: UInt64) -> (old: [Program], new: [Program]) {
    var g = PropertyRandom(seed: seed)
    let universe = (0..<Int.random(in: 1...120, using: &g)).map { "cult:\(200_000 + $0)" }
    var old: [Program] = []
    var new: [Program] = []
    for id in universe {
      let base = program(id, &g)
      let inOld = g.chance(0.7)
      let inNew = g.chance(0.7)
      if inOld { old.append(base) }
      if inNew { new.append(g.chance(0.3) ? program(id, &g) : base) }
    }
    old.shuffle(using: &g)
    new.shuffle(using: &g)
    return (old, new)
  }

  @Test(arguments: 0..<200) func applyingTheDiffToAGivesB(seed: Int) {
    let (a, b) = Self.pair(seed: UInt64(seed))
    let d = SnapshotComparison.diff(old: a, new: b)
    // Ids: A − removed + added = B.
    var ids = Set(a.map(\.id))
    #expect(Set(d.removed.map(\.id)).isSubset(of: ids), "seed \(seed)")
    ids.subtract(d.removed.map(\.id))
    #expect(ids.isDisjoint(with: d.added.map(\.id)), "seed \(seed)")
    ids.formUnion(d.added.map(\.id))
    #expect(ids == Set(b.map(\.id)), "seed \(seed)")
    // Values: A's row with each change applied = B's row; unchanged programs are equal.
    let byOld = Dictionary(a.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    let byNew = Dictionary(b.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    let changedIDs = Set(d.changed.map(\.id))
    for change in d.changed {
      guard let before = byOld[change.id], let after = byNew[change.id] else {
        Issue.record("seed \(seed): changed id \(change.id) not on both sides")
        continue
      }
      var values = Dictionary(uniqueKeysWithValues: zip(Program.csvColumns, before.csvValues))
      for field in change.fields {
        #expect(values[field.field] == field.old, "seed \(seed) \(change.id) \(field.field)")
        values[field.field] = field.new
      }
      #expect(Program.csvColumns.map { values[$0] ?? "?" } == after.csvValues, "seed \(seed) \(change.id)")
      #expect(!change.fields.isEmpty)
    }
    for id in Set(byOld.keys).intersection(byNew.keys) where !changedIDs.contains(id) {
      #expect(byOld[id]?.csvValues == byNew[id]?.csvValues, "seed \(seed) \(id) changed but not listed")
    }
    // Sorted, and the mirror image swaps added/removed.
    #expect(d.added.map(\.id) == d.added.map(\.id).sorted())
    let back = SnapshotComparison.diff(old: b, new: a)
    #expect(back.added.map(\.id) == d.removed.map(\.id) && back.removed.map(\.id) == d.added.map(\.id))
    #expect(back.changed.map(\.id) == d.changed.map(\.id))
    let same = SnapshotComparison.diff(old: a, new: a)
    #expect(same.added.isEmpty && same.removed.isEmpty && same.changed.isEmpty)
  }
}

/// The old snapshot read a chunk at a time (`raon report` compares a held input with it while
/// recording) gives the diff of the whole arrays: ids repeated in the old snapshot (the last
/// wins) across chunk boundaries, ids only on one side before, between and after chunks.
@Suite struct ChunkedSnapshotComparisonTests {
  static func chunks(_ programs: [Program], size: Int) -> ProgramChunks {
    ProgramChunks(count: programs.count) { body in
      var start = 0
      while start < programs.count {
        let end = min(start + size, programs.count)
        guard try body(Array(programs[start..<end])) else { return }
        start = end
      }
    }
  }

  @Test(arguments: 0..<120) func chunkedIsTheWholeDiff(seed: Int) throws {
    var g = PropertyRandom(seed: UInt64(seed) &+ 7_001)
    var (old, new) = SnapshotComparisonPropertyTests.pair(seed: UInt64(seed))
    // The store's order: by id (bytes); in the old snapshot some ids twice, in a row.
    let byBytes: (Program, Program) -> Bool = { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    old.sort(by: byBytes)
    var repeated: [Program] = []
    for p in old {
      repeated.append(p)
      if g.chance(0.15) { repeated.append(SnapshotComparisonPropertyTests.program(p.id, &g)) }
    }
    new.sort(by: byBytes)
    let whole = SnapshotComparison.diff(old: repeated, new: new)
    for size in [1, 2, 3, 5, 8, 1_000] {
      let chunked = try SnapshotComparison.diff(old: Self.chunks(repeated, size: size), new: new)
      #expect(chunked == whole, "seed \(seed), chunks of \(size)")
    }
  }
}
