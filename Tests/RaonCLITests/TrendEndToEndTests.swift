import Foundation
import RaonCore
import RaonIngest
import TestSupport
import Testing

/// `raon trend` run as a user runs it, on a history of daily catalogs built from the bundled
/// sample, checked against figures computed here from each chosen day's CSV (read and
/// normalised, then counted by the definitions written out below — not through the store).
@Suite(.serialized) struct TrendEndToEndTests {
  static let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts")

  /// The figures of one catalog for its own ISO week and day, by the README's definitions.
  struct Figures: Equatable {
    var isoWeek: String
    var programCount, current, running, starting, registered: Int
    var added, removed: Int?
  }

  static func figures(_ programs: [Program], day: CalendarDay) -> Figures {
    let week = ISOWeek(containing: day)
    let monday = week.start
    let sunday = week.end
    var f = Figures(
      isoWeek: week.description, programCount: programs.count, current: 0, running: 0, starting: 0,
      registered: 0)
    for p in programs {
      if p.endDate.map({ $0 >= monday }) ?? true { f.current += 1 }
      if let s = p.startDate, let e = p.endDate, s <= sunday, e >= monday { f.running += 1 }
      if let s = p.startDate, s >= monday, s <= sunday { f.starting += 1 }
      if let r = p.registeredOn, r >= day.adding(days: -6), r <= day { f.registered += 1 }
    }
    return f
  }

