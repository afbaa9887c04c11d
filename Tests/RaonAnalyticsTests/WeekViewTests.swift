import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonAnalytics

// MARK: - Hand-checked fixtures

/// 2024-W37 runs Monday 2024-09-09 … Sunday 2024-09-15; D = Thursday 2024-09-12, so the
/// registration window is 2024-09-06 (D−6) … 2024-09-12 (D).
private func w37Fixture() -> [Program] {
  func p(
    _ id: String, _ start: String?, _ end: String?, registered: String? = nil, free: Bool = false,
    category: String = "클래식", district: String = "종로구"
  ) -> Program {
    Program(
      id: id, title: id, category: category, district: district, isFree: free,
      startDate: start.map(day), endDate: end.map(day), registeredOn: registered.map(day))
  }
  return [
    p("cult:12", "2024-09-01", "2024-09-09", free: true),  // ends Monday: current, running, ending
    p("cult:2", "2024-09-01", "2024-09-08"),  // ended the Sunday before: nothing
    p("cult:30", "2024-09-15", "2024-09-20", category: "국악", district: "중구"),  // starts Sunday
    p("cult:4", "2024-09-16", "2024-09-16"),  // starts the Monday after: current only
    p("cult:105", "2024-09-12", nil),  // start only, in W: current (no end), starting, not running
    p("cult:6", nil, "2024-09-11"),  // end only, in W: current, ending, not running
    p("cult:7", nil, nil),  // no dates: current only
    p("cult:8", "2024-09-14", "2024-09-10", category: "국악"),  // end before start, both in W
    p("cult:9", "2024-09-20", "2024-09-01"),  // end before start, around W: nothing
    p("cult:1", "2024-09-01", "2024-09-30", registered: "2024-09-06", free: true, district: "중구"),
    p("cult:11", nil, nil, registered: "2024-09-05"),  // D−7: not registered
    p("cult:3", nil, nil, registered: "2024-09-12"),  // D: registered
    p("cult:13", nil, nil, registered: "2024-09-13"),  // D+1: not registered
    p("cult:14", "2024-09-10", "2024-09-15"),  // ends on Sunday
  ]
}

@Test func weekViewCountsEachBoundaryOfTheWeekAndTheRegistrationWindow() {
  let w = week("2024-W37")
  #expect(w.start == day("2024-09-09") && w.end == day("2024-09-15"))
  let view = WeekView.compute(programs: w37Fixture(), week: w, day: day("2024-09-12"))
  #expect(view.isoWeek == w)
  #expect(view.day == day("2024-09-12"))
  // Every program but cult:2 and cult:9 (ended before Monday 09-09).
  #expect(view.current == 12)
  // cult:12, cult:30, cult:8, cult:1, cult:14.
  #expect(view.running == 5)
  #expect(view.runningFree == 2)  // cult:12, cult:1
  #expect(view.starting == 4)
  #expect(view.startingIds == ["cult:105", "cult:14", "cult:30", "cult:8"])
  #expect(view.ending == 4)
  #expect(view.endingIds == ["cult:12", "cult:14", "cult:6", "cult:8"])
  #expect(view.registered == 2)
  #expect(view.registeredIds == ["cult:1", "cult:3"])
  #expect(
    view.runningByCategory == [BandCount(key: "클래식", count: 3), BandCount(key: "국악", count: 2)])
  #expect(
    view.runningByDistrict == [BandCount(key: "종로구", count: 3), BandCount(key: "중구", count: 2)])
  #expect(
    view.currentByCategory == [BandCount(key: "클래식", count: 10), BandCount(key: "국악", count: 2)])
  #expect(
    view.currentByDistrict == [BandCount(key: "종로구", count: 10), BandCount(key: "중구", count: 2)])
}

