import Foundation
import RaonCore
import RaonWorkflow
import Testing

@Suite struct SnapshotSelectionTests {
  /// Snapshots at 2024-09-09 09:00 KST (Mon, W37), +12 h, +2 days, +8 days (W38).
  let base = Date(timeIntervalSince1970: 1_725_840_000)  // 2024-09-09T00:00:00Z
  var snapshots: [SnapshotInfo] {
    [0.0, 12, 48, 192].enumerated().map { i, hours in
      SnapshotInfo(id: Int64(i + 1), takenAt: base.addingTimeInterval(hours * 3600), source: "s", programCount: 10)
    }
  }

  @Test func latestIsTheDefaultAndIdsMustExist() throws {
    #expect(try SnapshotSelection.chooseSnapshot(nil, week: nil, in: snapshots, store: "db").id == 4)
    #expect(try SnapshotSelection.chooseSnapshot("latest", week: nil, in: snapshots, store: "db").id == 4)
    #expect(try SnapshotSelection.chooseSnapshot("2", week: nil, in: snapshots, store: "db").id == 2)
    #expect(throws: WorkflowError.unknownSnapshot(id: 9, store: "db")) {
      try SnapshotSelection.chooseSnapshot("9", week: nil, in: snapshots, store: "db")
    }
    #expect(throws: WorkflowError.invalidSnapshotReference("-1")) {
      try SnapshotSelection.chooseSnapshot("-1", week: nil, in: snapshots, store: "db")
    }
    #expect(throws: WorkflowError.noSnapshots(store: "db")) {
      try SnapshotSelection.chooseSnapshot(nil, week: nil, in: [], store: "db")
    }
  }

  /// A backfilled snapshot (taken earlier, recorded last) has the highest
  /// id; `latest`, the default and a week's choice go by `taken_at`, as the trend does.
  @Test func latestFollowsTheTimeTakenNotTheId() throws {
    // Ids 1-4 as above, then 5 backfilled 3 days before the first.
    let backfilled = snapshots + [
      SnapshotInfo(id: 5, takenAt: base.addingTimeInterval(-72 * 3600), source: "old", programCount: 10)
    ]
    #expect(try SnapshotSelection.chooseSnapshot(nil, week: nil, in: backfilled, store: "db").id == 4)
    #expect(try SnapshotSelection.chooseSnapshot("latest", week: nil, in: backfilled, store: "db").id == 4)
    let w37 = try #require(ISOWeek("2024-W37"))
    #expect(try SnapshotSelection.chooseSnapshot(nil, week: w37, in: backfilled, store: "db").id == 3)
    let w36 = try #require(ISOWeek("2024-W36"))
    #expect(try SnapshotSelection.chooseSnapshot(nil, week: w36, in: backfilled, store: "db").id == 5)
    // Two taken at one instant: the one recorded last.
    let twins = [
      SnapshotInfo(id: 7, takenAt: base, source: "a", programCount: 1),
      SnapshotInfo(id: 6, takenAt: base, source: "b", programCount: 1),
    ]
    #expect(SnapshotSelection.latest(of: twins)?.id == 7)
    #expect(SnapshotSelection.before(backfilled[0], in: backfilled)?.id == 5)
  }

  @Test func aWeekAloneChoosesTheLatestSnapshotTakenByItsEnd() throws {
    let w37 = try #require(ISOWeek("2024-W37"))
    #expect(try SnapshotSelection.chooseSnapshot(nil, week: w37, in: snapshots, store: "db").id == 3)
    let w36 = try #require(ISOWeek("2024-W36"))
    #expect(throws: WorkflowError.self) {
      try SnapshotSelection.chooseSnapshot(nil, week: w36, in: snapshots, store: "db")
    }
  }

  @Test func previousIsTheLatestSnapshotTakenAtLeastADayEarlier() throws {
    let s = snapshots
    // For #3 (+48 h): #2 (+12 h) is 36 h earlier → previous; #1 is older.
    #expect(try SnapshotSelection.chooseComparison(nil, for: s[2], in: s, store: "db")?.id == 2)
    // For #2 (+12 h): #1 is only 12 h earlier → no previous.
    #expect(try SnapshotSelection.chooseComparison("previous", for: s[1], in: s, store: "db") == nil)
    #expect(try SnapshotSelection.chooseComparison("none", for: s[3], in: s, store: "db") == nil)
    #expect(try SnapshotSelection.chooseComparison("1", for: s[3], in: s, store: "db")?.id == 1)
    #expect(throws: WorkflowError.compareToSelf(id: 4)) {
      try SnapshotSelection.chooseComparison("4", for: s[3], in: s, store: "db")
    }
  }

  @Test func theDefaultWeekIsTheKoreanWeekOfTheSnapshot() throws {
    // 2024-09-08T15:30Z is Monday 2024-09-09 00:30 in Korea (W37), Sunday in UTC (W36).
    let info = SnapshotInfo(id: 1, takenAt: Date(timeIntervalSince1970: 1_725_809_400), source: "s", programCount: 1)
    #expect(SnapshotSelection.defaultWeek(for: info).description == "2024-W37")
    #expect(throws: WorkflowError.invalidWeek("2024-37")) { try SnapshotSelection.parseWeek("2024-37") }
  }
}

