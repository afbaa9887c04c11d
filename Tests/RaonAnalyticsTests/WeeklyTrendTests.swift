import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonAnalytics

/// A snapshot taken at `time` (`HH:MM`) Korea time on `kstDay`.
private func snapshot(_ id: Int64, _ kstDay: String, _ time: String = "12:00", count: Int = 0)
  -> SnapshotInfo
{
  let parts = time.split(separator: ":").compactMap { Int($0) }
  let seconds = Double(parts[0] * 3600 + parts[1] * 60)
  return SnapshotInfo(
    id: id, takenAt: day(kstDay).koreaMidnight.addingTimeInterval(seconds), source: "test",
    programCount: count)
}

@Test func trendChoosesTheLatestSnapshotOfEachKoreanWeek() {
  let history = [
    snapshot(7, "2024-10-02"),  // 2024-W40 (W39 has none)
    snapshot(1, "2024-09-09", "10:00"),  // W37
    snapshot(3, "2024-09-16", "00:00"),  // W38 in Korea (still Sunday 09-15 in UTC)
    snapshot(2, "2024-09-15", "23:59"),  // W37, latest of it
    snapshot(4, "2024-09-20", "12:00"),  // W38
    snapshot(5, "2024-09-18", "12:00"),  // W38, recorded after 4 but taken before it
    snapshot(6, "2024-09-20", "12:00"),  // W38, taken with 4: the higher id wins
    snapshot(8, "2024-12-31"),  // 2025-W01
  ]
  #expect(ReportTime.iso8601UTC(history[2].takenAt) == "2024-09-15T15:00:00Z")
  let all = WeeklyTrend.choosePoints(history, weeks: 8, from: nil, to: nil)
  #expect(all.map(\.id) == [2, 6, 7, 8])
  #expect(WeeklyTrend.choosePoints(history, weeks: 2, from: nil, to: nil).map(\.id) == [7, 8])
  #expect(WeeklyTrend.choosePoints(history, weeks: 1).map(\.id) == [8])
  #expect(WeeklyTrend.choosePoints(history, weeks: 0).isEmpty)
  #expect(WeeklyTrend.choosePoints(history, weeks: -1).isEmpty)
  #expect(WeeklyTrend.choosePoints(history, weeks: Int.max).map(\.id) == [2, 6, 7, 8])
  #expect(
    WeeklyTrend.choosePoints(history, weeks: 8, from: week("2024-W38"), to: week("2024-W40"))
      .map(\.id) == [6, 7])
  #expect(WeeklyTrend.choosePoints(history, weeks: 8, from: week("2024-W39")).map(\.id) == [7, 8])
  #expect(WeeklyTrend.choosePoints(history, weeks: 8, to: week("2024-W37")).map(\.id) == [2])
  #expect(WeeklyTrend.choosePoints(history, weeks: 1, to: week("2024-W38")).map(\.id) == [6])
  #expect(WeeklyTrend.choosePoints([], weeks: 8).isEmpty)
}

