@testable import RaonAnalytics
import RaonCore
import Testing

/// A program's story across weeks, from hand-made weeks whose answers are read off them.
struct ProgramHistoryTests {
  static func day(_ text: String) -> CalendarDay? { CalendarDay(iso: text) }

  @Test func eachProgramsStoryFollowsItsWeeks() throws {
    let a = Program(id: "cult:1", title: "국악 한마당", endDate: Self.day("2024-09-30"))
    let a2 = Program(id: "cult:1", title: "국악 한마당 (변경)", endDate: Self.day("2024-09-30"))
    let b = Program(id: "cult:2", title: "전시", endDate: Self.day("2024-09-10"))
    let c = Program(id: "cult:3", title: "공연", startDate: Self.day("2024-10-01"), endDate: Self.day("2024-12-31"))
    let weeks: [[Program]] = [[a, b, c], [a2, c], [a2]]
    let days = [Self.day("2024-09-09"), Self.day("2024-09-16"), Self.day("2024-09-23")].compactMap { $0 }

    var builder = ProgramHistory.Builder()
    builder.start(weeks[0])
    for i in 1..<weeks.count {
      builder.step(SnapshotComparison.diff(old: weeks[i - 1], new: weeks[i]), day: days[i])
    }
    let h = builder.finish()

    let one = try #require(h["cult:1"])
    #expect(one.latest.title == "국악 한마당 (변경)")
    #expect(one.presence == [0...2])
    #expect(one.events.count == 2)
    if case .changed(let week, let fields) = one.events[1] {
      #expect(week == 1)
      #expect(fields.contains(FieldChange(field: "title", old: "국악 한마당", new: "국악 한마당 (변경)")))
    } else {
      Issue.record("no change recorded: \(one.events)")
    }
    #expect(one.state(lastWeek: 2, day: days[2]) == .running)

    // Ended on 09-10, gone by 09-16: 종료.
    let two = try #require(h["cult:2"])
    #expect(two.presence == [0...0])
    #expect(two.events.last == .left(week: 1, removal: .ended))
    #expect(two.state(lastWeek: 2, day: days[2]) == .ended)

    // Gone on 09-23 though it runs to 12-31: 철회.
    let three = try #require(h["cult:3"])
    #expect(three.presence == [0...1])
    #expect(three.events.last == .left(week: 2, removal: .withdrawn))
    #expect(three.state(lastWeek: 2, day: days[2]) == .withdrawn)
    #expect(three.state(lastWeek: 1, day: days[1]) == .upcoming)
  }

  @Test func aProgramThatComesBackHasTwoStretches() throws {
    let a = Program(id: "cult:9", title: "돌아온 행사")
    var builder = ProgramHistory.Builder()
    builder.start([a])
    builder.step(SnapshotComparison.diff(old: [a], new: []), day: try #require(Self.day("2024-09-16")))
    builder.step(SnapshotComparison.diff(old: [], new: [a]), day: try #require(Self.day("2024-09-23")))
    let h = try #require(builder.finish()["cult:9"])
    #expect(h.presence == [0...0, 2...2])
    #expect(h.events == [.appeared(week: 0), .left(week: 1, removal: .withdrawn), .appeared(week: 2)])
  }
}
