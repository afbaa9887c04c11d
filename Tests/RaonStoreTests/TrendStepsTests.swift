import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonStore

/// The store's trend read (`trendSteps`, interval changes) against the trend computed from
/// every chosen snapshot's full programs (`programs(inSnapshot:)` + `WeeklyTrend.points`).
@Suite("Trend from the store's intervals")
struct TrendStepsTests {
  /// Monday 2024-09-02 09:00 KST.
  static let firstDay = Date(timeIntervalSince1970: 1_725_235_200)

  /// One record: the raw values carry the id and revision, so each revision is a version.
  static func entry(_ number: Int, revision: Int) -> NewSnapshot.Entry {
    var random = SplitMix64(seed: UInt64(number) &* 7_919 &+ UInt64(revision) &* 104_729)
    let base = CalendarDay(year: 2024, month: 9, day: 1)?.dayNumber ?? 0
    var start: CalendarDay? = CalendarDay(dayNumber: base - 40 + random.next(120))
    var end: CalendarDay? = start.map { $0.adding(days: random.next(45) - 4) }  // some end before start
    var registered: CalendarDay? = CalendarDay(dayNumber: base - 10 + random.next(90))
    switch random.next(10) {
    case 0: end = nil
    case 1: start = nil
    case 2: registered = nil
    case 3: (start, end) = (nil, nil)
    default: break
    }
    let program = Program(
      id: "cult:\(100_000 + number)", title: "행사 \(number) (\(revision))",
      category: ["전시/미술", "연극", "교육/체험"][random.next(3)],
      district: District.all[random.next(District.all.count)], isFree: random.next(2) == 0,
      startDate: start, endDate: end, registeredOn: registered)
    let raw = RawRecord(
      names: FieldNames(["번호", "판", "시작일", "종료일", "신청일"]),
      values: [
        "\(number)", "\(revision)", start?.description ?? "", end?.description,
        registered?.description,
      ])
    return NewSnapshot.Entry(program: program, raw: raw)
  }

  /// 70 days of catalogs with daily churn, a program deleted and returning unchanged, a
  /// change and its revert, a record repeated, and two versions of one id at once.
  static func history() -> [[NewSnapshot.Entry]] {
    var random = SplitMix64(seed: 2024)
    var catalog: [Int: Int] = Dictionary(uniqueKeysWithValues: (0..<60).map { ($0, 0) })
    var next = 60
    var days: [[NewSnapshot.Entry]] = []
    for day in 0..<70 {
      if day > 0 {
        for number in catalog.keys.sorted() where number != 7 && number != 8 {
          switch random.next(40) {
          case 0: catalog[number] = nil
          case 1: catalog[number, default: 0] += 1
          default: break
          }
        }
        for _ in 0..<random.next(3) {
          catalog[next] = 0
          next += 1
        }
        if random.next(6) == 0,
          let back = (0..<next).first(where: { catalog[$0] == nil && $0 % 5 == 0 })
        {
          catalog[back] = 0  // re-added at revision 0: an old version, a new interval
        }
      }
      switch day {
      case 10: catalog[7] = nil  // deleted…
      case 30: catalog[7] = 0  // …and back unchanged
      case 12: catalog[8] = 1  // changed…
      case 20: catalog[8] = 0  // …and reverted
      default: break
      }
      var entries = catalog.keys.sorted().map { entry($0, revision: catalog[$0] ?? 0) }
      if (15..<40).contains(day), let first = entries.first { entries.append(first) }  // copies = 2
      if (25..<50).contains(day) { entries.append(entry(8, revision: 5)) }  // two versions of one id
      days.append(entries)
    }
    return days
  }

  /// Records the history (plus a late-recorded file for week 1) and returns the store.
  static func recordedStore() throws -> SnapshotStore {
    let store = try SnapshotStore.inMemory()
    for (day, entries) in history().enumerated() {
      try store.record(
        NewSnapshot(
          takenAt: firstDay.addingTimeInterval(Double(day) * 86_400), source: "day\(day).csv",
          sourceTotal: entries.count, entries: entries))
    }
    // A historical file recorded last: the highest id, but the latest snapshot of week 1
    // (Sunday 2024-09-08, an hour after that day's), so the series is not in id order.
    var late = history()[6]
    late.removeLast(3)
    late.append(entry(999, revision: 0))
    try store.record(
      NewSnapshot(
        takenAt: firstDay.addingTimeInterval(6 * 86_400 + 3_600), source: "late.csv",
        sourceTotal: late.count, entries: late))
    return store
  }

