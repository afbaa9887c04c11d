import Foundation
import TestSupport
import Testing

/// `raon report --catalog national` as a user runs it on the real download (issue 36, phase
/// 2): the week's figures equal an independent Python count by the documented key
/// (Scripts/national_week.py, which shares only the region table with Raon), the 시·도 packs
/// add up to the country, and every format it writes is read back by other tools (openpyxl,
/// Python's csv and json).
@Suite(.serialized) struct NationalReportEndToEndTests {
  static let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts")
  /// The shared download, where the machine has it; else the repository's copy (same bytes).
  static var download: URL {
    let shared = URL(fileURLWithPath: "/work/shared/data/national-performance-events-2025-03.cp949.csv")
    return FileManager.default.fileExists(atPath: shared.path) ? shared : Fixtures.nationalCSV
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  static func counts(_ any: Any?) -> [String: Int] {
    var out: [String: Int] = [:]
    for case let band as [String: Any] in (any as? [Any]) ?? [] {
      if let key = band["key"] as? String, let count = band["count"] as? Int { out[key] = count }
    }
    return out
  }

  @Test func theReportAndEveryRegionPackCountWhatTheKeySays() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-report")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "national.sqlite"]
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Self.download.path, "--taken-at", "2025-03-31T09:00:00+09:00"],
      in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let run = try RaonProcess.run(
      ["report", "--catalog", "national", "--regions", "all", "--region", "경상북도 안동시",
       "--format", "md,html,xlsx,csv,json", "--out", "out"],
      in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")

    let counted = try Python.run([
      Self.scripts.appendingPathComponent("national_week.py").path, Self.download.path, "2025-03-31", "2025-03-31",
    ])
    #expect(counted.status == 0, "\(counted.stderr)")
    let expected = try Self.json(counted.stdout)
    let read = try Python.run([
      Self.scripts.appendingPathComponent("national_report_read.py").path, dir.appendingPathComponent("out").path,
    ])
    #expect(read.status == 0, "\(read.stderr)")
    let folders = try Self.json(read.stdout)

    // The country: events, 요금정보, the week, and running by 시·도.
    let country = try #require(folders[""] as? [String: Any])
    let report = try #require(country["json"] as? [String: Any])
    #expect(report["catalog"] as? String == "national")
    let totals = try #require(report["totals"] as? [String: Any])
    #expect(totals["programs"] as? Int == expected["events"] as? Int)
    #expect(totals["free"] as? Int == expected["free"] as? Int)
    #expect(totals["paid"] as? Int == expected["paid"] as? Int)
    #expect(Self.counts(report["byFeeKind"])["mixed"] == expected["mixed"] as? Int)
    let week = try #require(report["thisWeek"] as? [String: Any])
    for key in ["running", "current", "starting", "ending"] {
      #expect(week[key] as? Int == expected[key] as? Int, "\(key)")
    }
    let runningByRegion = try #require(expected["runningByRegion"] as? [String: Int])
    #expect(Self.counts(week["runningByRegion"]) == runningByRegion)
    #expect(Self.counts(report["byRegion"]) == expected["eventsByRegion"] as? [String: Int])
    #expect(week["runningByDistrict"] == nil && report["byCategory"] == nil)
    let quality = Dictionary(
      ((report["quality"] as? [[String: Any]]) ?? []).map { ($0["flag"] as? String ?? "", $0["count"] as? Int ?? 0) },
      uniquingKeysWith: +)
    #expect(quality["end_before_start"] == expected["endBeforeStart"] as? Int)
    #expect(quality["reference_date_stale"] == expected["referenceStale"] as? Int)
    #expect(quality["coords_missing"] == expected["coordsMissing"] as? Int)

    // One pack per 시·도 with events, named as on 2025-03-31 (강원특별자치도, not 강원도), adding
    // up to the country; the provider's pack besides them.
    let eventsByRegion = try #require(expected["eventsByRegion"] as? [String: Int])
    let packs = folders.keys.filter { $0.hasPrefix("regions/") && $0 != "regions/경상북도 안동시" }
    #expect(Set(packs) == Set(eventsByRegion.keys.map { "regions/\($0)" }))
    #expect(packs.contains("regions/강원특별자치도") && !packs.contains("regions/강원도"))
    var events = 0, running = 0
    for pack in packs {
      let entry = try #require(folders[pack] as? [String: Any])
      let json = try #require(entry["json"] as? [String: Any])
      let packEvents = (json["totals"] as? [String: Any])?["programs"] as? Int ?? -1
      #expect(packEvents == eventsByRegion[String(pack.dropFirst("regions/".count))], "\(pack)")
      events += packEvents
      running += ((json["thisWeek"] as? [String: Any])?["running"] as? Int) ?? -1
    }
    #expect(events == expected["events"] as? Int)
    #expect(running == expected["running"] as? Int)
    let andong = try #require((folders["regions/경상북도 안동시"] as? [String: Any])?["json"] as? [String: Any])
    #expect((andong["region"] as? [String: Any])?["name"] as? String == "경상북도 안동시")
    #expect(((andong["totals"] as? [String: Any])?["programs"] as? Int ?? 0) > 0)

    // Every format, read back: the workbook opens with its sheets in the national words,
    // each CSV has its header, the Markdown and HTML say 시·도, not 자치구.
    let sheets = (country["sheets"] as? [String]) ?? []
    #expect(sheets.contains("시·도별") && sheets.contains("제공기관별") && !sheets.contains("자치구별"), "\(sheets)")
    let csvs = (country["csv"] as? [String: [String: Any]]) ?? [:]
    #expect(csvs["events.csv"]?["rows"] as? Int == expected["events"] as? Int)
    #expect(((csvs["by_region.csv"]?["header"] as? [String]) ?? []).first == "시·도")
    let md = (country["md"] as? String) ?? ""
    #expect(md.hasPrefix("# 전국 공연·행사 주간 현황") && md.contains("시·도별") && !md.contains("자치구"))
    #expect(md.contains("출처: 공공데이터포털"))
    #expect(md.contains("요금정보별") && md.contains("입장연령별"))
    let html = (country["html"] as? String) ?? ""
    #expect(html.contains("전국 공연·행사 주간 현황") && !html.contains("자치구"))
  }

