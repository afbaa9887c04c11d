import Foundation
import TestSupport
import Testing

/// `raon site` on a national store (issue 36), through the real binary: two small downloads
/// cut from the real one (Scripts/national_site_fixtures.py: 강원, 전북 and 세종), taken in
/// 2023 (강원도, 전라북도) and in 2025 (강원특별자치도, 전북특별자치도). The pages' figures are
/// read back from the HTML (Scripts/national_site_read.py) and equal an independent count by
/// the documented key (Scripts/national_week.py); the site is walked in headless Chromium
/// (Scripts/national_site_browser.py).
@Suite(.serialized) struct NationalSiteEndToEndTests {
  static let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts")
  static let env = ["RAON_DB": "national.sqlite"]
  static let weeks = [(file: "first.csv", week: "2023-W18", monday: "2023-05-01"), (file: "second.csv", week: "2025-W14", monday: "2025-03-31")]

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The two downloads recorded a week of each year apart, and the keys of each one's events.
  static func history() throws -> (dir: URL, keys: [String: [String]]) {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-site")
    let made = try Python.run([
      scripts.appendingPathComponent("national_site_fixtures.py").path, Fixtures.nationalCSV.path,
      dir.appendingPathComponent("first.csv").path, dir.appendingPathComponent("second.csv").path,
    ])
    #expect(made.status == 0, "\(made.stderr)")
    let keys = try json(made.stdout).compactMapValues { $0 as? [String] }
    for (file, _, monday) in weeks {
      let run = try RaonProcess.run(
        ["snapshot", "--catalog", "national", file, "--taken-at", "\(monday)T09:00:00+09:00"], in: dir, environment: env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    return (dir, keys)
  }

  /// national_week.py's count of a download's week, its 시·도 named as on `namedOn`.
  static func counted(_ dir: URL, _ file: String, monday: String, namedOn: String) throws -> [String: Any] {
    let run = try Python.run([
      scripts.appendingPathComponent("national_week.py").path, dir.appendingPathComponent(file).path, monday, namedOn,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    return try json(run.stdout)
  }

  static func read(_ site: URL) throws -> [String: Any] {
    let run = try Python.run([scripts.appendingPathComponent("national_site_read.py").path, site.path])
    #expect(run.status == 0, "\(run.stderr)")
    return try json(run.stdout)
  }

  @Test func everyPageCountsEventsPerRegionAsTheDownloadsSay() throws {
    let (dir, keys) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["site", "--format", "html", "--out", "site"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("2 weeks"), "\(run.stdout)")
    let site = try Self.read(dir.appendingPathComponent("site"))
    let latestDay = Self.weeks[1].monday

    // Each week's report and its 시·도 packs, named as on the week's own day.
    let reports = (site["reports"] as? [String: Any]) ?? [:]
    for (file, week, monday) in Self.weeks {
      let expected = try Self.counted(dir, file, monday: monday, namedOn: monday)
      #expect(reports["weeks/\(week)/report.html"] as? Int == expected["running"] as? Int, "\(week)")
      let byRegion = (expected["runningByRegion"] as? [String: Int]) ?? [:]
      let regions = Set(((expected["eventsByRegion"] as? [String: Int]) ?? [:]).keys)
      let packs = Set(reports.keys.filter { $0.hasPrefix("weeks/\(week)/regions/") }.map {
        String($0.dropFirst("weeks/\(week)/regions/".count).dropLast("/report.html".count))
      })
      #expect(packs == regions, "\(week): \(packs.sorted()) vs \(regions.sorted())")
      for name in regions {
        #expect(reports["weeks/\(week)/regions/\(name)/report.html"] as? Int == byRegion[name] ?? 0, "\(week) \(name)")
      }
    }
    #expect(reports["weeks/2023-W18/regions/강원도/report.html"] != nil && reports["weeks/2025-W14/regions/강원도/report.html"] == nil)

    // A page per 시·도 as named in the latest week, each with its events of that week and
    // its trend (every week counted under the latest name: 강원도's 2023 is 강원특별자치도's).
    let latest = try Self.counted(dir, "second.csv", monday: latestDay, namedOn: latestDay)
    let names = Set(((latest["eventsByRegion"] as? [String: Int]) ?? [:]).keys)
    let index = (site["index"] as? [String: Any]) ?? [:]
    #expect(index["regions"] as? [String] == ["세종특별자치시", "강원특별자치도", "전북특별자치도"])
    #expect(Set((index["regions"] as? [String]) ?? []) == names)
    #expect(index["h1"] as? String == "전국 공연·행사 기록")
    #expect(index["source"] as? Bool == true)
    let pages = (site["regions"] as? [String: [String: Any]]) ?? [:]
    #expect(Set(pages.keys) == names)
    let thisWeek = (latest["currentByRegion"] as? [String: Int]) ?? [:]
    for name in names {
      let page = pages[name] ?? [:]
      #expect(page["listed"] as? Int == thisWeek[name] ?? 0, "\(name): listed")
      let rows = (page["rows"] as? [[Any]]) ?? []
      #expect(rows.count == 2, "\(name): \(rows)")
      for (row, (file, _, monday)) in zip(rows, Self.weeks) {
        let expected = try Self.counted(dir, file, monday: monday, namedOn: latestDay)
        #expect(row[1] as? Int == (expected["eventsByRegion"] as? [String: Int])?[name], "\(name) \(monday): events")
        #expect(row[2] as? Int == (expected["runningByRegion"] as? [String: Int])?[name] ?? 0, "\(name) \(monday): running")
      }
    }
    #expect(
      (pages["강원특별자치도"]?["weeks"] as? [String]) == [
        "../weeks/2025-W14/regions/강원특별자치도/report.html", "../weeks/2023-W18/regions/강원도/report.html",
      ])

    // A page per event that was ever listed; every link leads somewhere; no Seoul words.
    let events = Set(keys["first"] ?? []).union(keys["second"] ?? [])
    #expect(site["programs"] as? Int == events.count)
    #expect((site["broken"] as? [String]) == [], "\(site["broken"] ?? "")")
    #expect((site["words"] as? [String: Any])?.isEmpty == true, "\(site["words"] ?? "")")
    #expect((site["folders"] as? [String])?.contains("districts") == false)
  }

  @Test func aRebuildReusesTheWeeksAndKeepsEveryRegionPage() throws {
    let (dir, _) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(["site", "--format", "html"], in: dir, environment: Self.env)
    #expect(first.status == 0, "\(first.stderr)")
    let again = try RaonProcess.run(["site", "--format", "html"], in: dir, environment: Self.env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("rendered 0 weeks and 0 program pages"), "\(again.stdout)")
    let site = try Self.read(dir.appendingPathComponent("site"))
    #expect(((site["regions"] as? [String: Any]) ?? [:]).count == 3)
    #expect((site["broken"] as? [String]) == [], "\(site["broken"] ?? "")")

    // A file of someone else's among the 시·도 pages: named in one line, and nothing replaced.
    let notes = dir.appendingPathComponent("site/regions/notes.txt")
    try Data("mine\n".utf8).write(to: notes)
    let refused = try RaonProcess.run(["site", "--format", "html"], in: dir, environment: Self.env)
    #expect(refused.status != 0 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("regions/notes.txt"), "\(refused.stderr)")
    #expect(FileManager.default.fileExists(atPath: notes.path))
  }

  /// The region packs' folder is a report's: writing the report again into its folder used
  /// to be refused ("holds files that are not a Raon report (regions)").
  @Test func aReportWithRegionPacksIsWrittenAgainIntoItsFolder() throws {
    let (dir, _) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    for _ in 0..<2 {
      let run = try RaonProcess.run(["report", "--regions", "all", "--format", "html", "--out", "o"], in: dir, environment: Self.env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    let packs = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("o/regions").path)
    #expect(Set(packs) == ["세종특별자치시", "강원특별자치도", "전북특별자치도"])
  }

  @Test func aNationalSitePassesTheBrowserChecks() throws {
    let (dir, _) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["site", "--format", "html,xlsx"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let check = try Python.run([
      Self.scripts.appendingPathComponent("national_site_browser.py").path, dir.appendingPathComponent("site").path,
      dir.appendingPathComponent("first.csv").path, dir.appendingPathComponent("second.csv").path,
    ])
    #expect(check.status == 0 && check.stdout.hasSuffix("ok\n"), "\(check.stdout)\n\(check.stderr)")
  }
}