@Test func weekViewPredicatesAgreeWithTheView() {
  let w = week("2024-W37")
  let d = day("2024-09-12")
  let programs = w37Fixture()
  let view = WeekView.compute(programs: programs, week: w, day: d)
  #expect(programs.filter { WeekView.isCurrent($0, week: w) }.count == view.current)
  #expect(programs.filter { WeekView.isRunning($0, week: w) }.count == view.running)
  #expect(
    programs.filter { WeekView.isStarting($0, week: w) }.map(\.id).sorted() == view.startingIds)
  #expect(programs.filter { WeekView.isEnding($0, week: w) }.map(\.id).sorted() == view.endingIds)
  #expect(
    programs.filter { WeekView.isRegistered($0, day: d) }.map(\.id).sorted() == view.registeredIds)
  // Single edges, each on its own.
  let endsMonday = Program(id: "x", startDate: day("2024-09-01"), endDate: day("2024-09-09"))
  let endsSundayBefore = Program(id: "x", startDate: day("2024-09-01"), endDate: day("2024-09-08"))
  let startsSunday = Program(id: "x", startDate: day("2024-09-15"), endDate: day("2024-09-15"))
  let startsMondayAfter = Program(id: "x", startDate: day("2024-09-16"), endDate: day("2024-09-16"))
  #expect(WeekView.isCurrent(endsMonday, week: w) && WeekView.isRunning(endsMonday, week: w))
  #expect(
    !WeekView.isCurrent(endsSundayBefore, week: w) && !WeekView.isRunning(endsSundayBefore, week: w)
  )
  #expect(WeekView.isRunning(startsSunday, week: w) && WeekView.isStarting(startsSunday, week: w))
  #expect(WeekView.isEnding(startsSunday, week: w))
  #expect(
    !WeekView.isRunning(startsMondayAfter, week: w)
      && !WeekView.isStarting(startsMondayAfter, week: w))
  #expect(WeekView.isCurrent(startsMondayAfter, week: w))
  #expect(WeekView.isCurrent(Program(id: "x"), week: w))
  #expect(!WeekView.isRunning(Program(id: "x", startDate: day("2024-09-10")), week: w))
  #expect(!WeekView.isRunning(Program(id: "x", endDate: day("2024-09-10")), week: w))
  #expect(WeekView.isRegistered(Program(id: "x", registeredOn: day("2024-09-06")), day: d))
  #expect(!WeekView.isRegistered(Program(id: "x", registeredOn: day("2024-09-05")), day: d))
  #expect(WeekView.isRegistered(Program(id: "x", registeredOn: d), day: d))
  #expect(!WeekView.isRegistered(Program(id: "x", registeredOn: day("2024-09-13")), day: d))
  #expect(!WeekView.isRegistered(Program(id: "x"), day: d))
}

@Test func weekViewAcrossTheYearBoundaryUsesTheISOWeek() {
  // 2025-W01 runs Monday 2024-12-30 … Sunday 2025-01-05.
  let w = week("2025-W01")
  let programs = [
    Program(id: "a", startDate: day("2024-12-29"), endDate: day("2024-12-29")),  // Sunday before
    Program(id: "b", startDate: day("2024-12-30"), endDate: day("2024-12-31")),  // Monday
    Program(id: "c", startDate: day("2025-01-05"), endDate: day("2025-01-10")),  // Sunday
    Program(id: "d", startDate: day("2025-01-06"), endDate: day("2025-01-10")),  // Monday after
  ]
  let view = WeekView.compute(programs: programs, week: w, day: day("2025-01-01"))
  #expect(view.startingIds == ["b", "c"])
  #expect(view.endingIds == ["b"])
  #expect(view.running == 2)
  #expect(view.current == 3)
}

@Test func weekViewRanksTiesByKey() {
  let w = week("2024-W37")
  let inWeek = { (id: String, category: String, district: String) in
    Program(
      id: id, category: category, district: district, startDate: day("2024-09-10"),
      endDate: day("2024-09-11"))
  }
  let programs = [
    inWeek("1", "전시/미술", "중구"), inWeek("2", "국악", "강남구"), inWeek("3", "클래식", "중구"),
    inWeek("4", "국악", "마포구"), inWeek("5", "클래식", "강남구"), inWeek("6", "교육/체험", "은평구"),
  ]
  let view = WeekView.compute(programs: programs, week: w, day: day("2024-09-12"))
  #expect(
    view.runningByCategory == [
      BandCount(key: "국악", count: 2), BandCount(key: "클래식", count: 2),
      BandCount(key: "교육/체험", count: 1), BandCount(key: "전시/미술", count: 1),
    ])
  #expect(
    view.runningByDistrict == [
      BandCount(key: "강남구", count: 2), BandCount(key: "중구", count: 2),
      BandCount(key: "마포구", count: 1), BandCount(key: "은평구", count: 1),
    ])
  #expect(view.currentByCategory == view.runningByCategory)
}