@Suite struct TakenAtParserTests {
  @Test func acceptsDatesZonesAndKoreanLocalTimes() throws {
    #expect(try TakenAtParser.parse("2024-09-09").iso8601UTC == "2024-09-08T15:00:00Z")
    #expect(try TakenAtParser.parse("2024-09-09T10:00:00+09:00").iso8601UTC == "2024-09-09T01:00:00Z")
    #expect(try TakenAtParser.parse("2024-09-09T01:00:00Z").iso8601UTC == "2024-09-09T01:00:00Z")
    #expect(try TakenAtParser.parse("2024-09-09 10:00").iso8601UTC == "2024-09-09T01:00:00Z")
    #expect(throws: WorkflowError.invalidTakenAt("yesterday")) { try TakenAtParser.parse("yesterday") }
  }
}

@Suite struct RaonConfigTests {
  @Test func readsEveryKnownKey() throws {
    let text = """
      # weekly job
      [report]
      db = "/var/lib/raon/raon.sqlite"   # the store
      formats = ["md", "xlsx"]
      out = 'weekly'
      lang = "en"
      api_base = "http://127.0.0.1:8088"
      csv_encoding = "cp949"
      csv_headers = "ko"
      chart_top_n = 8
      """
    let config = try RaonConfig.parse(text, path: "raon.toml")
    #expect(config.db == "/var/lib/raon/raon.sqlite")
    #expect(config.formats == [.md, .xlsx])
    #expect(config.out == "weekly")
    #expect(config.lang == .en)
    #expect(config.apiBase == "http://127.0.0.1:8088")
    #expect(config.csvEncoding == .cp949)
    #expect(config.csvHeaders == .ko)
    #expect(config.chartTopN == 8)
  }

  @Test func mistakesNameTheFileAndLine() {
    #expect(throws: WorkflowError.config(path: "c.toml", line: 2, message: "unknown key 'dbb' (known: db, formats, out, lang, api_base, csv_encoding, csv_headers, chart_top_n)")) {
      try RaonConfig.parse("db = \"x\"\ndbb = \"y\"", path: "c.toml")
    }
    #expect(throws: WorkflowError.self) { try RaonConfig.parse("lang = en", path: "c.toml") }
    #expect(throws: WorkflowError.self) { try RaonConfig.parse("chart_top_n = -1", path: "c.toml") }
    #expect(throws: WorkflowError.self) { try RaonConfig.parse("just words", path: "c.toml") }
  }
}

@Suite struct OutputPublisherTests {
  func temporary() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("raon-pub-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func aSuccessfulRunReplacesTheEarlierReportWhole() throws {
    let root = try temporary()
    defer { try? FileManager.default.removeItem(at: root) }
    let target = root.appendingPathComponent("2024-W37")
    try OutputPublisher.publish(to: target) { try Data("old".utf8).write(to: $0.appendingPathComponent("report.md")) }
    try OutputPublisher.publish(to: target) { try Data("new".utf8).write(to: $0.appendingPathComponent("report.md")) }
    #expect(try String(contentsOf: target.appendingPathComponent("report.md"), encoding: .utf8) == "new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["2024-W37"])
  }

  struct Boom: Error {}

  @Test func aFailedRunLeavesTheEarlierReportAndNoPartialFolder() throws {
    let root = try temporary()
    defer { try? FileManager.default.removeItem(at: root) }
    let target = root.appendingPathComponent("r")
    try OutputPublisher.publish(to: target) { try Data("old".utf8).write(to: $0.appendingPathComponent("report.md")) }
    #expect(throws: Boom.self) {
      try OutputPublisher.publish(to: target) { dir in
        try Data("half".utf8).write(to: dir.appendingPathComponent("report.md"))
        throw Boom()
      }
    }
    #expect(try String(contentsOf: target.appendingPathComponent("report.md"), encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["r"])
  }

  @Test func aFolderHoldingOtherFilesIsNeverReplaced() throws {
    let root = try temporary()
    defer { try? FileManager.default.removeItem(at: root) }
    try Data("precious".utf8).write(to: root.appendingPathComponent("thesis.docx"))
    #expect(throws: WorkflowError.self) {
      try OutputPublisher.publish(to: root) { _ in }
    }
    #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("thesis.docx").path))
  }

  @Test func leftoversOfADeadRunAreRemoved() throws {
    let root = try temporary()
    defer { try? FileManager.default.removeItem(at: root) }
    // PID 2^22+1 is above Linux's pid_max default, so no such process runs.
    let stale = root.appendingPathComponent(".r.raon-partial-4194305")
    try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
    try OutputPublisher.publish(to: root.appendingPathComponent("r")) { _ in }
    #expect(!FileManager.default.fileExists(atPath: stale.path))
  }
}