  @Test func seoulsPackOptionsAreRefusedOnANationalStoreInOneLine() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-options")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "national.sqlite"]
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31"], in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    for (arguments, says) in [
      (["report", "--districts", "all", "--out", "o"], "--regions all"),
      (["report", "--region", "없는시", "--format", "json", "--out", "o"], "no 시·도 and no provider"),
    ] {
      let run = try RaonProcess.run(arguments, in: dir, environment: env)
      #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(says), "\(arguments): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    }
  }

  @Test func theTrendCountsEventsWeekByWeek() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-trend")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalLaterDownload.write(from: Self.download, into: dir)
    let env = ["RAON_DB": "national.sqlite"]
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Self.download.path, later.path, "--taken-at", "2025-03-31", "--taken-at", "2025-10-01"],
      in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let run = try RaonProcess.run(["trend", "--format", "json", "--out", "t"], in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    let points = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("t/trend.json"))) as? [[String: Any]])
    #expect(points.count == 2)
    for (point, file) in zip(points, [Self.download, later]) {
      let counted = try Python.run([Self.scripts.appendingPathComponent("national_events.py").path, "keys", file.path])
      let events = try Self.json(counted.stdout)["events"] as? Int
      #expect(point["programCount"] as? Int == events, "\(file.lastPathComponent)")
    }
    let diff = try Python.run([Self.scripts.appendingPathComponent("national_events.py").path, "diff", Self.download.path, later.path])
    let expected = try Self.json(diff.stdout)
    #expect(points.last?["added"] as? Int == (expected["added"] as? [Any])?.count)
    #expect(points.last?["removed"] as? Int == (expected["removed"] as? [Any])?.count)
  }
}