@Test func weekViewDistrictFilterCountsOnlyThatDistrict() {
  let w = week("2024-W37")
  var accumulator = WeekView.Accumulator(week: w, day: day("2024-09-12"), district: "중구")
  accumulator.add(w37Fixture())
  let view = accumulator.view
  // 중구 holds cult:30 and cult:1 only.
  #expect(view.current == 2)
  #expect(view.running == 2)
  #expect(view.runningFree == 1)
  #expect(view.startingIds == ["cult:30"])
  #expect(view.endingIds == [])
  #expect(view.registeredIds == ["cult:1"])
  #expect(view.runningByDistrict == [BandCount(key: "중구", count: 2)])
  #expect(
    WeekView.compute(programs: w37Fixture(), week: w, day: day("2024-09-12"), district: "중구")
      == view)
  // A district spelled with conjoining jamo is the same district.
  let decomposed = "중구".decomposedStringWithCanonicalMapping
  #expect(Array(decomposed.utf8) != Array("중구".utf8))
  let same = WeekView.compute(
    programs: w37Fixture(), week: w, day: day("2024-09-12"), district: decomposed)
  #expect(same.current == 2 && same.running == 2)
  #expect(
    WeekView.compute(programs: w37Fixture(), week: w, day: day("2024-09-12"), district: "서초구")
      .current == 0)
}

@Test func weekViewAccumulatorInChunksEqualsOneCompute() {
  for seed in UInt64(1)...20 {
    var g = PropertyRandom(seed: seed)
    let w = week("2024-W37")
    let d = day("2024-09-09").adding(days: Int.random(in: -3...9, using: &g))
    let programs = WeekViewReference.randomPrograms(count: 300, week: w, day: d, using: &g)
    let whole = WeekView.compute(programs: programs, week: w, day: d)
    var accumulator = WeekView.Accumulator(week: w, day: d)
    var rest = programs[...]
    while !rest.isEmpty {
      let n = Int.random(in: 0...40, using: &g)
      accumulator.add(Array(rest.prefix(n)))
      rest = rest.dropFirst(n)
    }
    #expect(accumulator.view == whole, "seed \(seed)")
  }
}

// MARK: - Property test against an independent implementation

/// A naive, independent reading of the week's definitions: the week's Monday comes from
/// Foundation's ISO 8601 calendar, days are compared as day numbers, counts are tallied in
/// dictionaries and sorted by hand.
enum WeekViewReference {
  struct Figures: Equatable {
    var current = 0
    var running = 0
    var runningFree = 0
    var starting: [String] = []
    var ending: [String] = []
    var registered: [String] = []
    var runningByCategory: [String: Int] = [:]
    var runningByDistrict: [String: Int] = [:]
    var currentByCategory: [String: Int] = [:]
    var currentByDistrict: [String: Int] = [:]
  }

  /// The day number (days since 1970-01-01) of the Monday of ISO week `year`-W`week`.
  static func mondayDayNumber(year: Int, week: Int) -> Int {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
    var components = DateComponents()
    components.yearForWeekOfYear = year
    components.weekOfYear = week
    components.weekday = 2  // Monday
    guard let date = calendar.date(from: components) else { fatalError("no such week") }
    return Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
  }

  static func figures(_ programs: [Program], year: Int, week: Int, dayNumber: Int) -> Figures {
    let mon = mondayDayNumber(year: year, week: week)
    let sun = mon + 6
    var f = Figures()
    for p in programs {
      let s = p.startDate?.dayNumber
      let e = p.endDate?.dayNumber
      let r = p.registeredOn?.dayNumber
      var isCurrent = true
      if let e, e < mon { isCurrent = false }
      if isCurrent {
        f.current += 1
        f.currentByCategory[p.category, default: 0] += 1
        f.currentByDistrict[p.district, default: 0] += 1
      }
      if let s, let e, s <= sun, e >= mon {
        f.running += 1
        if p.isFree == true { f.runningFree += 1 }
        f.runningByCategory[p.category, default: 0] += 1
        f.runningByDistrict[p.district, default: 0] += 1
      }
      if let s, (mon...sun).contains(s) { f.starting.append(p.id) }
      if let e, (mon...sun).contains(e) { f.ending.append(p.id) }
      if let r, (dayNumber - 6...dayNumber).contains(r) { f.registered.append(p.id) }
    }
    return f
  }

  /// Dictionary counts as the report ranks them: count descending, then key.
  static func ranked(_ counts: [String: Int]) -> [BandCount] {
    var rows = counts.map { BandCount(key: $0.key, count: $0.value) }
    // An insertion sort, written out.
    for i in rows.indices.dropFirst() {
      var j = i
      while j > 0 {
        let a = rows[j - 1]
        let b = rows[j]
        let outOfOrder = a.count < b.count || (a.count == b.count && a.key > b.key)
        if !outOfOrder { break }
        rows.swapAt(j - 1, j)
        j -= 1
      }
    }
    return rows
  }

