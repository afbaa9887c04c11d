import Foundation
import TestSupport
import Testing

/// The weekly report on a real-shaped history: four weekly snapshots built from the bundled
/// sample (each holds the programs registered by its Monday, minus programs taken down,
/// with material and minor edits), recorded and reported by the built binary. Every figure
/// of the week — this week, the previous week, removed ended/withdrawn, changed
/// material/minor, the trend — is computed again by `weekly_history.py` from the CSV rows
/// alone, and the same numbers are read back from report.md and report.xlsx.
@Suite(.serialized) struct WeeklyReportEndToEndTests {
  static let script = Fixtures.repositoryRoot
    .appendingPathComponent("Tests/RaonCLITests/Scripts/weekly_history.py").path

  @Test func everyFigureOfTheWeekMatchesAnIndependentComputation() throws {
    let dir = try Fixtures.temporaryDirectory("raon-weekly")
    defer { try? FileManager.default.removeItem(at: dir) }
    let made = try Python.run([Self.script, "make", Fixtures.sampleCSV.path, dir.path])
    try #require(made.status == 0, "\(made.stderr)")
    let mondays = ["2024-08-19", "2024-08-26", "2024-09-02", "2024-09-09"]
    for (k, day) in mondays.enumerated() {
      let run = try RaonProcess.run(
        ["snapshot", "--db", "store.sqlite", "w\(k + 1).csv", "--taken-at", "\(day)T09:00:00+09:00"], in: dir)
      try #require(run.status == 0, "\(run.stderr)")
    }
    let report = try RaonProcess.run(["report", "--db", "store.sqlite", "--out", "report"], in: dir)
    try #require(report.status == 0, "\(report.stderr)")
    #expect(report.stdout.contains("report for 2024-W37 on snapshot 4"))

    let checked = try Python.run([
      Self.script, "check", Fixtures.sampleCSV.path, dir.path, dir.appendingPathComponent("report").path,
    ])
    try #require(checked.status == 0, "\(checked.stderr)")
    let mismatches = try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [Any]
    #expect(mismatches?.isEmpty == true, "\(checked.stdout)")

    // Two district packs from the same run: each restricted to its district and ranked
    // among the 25, recomputed from the CSV rows.
    let packs = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "packs", "--district", "종로구", "--district", "강남구"],
      in: dir)
    try #require(packs.status == 0, "\(packs.stderr)")
    let districts = try Python.run([
      Self.script, "check-districts", Fixtures.sampleCSV.path, dir.path,
      dir.appendingPathComponent("packs").path, "종로구", "강남구",
    ])
    try #require(districts.status == 0, "\(districts.stderr)")
    #expect(
      (try JSONSerialization.jsonObject(with: Data(districts.stdout.utf8)) as? [Any])?.isEmpty == true,
      "\(districts.stdout)")
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: dir.appendingPathComponent("packs/districts").path)
    #expect(folders.sorted() == ["강남구", "종로구"])

    // All 25 from one run: a pack each (미상 is none), and their figures add up to the
    // city's less its programs of no known district.
    let all = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "all", "--districts", "all", "--format", "json"], in: dir)
    try #require(all.status == 0, "\(all.stderr)")
    let allFolders = try FileManager.default.contentsOfDirectory(
      atPath: dir.appendingPathComponent("all/districts").path)
    #expect(allFolders.count == 25 && !allFolders.contains("미상"))
    func thisWeek(_ path: String) throws -> [String: Any] {
      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(path)))
      return (json as? [String: Any])?["thisWeek"] as? [String: Any] ?? [:]
    }
    let city = try thisWeek("all/report.json")
    let unknownRunning = (city["runningByDistrict"] as? [[String: Any]] ?? [])
      .first { $0["key"] as? String == "미상" }?["count"] as? Int ?? 0
    var packRunning = 0
    for name in allFolders { packRunning += try thisWeek("all/districts/\(name)/report.json")["running"] as? Int ?? -1_000 }
    #expect(packRunning == (city["running"] as? Int ?? 0) - unknownRunning)

    // A wrong name: one line listing the 25, and nothing recorded or written.
    let wrong = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "wrong", "--district", "강남"], in: dir)
    #expect(wrong.status != 0)
    #expect(wrong.stderr.contains("'강남' is not one of Seoul's 25 districts") && wrong.stderr.contains("중랑구"))
    #expect(wrong.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("wrong").path))

    // `--trend-weeks 2` keeps the last two weeks; the first of them has no added/removed.
    let short = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "short", "--trend-weeks", "2", "--format", "json"], in: dir)
    try #require(short.status == 0, "\(short.stderr)")
    let json = try JSONSerialization.jsonObject(
      with: Data(contentsOf: dir.appendingPathComponent("short/report.json"))) as? [String: Any]
    let trend = json?["trend"] as? [[String: Any]] ?? []
    #expect(trend.map { $0["isoWeek"] as? String } == ["2024-W36", "2024-W37"])
    #expect(trend.first?["added"] is NSNull)
  }
}