  /// The trend through the store's steps and the incremental builder.
  static func trendFromSteps(_ store: SnapshotStore, _ chosen: [SnapshotInfo]) throws
    -> [WeeklyTrendPoint]
  {
    var builder = WeeklyTrend.IncrementalBuilder()
    for step in try store.trendSteps(chosen) {
      builder.startPoint(step.snapshot)
      for v in step.leaving { builder.leave(key: v.versionID) }
      for v in step.entering {
        builder.enter(v.program, copies: v.copies, key: v.versionID)
      }
    }
    return builder.points
  }

  /// The independent path: every chosen snapshot's full programs, counted by WeeklyTrend.
  static func trendFromFullPrograms(_ store: SnapshotStore, _ chosen: [SnapshotInfo]) throws
    -> [WeeklyTrendPoint]
  {
    WeeklyTrend.points(
      try chosen.map { (info: $0, programs: try store.programs(inSnapshot: $0.id)) })
  }

  @Test func trendFromIntervalsEqualsTrendFromFullProgramsOverEveryRange() throws {
    let store = try Self.recordedStore()
    let snapshots = try store.snapshots()
    #expect(snapshots.count == 71)
    let all = WeeklyTrend.choosePoints(snapshots, weeks: .max)
    #expect(all.count == 10)
    #expect(all[0].source == "late.csv")  // the series is not in id order
    let expected = try Self.trendFromFullPrograms(store, all)
    #expect(try Self.trendFromSteps(store, all) == expected)
    // The figures are not trivial: every kind moves.
    #expect(Set(expected.map(\.programCount)).count > 3)
    #expect(expected.contains { $0.registered > 0 } && expected.contains { $0.starting > 0 })
    #expect(expected.dropFirst().contains { ($0.added ?? 0) > 0 && ($0.removed ?? 0) > 0 })
    #expect(expected.contains { $0.current != $0.programCount && $0.running > 0 })

    let weeks = Array(Set(snapshots.map { ISOWeek(containing: $0.koreaDay) })).sorted()
    for (count, from, to) in [
      (1, nil, nil), (3, nil, nil), (Int.max, weeks[2], weeks[6]), (2, weeks[0], weeks[4]),
      (Int.max, weeks[5], nil),
    ] as [(Int, ISOWeek?, ISOWeek?)] {
      let chosen = WeeklyTrend.choosePoints(snapshots, weeks: count, from: from, to: to)
      #expect(
        try Self.trendFromSteps(store, chosen) == Self.trendFromFullPrograms(store, chosen),
        "weeks \(count) from \(String(describing: from)) to \(String(describing: to))")
    }
    // Every snapshot, daily, in id order and reversed: the steps hold for any series.
    #expect(
      try Self.trendFromSteps(store, snapshots) == Self.trendFromFullPrograms(store, snapshots))
    let reversed = Array(snapshots.reversed())
    #expect(try Self.trendFromSteps(store, reversed) == Self.trendFromFullPrograms(store, reversed))
  }

  @Test func applyingTheStepsGivesEachSnapshotsVersions() throws {
    let store = try Self.recordedStore()
    let chosen = WeeklyTrend.choosePoints(try store.snapshots(), weeks: .max)
    var present: [Int64: TrendVersion] = [:]
    for step in try store.trendSteps(chosen) {
      for v in step.leaving {
        #expect(present.removeValue(forKey: v.versionID) == v, "snapshot \(step.snapshot.id)")
      }
      for v in step.entering {
        #expect(present.updateValue(v, forKey: v.versionID) == nil, "snapshot \(step.snapshot.id)")
      }
      func key(
        _ id: String, _ s: CalendarDay?, _ e: CalendarDay?, _ r: CalendarDay?, _ c: String,
        _ d: String, _ f: Bool?
      ) -> String {
        "\(id)|\(String(describing: s))|\(String(describing: e))|\(String(describing: r))|\(c)|\(d)|\(String(describing: f))"
      }
      let fromSteps = present.values.flatMap { v in
        Array(
          repeating: key(
            v.program.id, v.program.startDate, v.program.endDate, v.program.registeredOn,
            v.program.category, v.program.district, v.program.isFree),
          count: v.copies)
      }.sorted()
      let full = try store.programs(inSnapshot: step.snapshot.id).map {
        key($0.id, $0.startDate, $0.endDate, $0.registeredOn, $0.category, $0.district, $0.isFree)
      }.sorted()
      #expect(fromSteps == full, "snapshot \(step.snapshot.id)")
    }
  }

  @Test func anUnknownSnapshotIsRefused() throws {
    let store = try Self.recordedStore()
    let ghost = SnapshotInfo(id: 999, takenAt: Self.firstDay, source: "x", programCount: 0)
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 999, path: ":memory:")) {
      try store.trendSteps([ghost])
    }
    #expect(try store.trendSteps([]).isEmpty)
  }
}
