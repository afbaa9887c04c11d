import Foundation
@testable import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

@Suite("raon trend: TrendJob")
struct TrendJobTests {
  /// Monday 2024-09-02 09:00 KST.
  static let monday = Date(timeIntervalSince1970: 1_725_235_200)

  static func program(_ n: Int, start: String?, end: String?, registered: String?)
    -> NewSnapshot.Entry
  {
    let p = Program(
      id: "cult:\(200_000 + n)", title: "행사 \(n)", category: "전시/미술", district: "종로구",
      isFree: n % 2 == 0, startDate: start.flatMap { CalendarDay(iso: $0) },
      endDate: end.flatMap { CalendarDay(iso: $0) },
      registeredOn: registered.flatMap { CalendarDay(iso: $0) })
    let raw = RawRecord(
      names: FieldNames(["n", "s", "e", "r"]), values: ["\(n)", start, end, registered])
    return NewSnapshot.Entry(program: p, raw: raw)
  }

  /// Six snapshots over five weeks (two in the first).
  static func store() throws -> (SnapshotStore, URL) {
    let dir = try Fixtures.temporaryDirectory("raon-trend-job")
    let store = try SnapshotStore(path: dir.appendingPathComponent("raon.sqlite").path)
    let catalogs: [(day: Int, programs: [NewSnapshot.Entry])] = [
      (
        0,
        [
          program(1, start: "2024-09-01", end: "2024-09-05", registered: "2024-08-30"),
          program(2, start: "2024-09-03", end: "2024-10-01", registered: "2024-09-01"),
          program(3, start: nil, end: nil, registered: nil),
        ]
      ),
      (
        3,
        [
          program(2, start: "2024-09-03", end: "2024-10-01", registered: "2024-09-01"),
          program(3, start: nil, end: nil, registered: nil),
          program(4, start: "2024-09-10", end: "2024-09-12", registered: "2024-09-04"),
        ]
      ),
      (
        8,
        [
          program(2, start: "2024-09-03", end: "2024-10-01", registered: "2024-09-01"),
          program(4, start: "2024-09-10", end: "2024-09-12", registered: "2024-09-04"),
          program(5, start: "2024-09-11", end: "2024-09-30", registered: "2024-09-09"),
        ]
      ),
      (
        15,
        [
          program(2, start: "2024-09-03", end: "2024-10-01", registered: "2024-09-01"),
          program(5, start: "2024-09-11", end: "2024-09-30", registered: "2024-09-09"),
          program(5, start: "2024-09-11", end: "2024-09-30", registered: "2024-09-09"),
          program(1, start: "2024-09-01", end: "2024-09-05", registered: "2024-08-30"),
        ]
      ),
      (
        22,
        [
          program(2, start: "2024-09-03", end: "2024-10-01", registered: "2024-09-01"),
          program(6, start: "2024-09-23", end: "2024-09-24", registered: "2024-09-20"),
        ]
      ),
      (29, [program(6, start: "2024-09-23", end: "2024-09-24", registered: "2024-09-20")]),
    ]
    for (day, programs) in catalogs {
      try store.record(
        NewSnapshot(
          takenAt: monday.addingTimeInterval(Double(day) * 86_400), source: "d\(day).csv",
          sourceTotal: programs.count, entries: programs))
    }
    return (store, dir)
  }

  @Test func writesEveryFileWithFiguresFromFullPrograms() throws {
    let (store, dir) = try Self.store()
    let job = TrendJob(
      store: store, storePath: "s", environment: RaonEnvironment(workingDirectory: dir))
    let outcome = try job.run(
      TrendJob.Range(), formats: FormatRegistry.standard.formats, out: nil, options: ExportOptions())
    let snapshots = try store.snapshots()
    let chosen = WeeklyTrend.choosePoints(snapshots, weeks: .max)
    #expect(chosen.map(\.id) == [2, 3, 4, 5, 6])
    let expected = WeeklyTrend.points(
      try chosen.map { (info: $0, programs: try store.programs(inSnapshot: $0.id)) })
    #expect(outcome.points == expected)
    // By hand, the week of 2024-09-09 (snapshot 3, day 2024-09-10): programs 2, 4, 5.
    #expect(
      outcome.points[1]
        == WeeklyTrendPoint(
          isoWeek: ISOWeek(year: 2024, week: 37) ?? ISOWeek(containing: CalendarDay(dayNumber: 0)),
          snapshotId: 3, takenAt: Self.monday.addingTimeInterval(8 * 86_400), programCount: 3,
          current: 3, running: 3, starting: 2, registered: 2, added: 1, removed: 1))
    #expect(
      outcome.points[2].programCount == 4 && outcome.points[2].added == 1
        && outcome.points[2].removed == 1)
    #expect(outcome.summary == "trend 2024-W36 … 2024-W40: 5 weeks")
    let folder = dir.appendingPathComponent("reports/trend")
    #expect(outcome.directory?.standardizedFileURL.path == folder.standardizedFileURL.path)
    #expect(
      outcome.files == ["trend.md", "charts/trend.svg", "trend.xlsx", "trend.csv", "trend.json"])
    for file in outcome.files {
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file)")
    }
    // Run again: the earlier trend folder is replaced.
    let again = try job.run(
      TrendJob.Range(weeks: 2), formats: [.json], out: nil, options: ExportOptions())
    #expect(again.points.map(\.snapshotId) == [5, 6])
    #expect(again.points[0].added == nil)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("trend.md").path))
  }

  @Test func rangesAndRefusals() throws {
    let (store, dir) = try Self.store()
    let job = TrendJob(
      store: store, storePath: "s", environment: RaonEnvironment(workingDirectory: dir))
    let w37 = ISOWeek(year: 2024, week: 37)
    let w38 = ISOWeek(year: 2024, week: 38)
    let some = try job.run(
      TrendJob.Range(from: w37, to: w38), formats: [], out: nil, options: ExportOptions())
    #expect(some.points.map(\.snapshotId) == [3, 4] && some.directory == nil)
    #expect(throws: TrendJob.Error.noSnapshotInRange(from: "2025-W01", to: "…", store: "s")) {
      try job.run(
        TrendJob.Range(from: ISOWeek(year: 2025, week: 1)), formats: [], out: nil,
        options: ExportOptions())
    }
    // A folder holding anything else is not replaced.
    let foreign = dir.appendingPathComponent("mine")
    try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
    #expect(throws: WorkflowError.self) {
      try job.run(TrendJob.Range(), formats: [.csv], out: "mine", options: ExportOptions())
    }
    #expect(
      FileManager.default.fileExists(atPath: foreign.appendingPathComponent("notes.txt").path))
    let empty = try SnapshotStore.inMemory()
    #expect(throws: WorkflowError.noSnapshots(store: "e")) {
      try TrendJob(
        store: empty, storePath: "e", environment: RaonEnvironment(workingDirectory: dir)
      )
      .run(TrendJob.Range(), formats: [], out: nil, options: ExportOptions())
    }
  }
}