@Test func trendPointsCountEachSnapshotForItsOwnWeekAndDay() {
  // Snapshot 1: Wednesday 2024-09-11 (W37: 09-09 … 09-15, registered window 09-05 … 09-11).
  // Snapshot 2: Monday 2024-09-16 (W38: 09-16 … 09-22, registered window 09-10 … 09-16).
  let a = TrendProgram(
    id: "a", startDate: day("2024-09-01"), endDate: day("2024-09-15"),
    registeredOn: day("2024-09-05"))
  let b = TrendProgram(id: "b", startDate: day("2024-09-16"), endDate: day("2024-09-16"))
  let c = TrendProgram(id: "c", registeredOn: day("2024-09-10"))
  let d = TrendProgram(id: "d", startDate: day("2024-09-01"), endDate: day("2024-09-08"))
  let e = TrendProgram(id: "e", startDate: day("2024-09-22"), endDate: day("2024-10-01"))
  let series: [(info: SnapshotInfo, programs: [TrendProgram])] = [
    (snapshot(1, "2024-09-11", count: 4), [a, b, c, d]),
    (snapshot(2, "2024-09-16", count: 4), [b, c, e, e]),  // a and d gone, e new (twice)
  ]
  let points = WeeklyTrend.points(series)
  #expect(points.count == 2)
  let first = points[0]
  #expect(first.isoWeek == week("2024-W37") && first.snapshotId == 1)
  #expect(first.takenAt == series[0].info.takenAt)
  #expect(first.programCount == 4)
  #expect(first.current == 3)  // a, b, c (d ended 09-08)
  #expect(first.running == 1)  // a
  #expect(first.starting == 0)
  #expect(first.registered == 2)  // a (09-05 = D−6) and c (09-10)
  #expect(first.added == nil && first.removed == nil)
  let second = points[1]
  #expect(second.isoWeek == week("2024-W38") && second.snapshotId == 2)
  #expect(second.programCount == 4)
  #expect(second.current == 4)  // b, c, e, e
  #expect(second.running == 3)  // b, e, e
  #expect(second.starting == 3)  // b (Monday), e, e (Sunday)
  #expect(second.registered == 1)  // c (09-10 = D−6)
  #expect(second.added == 1)  // e, counted once
  #expect(second.removed == 2)  // a, d

  // Full programs give the same points.
  func program(_ t: TrendProgram) -> Program {
    Program(
      id: t.id, category: t.category, district: t.district, isFree: t.isFree,
      startDate: t.startDate, endDate: t.endDate, registeredOn: t.registeredOn)
  }
  let full: [(info: SnapshotInfo, programs: [Program])] = series.map {
    (info: $0.info, programs: $0.programs.map(program))
  }
  #expect(WeeklyTrend.points(full) == points)
  // The first point of a window has no added/removed, even with history before it.
  let window = WeeklyTrend.compute(series, weeks: 1)
  #expect(window.count == 1 && window[0].snapshotId == 2)
  #expect(window[0].added == nil && window[0].removed == nil)
  #expect(window[0].running == 3)
}

// MARK: - Property test against an independent implementation