  /// Random programs whose days cluster around the week and D, so every edge is hit.
  static func randomPrograms(
    count: Int, week: ISOWeek, day: CalendarDay, using g: inout PropertyRandom
  ) -> [Program] {
    let categories = ["클래식", "국악", "전시/미술", "교육/체험"]
    let districts = ["종로구", "중구", "마포구", District.unknown]
    func near(_ base: CalendarDay, _ spread: Int) -> CalendarDay? {
      g.chance(0.12) ? nil : base.adding(days: Int.random(in: -spread...spread, using: &g))
    }
    return (0..<count).map { _ in
      Program(
        id: "cult:\(Int.random(in: 0..<(count * 2), using: &g))",
        title: g.pick(["가", "나", "다"]), category: g.pick(categories),
        district: g.pick(districts), isFree: g.chance(0.4),
        startDate: near(week.start.adding(days: 3), 12),
        endDate: near(week.start.adding(days: 3), 12),
        registeredOn: near(day, 10))
    }
  }
}

@Test func weekViewMatchesANaiveImplementationOnRandomCatalogs() {
  let weeks = ["2024-W37", "2025-W01", "2020-W53", "2026-W48"]
  for seed in UInt64(100)...160 {
    var g = PropertyRandom(seed: seed)
    let w = week(g.pick(weeks))
    let d = w.start.adding(days: Int.random(in: -4...10, using: &g))
    let programs = WeekViewReference.randomPrograms(
      count: Int.random(in: 0...250, using: &g), week: w, day: d, using: &g)
    let view = WeekView.compute(programs: programs, week: w, day: d)
    let ref = WeekViewReference.figures(
      programs, year: w.year, week: w.week, dayNumber: d.dayNumber)
    #expect(view.current == ref.current, "seed \(seed)")
    #expect(view.running == ref.running, "seed \(seed)")
    #expect(view.runningFree == ref.runningFree, "seed \(seed)")
    #expect(view.starting == ref.starting.count, "seed \(seed)")
    #expect(view.ending == ref.ending.count, "seed \(seed)")
    #expect(view.registered == ref.registered.count, "seed \(seed)")
    #expect(view.startingIds == ref.starting.sorted(), "seed \(seed)")
    #expect(view.endingIds == ref.ending.sorted(), "seed \(seed)")
    #expect(view.registeredIds == ref.registered.sorted(), "seed \(seed)")
    #expect(
      view.runningByCategory == WeekViewReference.ranked(ref.runningByCategory), "seed \(seed)")
    #expect(
      view.runningByDistrict == WeekViewReference.ranked(ref.runningByDistrict), "seed \(seed)")
    #expect(
      view.currentByCategory == WeekViewReference.ranked(ref.currentByCategory), "seed \(seed)")
    #expect(
      view.currentByDistrict == WeekViewReference.ranked(ref.currentByDistrict), "seed \(seed)")
    // A district pack equals the naive figures over that district's programs.
    let district = g.pick(["종로구", "중구", District.unknown])
    let pack = WeekView.compute(programs: programs, week: w, day: d, district: district)
    let packRef = WeekViewReference.figures(
      programs.filter { $0.district == district }, year: w.year, week: w.week,
      dayNumber: d.dayNumber)
    #expect(pack.current == packRef.current && pack.running == packRef.running, "seed \(seed)")
    #expect(pack.startingIds == packRef.starting.sorted(), "seed \(seed)")
    #expect(pack.registeredIds == packRef.registered.sorted(), "seed \(seed)")
  }
}

@Test func weekViewOfASnapshotsOwnWeekUsesItsKoreanDay() {
  // Taken Sunday 2024-09-15 15:00 UTC = Monday 2024-09-16 00:00 KST: W38, D = 09-16.
  let info = SnapshotInfo(
    id: 3, takenAt: day("2024-09-16").koreaMidnight, source: "test", programCount: 2)
  let programs = [
    Program(
      id: "a", startDate: day("2024-09-16"), endDate: day("2024-09-16"),
      registeredOn: day("2024-09-10")),
    Program(
      id: "b", startDate: day("2024-09-15"), endDate: day("2024-09-15"),
      registeredOn: day("2024-09-09")),
  ]
  let view = WeekView.compute(programs: programs, ownWeekOf: info)
  #expect(view.isoWeek == week("2024-W38"))
  #expect(view.day == day("2024-09-16"))
  #expect(view.startingIds == ["a"])
  #expect(view.running == 1 && view.current == 1)
  #expect(view.registeredIds == ["a"])  // 09-10 = D−6; 09-09 = D−7
  var accumulator = WeekView.Accumulator(ownWeekOf: info, district: District.unknown)
  accumulator.add(programs)
  #expect(accumulator.view == view)
}
