import Foundation
import Testing
import TestSupport

/// `raon site` through the real binary over a real history (the sample, then modified
/// copies a week apart), checked in headless Chromium by Selenium
/// (`Scripts/site_browser.py`), rebuilt incrementally, and killed mid-build.
@Suite(.serialized) struct SiteEndToEndTests {
  static let env = ["RAON_DB": "store.sqlite"]

  /// A store of two weeks: the sample (2024-09-09) and a modified copy (2024-09-16), and
  /// what the copy changed (`make_modified_sample.py --expected`).
  static func history() throws -> (dir: URL, next: URL, expected: [String: Any]) {
    let dir = try Fixtures.temporaryDirectory("raon-site")
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let next = dir.appendingPathComponent("next.csv")
    let expected = try modified(Fixtures.sampleCSV, to: next, seed: 7, in: dir)
    let second = try RaonProcess.run(["snapshot", "next.csv", "--taken-at", "2024-09-16"], in: dir, environment: env)
    #expect(second.status == 0, "\(second.stderr)")
    return (dir, next, expected)
  }

  static func modified(_ input: URL, to output: URL, seed: Int, in dir: URL) throws -> [String: Any] {
    let json = dir.appendingPathComponent("expected-\(seed).json")
    let made = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      input.path, output.path, "--expected", json.path, "--seed", String(seed),
    ])
    #expect(made.status == 0, "\(made.stderr)")
    return (try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]) ?? [:]
  }

  static func inode(_ url: URL) -> UInt64? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.uint64Value
  }

  @Test func aSiteOfTwoWeeksPassesTheBrowserChecks() throws {
    let (dir, next, expected) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let site = dir.appendingPathComponent("site")
    let changed = ((expected["changed"] as? [String: Any]) ?? [:]).keys.sorted()
    let id = try #require(changed.first)
    let check = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/site_browser.py").path,
      site.path, next.path, id, Fixtures.sampleCSV.path, dir.appendingPathComponent("expected-7.json").path,
    ])
    #expect(check.status == 0 && check.stdout.hasSuffix("ok\n"), "\(check.stdout)\n\(check.stderr)")
  }

  /// The search check on a title whose Korean is split by a digit and a space: 제2회
  /// 월드판소리페스티벌 (cult:149441, 중구, in the sample; hand-checked). The script once glued
  /// the title's Hangul together first and typed 회월, which is in no title.
  @Test func aTitleSplitByDigitsIsFoundByAPartOfItself() throws {
    let (dir, next, _) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let check = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/site_browser.py").path,
      dir.appendingPathComponent("site").path, next.path, "cult:149441",
    ])
    #expect(check.status == 0 && check.stdout.hasSuffix("ok\n"), "\(check.stdout)\n\(check.stderr)")
  }

  @Test func aRebuildAfterOneMoreWeekRendersOnlyTheNewWeekAndTheChangedPrograms() throws {
    let (dir, next, expected) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let site = dir.appendingPathComponent("site")
    let first = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("rendered 2 weeks"), "\(first.stdout)")
    let third = dir.appendingPathComponent("third.csv")
    let expectedThird = try Self.modified(next, to: third, seed: 8, in: dir)
    let record = try RaonProcess.run(["snapshot", third.path, "--taken-at", "2024-09-23"], in: dir, environment: Self.env)
    #expect(record.status == 0, "\(record.stderr)")

    let files = [
      "weeks/2024-W37/report.xlsx", "weeks/2024-W37/report.html", "weeks/2024-W38/report.xlsx",
      "weeks/2024-W38/report.html", "weeks/2024-W38/districts/종로구/report.html",
    ]
    let changedNow = ((expectedThird["changed"] as? [String: Any]) ?? [:]).keys.sorted()
    let changedBefore = ((expected["changed"] as? [String: Any]) ?? [:]).keys.sorted()
    let untouched = try #require(changedBefore.first { !changedNow.contains($0) })
    let programPage = { (id: String) in "programs/\(id.replacingOccurrences(of: ":", with: "-")).html" }
    var before: [String: UInt64] = [:]
    for f in files + [programPage(untouched), programPage(try #require(changedNow.first))] {
      before[f] = Self.inode(site.appendingPathComponent(f))
    }
    let rebuild = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(rebuild.status == 0, "\(rebuild.stderr)")
    #expect(rebuild.stdout.contains("rendered 1 week "), "\(rebuild.stdout)")
    // The earlier weeks' files are the same files (hard links); only W38's pages, which
    // now link to W39, are new, and W39 is there.
    for f in ["weeks/2024-W37/report.xlsx", "weeks/2024-W37/report.html", "weeks/2024-W38/report.xlsx"] {
      #expect(before[f] != nil && Self.inode(site.appendingPathComponent(f)) == before[f], "\(f) was written again")
    }
    for f in ["weeks/2024-W38/report.html", "weeks/2024-W38/districts/종로구/report.html"] {
      #expect(Self.inode(site.appendingPathComponent(f)) != before[f], "\(f) was not relinked")
      let html = try String(contentsOf: site.appendingPathComponent(f), encoding: .utf8)
      #expect(html.contains("2024-W39/"), "\(f) has no link to the new week")
    }
    #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("weeks/2024-W39/districts/강남구/report.html").path))
    #expect(Self.inode(site.appendingPathComponent(programPage(untouched))) == before[programPage(untouched)])
    let changedID = try #require(changedNow.first)
    #expect(Self.inode(site.appendingPathComponent(programPage(changedID))) != before[programPage(changedID)])
    // Nothing new: nothing rendered.
    let again = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(again.stdout.contains("rendered 0 weeks and 0 program pages"), "\(again.stdout)")
  }

  @Test func killingASiteBuildKeepsTheEarlierSite() throws {
    let (dir, _, _) = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let site = dir.appendingPathComponent("site")
    let first = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(first.status == 0, "\(first.stderr)")
    let listing = try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted()
    let index = try Data(contentsOf: site.appendingPathComponent("index.html"))
    for delay in [0.3, 1.0, 2.5] {
      // In English: every page differs, so the whole site is rendered again.
      let process = try RaonProcess.start(["site", "--lang", "en"], in: dir, environment: Self.env)
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let now = try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted()
      let nowIndex = try Data(contentsOf: site.appendingPathComponent("index.html"))
      if nowIndex == index {
        #expect(now == listing, "after a kill at \(delay) s the earlier site lost or gained files")
      } else {
        // The build finished before the kill: a whole English site.
        #expect(String(decoding: nowIndex, as: UTF8.self).contains("lang=\"en\""))
      }
    }
    let after = try RaonProcess.run(["site"], in: dir, environment: Self.env)
    #expect(after.status == 0, "\(after.stderr)")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".site.") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// The same history on PostgreSQL gives the same site, byte for byte.
  @Test func aHistoryOnPostgreSQLGivesTheSameSiteAsOnSQLite() throws {
    guard let server = PostgresTestServer.available() else { return }
    let (sqliteDir, next, _) = try Self.history()
    let pgDir = try Fixtures.temporaryDirectory("raon-site-pg")
    defer {
      try? FileManager.default.removeItem(at: sqliteDir)
      try? FileManager.default.removeItem(at: pgDir)
    }
    var env = server.environment
    env["RAON_DB"] = server.url()
    try FileManager.default.copyItem(at: next, to: pgDir.appendingPathComponent("next.csv"))
    for args in [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"],
      ["snapshot", "next.csv", "--taken-at", "2024-09-16"], ["site"],
    ] {
      let run = try RaonProcess.run(args, in: pgDir, environment: env)
      #expect(run.status == 0, "\(args): \(run.stderr)")
    }
    let sqliteRun = try RaonProcess.run(["site"], in: sqliteDir, environment: Self.env)
    #expect(sqliteRun.status == 0, "\(sqliteRun.stderr)")
    let a = try Self.files(sqliteDir.appendingPathComponent("site"))
    let b = try Self.files(pgDir.appendingPathComponent("site"))
    #expect(a.keys.sorted() == b.keys.sorted())
    #expect(a.count > 5_000)
    let differing = a.keys.filter { a[$0] != b[$0] }
    #expect(differing.isEmpty, "\(differing.sorted().prefix(5))")
  }

  static func files(_ dir: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for file in TestInspection.files(under: dir) {
      out[String(file.path.dropFirst(dir.path.count + 1))] = try Data(contentsOf: file)
    }
    return out
  }
}