@Test func weeklyTrendMatchesANaiveImplementationOnRandomHistories() {
  var calendar = Calendar(identifier: .iso8601)
  calendar.timeZone = TimeZone(secondsFromGMT: 9 * 3600) ?? .current
  for seed in UInt64(900)...925 {
    var g = PropertyRandom(seed: seed)
    // Snapshots at random instants over ~20 weeks, some weeks empty, some with several.
    let origin = day("2024-11-01").koreaMidnight
    let count = Int.random(in: 0...30, using: &g)
    var history: [(info: SnapshotInfo, programs: [TrendProgram])] = []
    for id in 1...max(1, count) where count > 0 {
      let takenAt = origin.addingTimeInterval(
        Double(Int.random(in: 0..<(140 * 24), using: &g)) * 3600)
      let kst = CalendarDay(koreaDateOf: takenAt)
      let programs = (0..<Int.random(in: 0...60, using: &g)).map { _ in
        func near() -> CalendarDay? {
          g.chance(0.1) ? nil : kst.adding(days: Int.random(in: -10...10, using: &g))
        }
        return TrendProgram(
          id: "cult:\(Int.random(in: 0..<80, using: &g))", isFree: g.chance(0.5), startDate: near(),
          endDate: near(), registeredOn: near())
      }
      history.append(
        (
          SnapshotInfo(id: Int64(id), takenAt: takenAt, source: "t", programCount: programs.count),
          programs
        ))
    }
    history.shuffle(using: &g)
    let weeks = Int.random(in: 1...10, using: &g)

    // Naive: week of each instant from Foundation's ISO calendar in Korea time.
    var latest: [String: (info: SnapshotInfo, programs: [TrendProgram])] = [:]
    func key(_ date: Date) -> (String, Int, Int) {
      let c = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
      let y = c.yearForWeekOfYear ?? 0
      let w = c.weekOfYear ?? 0
      return (String(format: "%04d-W%02d", y, w), y, w)
    }
    for entry in history {
      let k = key(entry.info.takenAt).0
      if let held = latest[k] {
        let later =
          entry.info.takenAt > held.info.takenAt
          || (entry.info.takenAt == held.info.takenAt && entry.info.id > held.info.id)
        if !later { continue }
      }
      latest[k] = entry
    }
    let chosen = latest.keys.sorted().suffix(weeks).compactMap { latest[$0] }
    var expected: [(String, Int64, Int, Int, Int, Int, Int, Int?, Int?)] = []
    var previous: Set<String>?
    for entry in chosen {
      let (name, y, w) = key(entry.info.takenAt)
      let dayNumber = Int(
        ((entry.info.takenAt.timeIntervalSince1970 + 9 * 3600) / 86_400).rounded(.down))
      let programs = entry.programs.map {
        Program(
          id: $0.id, isFree: $0.isFree, startDate: $0.startDate, endDate: $0.endDate,
          registeredOn: $0.registeredOn)
      }
      let f = WeekViewReference.figures(programs, year: y, week: w, dayNumber: dayNumber)
      let ids = Set(entry.programs.map(\.id))
      expected.append(
        (
          name, entry.info.id, entry.programs.count, f.current, f.running, f.starting.count,
          f.registered.count, previous.map { ids.subtracting($0).count },
          previous.map { $0.subtracting(ids).count }
        ))
      previous = ids
    }

    let chosenInfos = WeeklyTrend.choosePoints(
      history.map(\.info), weeks: weeks, from: nil, to: nil)
    #expect(chosenInfos.map(\.id) == chosen.map(\.info.id), "seed \(seed)")
    let got = WeeklyTrend.compute(history, weeks: weeks)
    #expect(got.count == expected.count, "seed \(seed)")
    for (p, e) in zip(got, expected) {
      #expect(p.isoWeek.description == e.0, "seed \(seed)")
      #expect(p.snapshotId == e.1, "seed \(seed)")
      #expect(p.programCount == e.2, "seed \(seed)")
      #expect(p.current == e.3, "seed \(seed)")
      #expect(p.running == e.4, "seed \(seed)")
      #expect(p.starting == e.5, "seed \(seed)")
      #expect(p.registered == e.6, "seed \(seed)")
      #expect(p.added == e.7, "seed \(seed)")
      #expect(p.removed == e.8, "seed \(seed)")
    }
  }
}

@Test func trendBuilderFedInChunksEqualsPoints() {
  for seed in UInt64(300)...315 {
    var g = PropertyRandom(seed: seed)
    var series: [(info: SnapshotInfo, programs: [TrendProgram])] = []
    for id in 1...Int.random(in: 1...6, using: &g) {
      let kst = day("2024-09-02").adding(days: id * 7 + Int.random(in: 0...6, using: &g))
      let programs = (0..<Int.random(in: 0...80, using: &g)).map { _ in
        TrendProgram(
          id: "cult:\(Int.random(in: 0..<60, using: &g))",
          startDate: kst.adding(days: Int.random(in: -9...9, using: &g)),
          endDate: g.chance(0.2) ? nil : kst.adding(days: Int.random(in: -9...9, using: &g)),
          registeredOn: kst.adding(days: Int.random(in: -9...2, using: &g)))
      }
      series.append((snapshot(Int64(id), kst.description), programs))
    }
    let whole = WeeklyTrend.points(series)
    var builder = WeeklyTrend.Builder()
    builder.add([TrendProgram(id: "ignored")])  // before any point: nothing to count
    for (info, programs) in series {
      builder.startPoint(info)
      var rest = programs[...]
      while !rest.isEmpty {
        let n = Int.random(in: 0...25, using: &g)
        if g.chance(0.5) {
          builder.add(Array(rest.prefix(n)))
        } else {
          builder.add(
            rest.prefix(n).map {
              Program(
                id: $0.id, startDate: $0.startDate, endDate: $0.endDate,
                registeredOn: $0.registeredOn)
            })
        }
        rest = rest.dropFirst(n)
      }
      // Reading the points half-way does not disturb the series.
      #expect(builder.points.last?.snapshotId == info.id, "seed \(seed)")
    }
    #expect(builder.points == whole, "seed \(seed)")
    #expect(whole.count == series.count && whole.first?.added == nil, "seed \(seed)")
  }
}
