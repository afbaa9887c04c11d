import RaonCore
import Testing

@testable import RaonAnalytics

@Test func weekBoundaries() {
  // 2024-W37 runs from Monday 2024-09-09 to Sunday 2024-09-15.
  let w = week("2024-W37")
  #expect(w.start == day("2024-09-09"))
  #expect(w.end == day("2024-09-15"))
  func p(
    _ id: String, _ start: String?, _ end: String?, free: Bool = false, category: String = "클래식",
    district: String = "종로구"
  ) -> Program {
    Program(
      id: id, category: category, district: district, isFree: free, startDate: start.map(day),
      endDate: end.map(day))
  }
  let programs = [
    p("endsOnMonday", "2024-09-01", "2024-09-09", free: true),  // active
    p("startsOnSunday", "2024-09-15", "2024-09-20", category: "국악"),  // active, starting
    p("spans", "2024-09-01", "2024-09-30", free: true, district: "중구"),  // active
    p("endsSundayBefore", "2024-09-01", "2024-09-08"),  // neither
    p("startsMondayAfter", "2024-09-16", "2024-09-16"),  // neither
    p("onlyStartInWeek", "2024-09-12", nil, district: "중구"),  // active, starting
    p("onlyEndAfterWeek", nil, "2024-09-20"),  // neither: the one known date is not in the week
    p("onlyStartBeforeWeek", "2024-09-01", nil),  // neither
    p("noDates", nil, nil),  // neither
    p("reversedInWeek", "2024-09-14", "2024-09-10", category: "국악"),  // active, starting
  ]
  let figures = WeekFigures.compute(programs: programs, week: w)
  #expect(figures.week == w)
  // endsOnMonday, startsOnSunday, spans, onlyStartInWeek, reversedInWeek.
  #expect(figures.active == 5)
  // startsOnSunday, onlyStartInWeek, reversedInWeek.
  #expect(figures.starting == 3)
  // endsOnMonday, spans.
  #expect(figures.activeFree == 2)
  // 클래식: endsOnMonday, spans, onlyStartInWeek = 3; 국악: startsOnSunday, reversedInWeek = 2.
  #expect(figures.activeByCategory == [BandCount(key: "클래식", count: 3), BandCount(key: "국악", count: 2)])
  // 종로구: endsOnMonday, startsOnSunday, reversedInWeek = 3; 중구: spans, onlyStartInWeek = 2.
  #expect(figures.activeByDistrict == [BandCount(key: "종로구", count: 3), BandCount(key: "중구", count: 2)])
  // 국악: startsOnSunday, reversedInWeek = 2; 클래식: onlyStartInWeek = 1.
  #expect(figures.startingByCategory == [BandCount(key: "국악", count: 2), BandCount(key: "클래식", count: 1)])
  // 종로구 2 and 중구 1.
  #expect(figures.startingByDistrict == [BandCount(key: "종로구", count: 2), BandCount(key: "중구", count: 1)])
}

@Test func weekFiftyThreeCrossesTheYear() {
  // 2020 began on a Wednesday of a leap year, so it has a week 53: 2020-12-28 … 2021-01-03.
  let w = week("2020-W53")
  #expect(w.start == day("2020-12-28"))
  #expect(w.end == day("2021-01-03"))
  let programs = [
    Program(id: "a", startDate: day("2021-01-03"), endDate: day("2021-01-10")),  // active, starting
    Program(id: "b", startDate: day("2021-01-04"), endDate: day("2021-01-04")),  // neither
    Program(id: "c", startDate: day("2020-12-01"), endDate: day("2020-12-28")),  // active
    Program(id: "d", startDate: day("2020-12-27"), endDate: day("2020-12-27")),  // neither
    Program(id: "e", startDate: day("2020-12-31"), endDate: day("2021-01-01")),  // active, starting
  ]
  let figures = WeekFigures.compute(programs: programs, week: w)
  #expect(figures.active == 3)
  #expect(figures.starting == 2)
}

@Test func weekOfAnEmptyCatalog() {
  let figures = WeekFigures.compute(programs: [], week: week("2024-W37"))
  #expect(figures.active == 0)
  #expect(figures.starting == 0)
  #expect(figures.activeFree == 0)
  #expect(figures.activeByCategory.isEmpty && figures.startingByDistrict.isEmpty)
}

@Test(arguments: [11, 12, 13] as [UInt64])
func weekFiguresAgreeWithADirectCount(seed: UInt64) {
  let programs = RandomCatalog.catalog(count: 3_000, idRange: 1_000_000, seed: seed)
  let w = week("2024-W20")
  let figures = WeekFigures.compute(programs: programs, week: w)
  let weekDays = Set((0..<7).map { w.start.adding(days: $0) })
  // Active, day by day: some day of the week lies between start and end (or is the only date).
  let active = programs.filter { p in
    weekDays.contains { d in
      switch (p.startDate, p.endDate) {
      case let (s?, e?): return s <= d && d <= e || (e < s && weekDays.contains(s) && weekDays.contains(e))
      case let (s?, nil): return s == d
      case let (nil, e?): return e == d
      case (nil, nil): return false
      }
    }
  }
  #expect(figures.active == active.count)
  #expect(figures.activeFree == active.filter { $0.isFree == true }.count)
  #expect(figures.starting == programs.filter { $0.startDate.map(weekDays.contains) ?? false }.count)
  #expect(figures.activeByCategory.reduce(0) { $0 + $1.count } == figures.active)
  #expect(figures.activeByDistrict.reduce(0) { $0 + $1.count } == figures.active)
  #expect(figures.startingByCategory.reduce(0) { $0 + $1.count } == figures.starting)
  #expect(figures.startingByDistrict.reduce(0) { $0 + $1.count } == figures.starting)
}