  @Test func trendOfADailyHistoryMatchesAnIndependentCount() throws {
    let dir = try Fixtures.temporaryDirectory("raon-trend-e2e")
    defer { try? FileManager.default.removeItem(at: dir) }
    let history = dir.appendingPathComponent("history")
    let made = try Python.run([
      Self.scripts.appendingPathComponent("trend_history.py").path, Fixtures.sampleCSV.path,
      history.path,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let days = made.stdout.split(separator: "\n").map(String.init)
    #expect(days.count == 7)
    let env = ["RAON_DB": dir.appendingPathComponent("raon.sqlite").path]
    for day in days {
      let run = try RaonProcess.run(
        [
          "snapshot", history.appendingPathComponent("\(day).csv").path, "--taken-at",
          "\(day)T10:00:00+09:00",
        ],
        in: dir, environment: env)
      try #require(run.status == 0, "\(run.stderr)")
    }

    let run = try RaonProcess.run(["trend"], in: dir, environment: env)
    try #require(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("trend 2024-W33 … 2024-W37: 5 weeks — written to "))
    let folder = dir.appendingPathComponent("reports/trend")

    // The expected points: the latest day of each ISO week (snapshot ids follow the days).
    var chosen: [(id: Int, day: String)] = []
    for (i, day) in days.enumerated() {
      let week = ISOWeek(containing: CalendarDay(iso: day) ?? CalendarDay(dayNumber: 0))
      if let last = chosen.last, let lastDay = CalendarDay(iso: last.day),
        ISOWeek(containing: lastDay) == week
      {
        chosen.removeLast()
      }
      chosen.append((i + 1, day))
    }
    #expect(chosen.map(\.id) == [1, 4, 5, 6, 7])
    var expected: [Figures] = []
    var previousIDs: Set<String>?
    for (_, day) in chosen {
      let batch = try CatalogFileReader.read(history.appendingPathComponent("\(day).csv"))
      let programs = batch.records.map(ProgramNormalizer.normalize)
      var f = Self.figures(programs, day: try #require(CalendarDay(iso: day)))
      let ids = Set(programs.map(\.id))
      if let previousIDs {
        f.added = ids.subtracting(previousIDs).count
        f.removed = previousIDs.subtracting(ids).count
      }
      previousIDs = ids
      expected.append(f)
    }
    #expect(expected.contains { ($0.added ?? 0) > 0 && ($0.removed ?? 0) > 0 })
    #expect(expected.contains { $0.registered > 0 && $0.starting > 0 && $0.running > 0 })

    // trend.json
    let data = try Data(contentsOf: folder.appendingPathComponent("trend.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    let fromJSON = json.map { o in
      Figures(
        isoWeek: o["isoWeek"] as? String ?? "", programCount: o["programCount"] as? Int ?? -1,
        current: o["current"] as? Int ?? -1, running: o["running"] as? Int ?? -1,
        starting: o["starting"] as? Int ?? -1, registered: o["registered"] as? Int ?? -1,
        added: o["added"] as? Int, removed: o["removed"] as? Int)
    }
    #expect(fromJSON == expected)
    #expect(json.map { $0["snapshotId"] as? Int ?? 0 } == chosen.map(\.id))
    #expect(json[0]["added"] is NSNull)
    #expect(json.map { $0["takenAt"] as? String ?? "" } == chosen.map { "\($0.day)T01:00:00Z" })

    // trend.csv: BOM, header, the same numbers.
    let csv = try Data(contentsOf: folder.appendingPathComponent("trend.csv"))
    #expect(Array(csv.prefix(3)) == [0xEF, 0xBB, 0xBF])
    let lines = String(decoding: csv.dropFirst(3), as: UTF8.self).split(separator: "\r\n").map(
      String.init)
    #expect(
      lines.first
        == "iso_week,snapshot_id,taken_at,program_count,current,running,starting,registered,added,removed"
    )
    let fromCSV = lines.dropFirst().map { line -> Figures in
      let c = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return Figures(
        isoWeek: c[0], programCount: Int(c[3]) ?? -1, current: Int(c[4]) ?? -1,
        running: Int(c[5]) ?? -1, starting: Int(c[6]) ?? -1, registered: Int(c[7]) ?? -1,
        added: Int(c[8]), removed: Int(c[9]))
    }
    #expect(fromCSV == expected)

    // trend.xlsx read back with openpyxl: the same numbers, two line charts over them.
    let read = try Python.run([
      "-c",
      """
      import json, sys, zipfile, openpyxl
      wb = openpyxl.load_workbook(sys.argv[1])
      ws = wb["추이"]
      rows = [[c.value if not hasattr(c.value, 'isoformat') else c.value.isoformat() for c in r] for r in ws.iter_rows(min_row=1, max_col=11)]
      charts = [n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.startswith("xl/charts/chart")]
      kinds = [("lineChart" in zipfile.ZipFile(sys.argv[1]).read(n).decode()) for n in charts]
      print(json.dumps({"sheets": wb.sheetnames, "rows": rows, "charts": kinds}, ensure_ascii=False))
      """,
      folder.appendingPathComponent("trend.xlsx").path,
    ])
    try #require(read.status == 0, "\(read.stderr)")
    let book = try #require(
      try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
    #expect(book["sheets"] as? [String] == ["추이"])
    #expect(book["charts"] as? [Bool] == [true, true])
    let rows = try #require(book["rows"] as? [[Any]])
    #expect(rows.count == expected.count + 1)
    let fromXLSX = rows.dropFirst().map { r in
      // The week by its Monday and the figures (A…H), then the ISO week, snapshot, time.
      Figures(
        isoWeek: r[8] as? String ?? "", programCount: r[1] as? Int ?? -1,
        current: r[2] as? Int ?? -1,
        running: r[3] as? Int ?? -1, starting: r[4] as? Int ?? -1, registered: r[5] as? Int ?? -1,
        added: r[6] as? Int, removed: r[7] as? Int)
    }
    #expect(fromXLSX == expected)
    #expect(rows.dropFirst().map { $0[10] as? String ?? "" } == chosen.map { "\($0.day)T10:00:00" })

    // trend.md shows the same table.
    let md = try String(contentsOf: folder.appendingPathComponent("trend.md"), encoding: .utf8)
    let last = try #require(expected.last)
    #expect("\(last.isoWeek)" == "2024-W37")
    #expect(
      md.contains(
        // The last point, snapshot #7 taken 2024-09-09 (a Monday): its week is 9–15 September.
        "| 2024.\u{A0}9.\u{A0}9. ~ 9.\u{A0}15. | 2024.\u{A0}9.\u{A0}9. | \(Self.grouped(last.programCount)) | \(Self.grouped(last.current)) |"
      ))
    #expect(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("charts/trend.svg").path)
    )

    // --weeks, --from/--to, --lang, --out.
    let two = try RaonProcess.run(
      ["trend", "--weeks", "2", "--format", "json", "--lang", "en", "--out", "two"], in: dir,
      environment: env)
    try #require(two.status == 0, "\(two.stderr)")
    let twoJSON = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: dir.appendingPathComponent("two/trend.json"))) as? [[String: Any]])
    #expect(twoJSON.map { $0["snapshotId"] as? Int ?? 0 } == [6, 7])
    #expect(twoJSON[0]["added"] is NSNull && twoJSON[1]["added"] as? Int == expected[4].added)
    let range = try RaonProcess.run(
      ["trend", "--from", "2024-W34", "--to", "2024-W35", "--format", "csv", "--out", "range"],
      in: dir, environment: env)
    try #require(range.status == 0, "\(range.stderr)")
    #expect(range.stdout.hasPrefix("trend 2024-W34 … 2024-W35: 2 weeks"))
  }

  @Test func badArgumentsAreRefusedInOneLine() throws {
    let dir = try Fixtures.temporaryDirectory("raon-trend-args")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": dir.appendingPathComponent("raon.sqlite").path]
    for (args, mentions) in [
      (["trend", "--from", "2024-37"], "2024-37"), (["trend", "--weeks", "0"], "--weeks"),
      (["trend", "--from", "2024-W40", "--to", "2024-W30"], "swap"),
      (["trend"], "there is no store at"), (["trend", "--format", "md,html"], "not html"),
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status != 0, "\(args)")
      #expect(run.stderr.contains(mentions), "\(args): \(run.stderr)")
    }
    let help = try RaonProcess.run(["trend", "--help"], in: dir)
    #expect(help.stdout.contains("raon trend --weeks 12"))
  }

  static func grouped(_ n: Int) -> String {
    let digits = String(n)
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(ch)
    }
    return out
  }
}
