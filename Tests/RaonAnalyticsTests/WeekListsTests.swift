import RaonCore
import Testing

@testable import RaonAnalytics

@Test func weekListsOrderByStartThenDistrictThenTitleThenId() {
  func p(_ id: String, _ start: String?, _ district: String, _ title: String) -> Program {
    Program(id: id, title: title, district: district, startDate: start.map(day), endDate: nil)
  }
  let expected = [
    p("cult:9", "2024-09-09", "중구", "나"),
    p("cult:10", "2024-09-10", "강남구", "하"),
    p("cult:11", "2024-09-10", "중구", "가"),
    p("cult:100", "2024-09-10", "중구", "나"),  // same start, district, title: by id
    p("cult:2", "2024-09-10", "중구", "나"),
    p("cult:1", "2024-09-11", "강남구", "가"),
    p("cult:3", nil, "강남구", "가"),  // missing start last
    p("cult:4", nil, "중구", "가"),
  ]
  // Every rotation and the reverse come back in the same order.
  for k in expected.indices {
    let rotated = Array(expected[k...] + expected[..<k])
    #expect(WeekLists.ordered(rotated).map(\.id) == expected.map(\.id), "rotation \(k)")
  }
  #expect(WeekLists.ordered(expected.reversed()).map(\.id) == expected.map(\.id))
  #expect(!WeekLists.areInReportOrder(expected[0], expected[0]))
  #expect(WeekLists.areInReportOrder(expected[5], expected[6]))
  #expect(!WeekLists.areInReportOrder(expected[6], expected[5]))
}

@Test func weekListsSelectTheViewsProgramsInReportOrder() {
  let w = week("2024-W37")
  let d = day("2024-09-12")
  let programs = [
    Program(
      id: "s2", title: "나", district: "중구", startDate: day("2024-09-15"), endDate: day("2024-09-30")
    ),
    Program(
      id: "s1", title: "가", district: "중구", startDate: day("2024-09-09"), endDate: day("2024-09-15")
    ),
    Program(
      id: "no", title: "다", district: "중구", startDate: day("2024-09-16"), endDate: day("2024-09-20")
    ),
    Program(
      id: "e1", title: "라", district: "강남구", startDate: day("2024-08-01"),
      endDate: day("2024-09-09")),
    Program(id: "e0", title: "마", district: "강남구", startDate: nil, endDate: day("2024-09-10")),
    Program(id: "r1", title: "바", district: "중구", registeredOn: day("2024-09-06")),
    Program(id: "r0", title: "사", district: "강남구", registeredOn: day("2024-09-12")),
    Program(id: "rx", title: "아", district: "강남구", registeredOn: day("2024-09-05")),
  ]
  let lists = WeekLists.select(programs, week: w, day: d)
  #expect(lists.starting.map(\.id) == ["s1", "s2"])
  // Ending by end day (what ends first comes first): e1 09-09, e0 09-10, s1 09-15.
  #expect(lists.ending.map(\.id) == ["e1", "e0", "s1"])
  // Running: both days known, start ≤ Sunday 09-15 and end ≥ Monday 09-09; by start day.
  #expect(lists.running.map(\.id) == ["e1", "s1", "s2"])
  #expect(lists.registered.map(\.id) == ["r0", "r1"])
  let view = WeekView.compute(programs: programs, week: w, day: d)
  #expect(lists.starting.map(\.id).sorted() == view.startingIds)
  #expect(lists.ending.map(\.id).sorted() == view.endingIds)
  #expect(lists.registered.map(\.id).sorted() == view.registeredIds)
  #expect(lists.running.count == view.running)

  let jung = WeekLists.select(programs, week: w, day: d, district: "중구")
  #expect(jung.starting.map(\.id) == ["s1", "s2"])
  #expect(jung.ending.map(\.id) == ["s1"])
  #expect(jung.registered.map(\.id) == ["r1"])
}
