import Foundation
import TestSupport
import Testing

/// Issue 37's site items, end to end with the real binary: links only to the portal, a
/// user's files inside the site's folders, interrupts while pages are written, symbolic
/// links in an earlier site, ids too long for a file name, and a rebuild that checks what
/// it reuses. Each test names its item.
@Suite(.serialized) struct SiteSafetyEndToEndTests {
  static let header = "분류,자치구,공연/행사명,장소,기관명,이용요금,유무료,시작일,종료일,문화포털상세URL\r\n"

  /// A small UTF-8 catalog, one program per `(title, url)`, in 마포구, all running in the
  /// week of 2024-09-09.
  static func catalog(_ rows: [(title: String, url: String)], category: String = "전시/미술") -> Data {
    func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    var csv = header
    for (n, row) in rows.enumerated() {
      csv += [
        quoted(category), "마포구", quoted(row.title), "미술관", "기관", "\"10,000원\"", "유료",
        "2024-09-0\(1 + n % 9)", "2024-10-\(10 + n % 19)", quoted(row.url),
      ].joined(separator: ",") + "\r\n"
    }
    return Data(csv.utf8)
  }

  static func portal(_ code: String) -> String {
    "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(code)&menuNo=200008"
  }

  /// A store of two weekly snapshots of `rows` (the second without its last row), in a new
  /// folder.
  static func smallHistory(_ label: String, _ rows: [(title: String, url: String)], category: String = "전시/미술")
    throws -> URL
  {
    let dir = try Fixtures.temporaryDirectory(label)
    try catalog(rows, category: category).write(to: dir.appendingPathComponent("a.csv"))
    try catalog(Array(rows.dropLast()), category: category).write(to: dir.appendingPathComponent("b.csv"))
    for (file, day) in [("a.csv", "2024-09-09"), ("b.csv", "2024-09-16")] {
      let run = try RaonProcess.run(["snapshot", "--db", "store.sqlite", file, "--taken-at", day], in: dir)
      #expect(run.status == 0, "\(run.stderr)")
    }
    return dir
  }

  static let site = ["site", "--db", "store.sqlite", "--format", "html,csv"]

  static func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  /// Every file under `dir` with its bytes (links not followed).
  static func tree(_ dir: URL) -> [String: Data] {
    var out: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: dir.path) else { return out }
    while let path = walker.nextObject() as? String {
      let url = dir.appendingPathComponent(path)
      let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
      if type == .typeSymbolicLink {
        out[path] = Data(("-> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?")).utf8)
      } else if type == .typeRegular {
        out[path] = (try? Data(contentsOf: url)) ?? Data()
      }
    }
    return out
  }

  static func hrefs(_ html: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: "href=\"([^\"]*)\"") else { return [] }
    return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
      Range($0.range(at: 1), in: html).map { String(html[$0]).replacingOccurrences(of: "&amp;", with: "&") }
    }
  }

  // MARK: - Item 1

  /// Item 1: the site's program pages linked any http(s) address (`https://evil.example/…`,
  /// `127.0.0.1:9`, a longer host, a user part, a port, leading spaces, a backslash), where
  /// report.html links only the portal. Now both ask one rule: every address out of the
  /// site is a portal page, and a program's page links exactly when report.html does.
  @Test func theSiteLinksOnlyToThePortalsProgramPagesAsTheReportDoes() throws {
    let foreign = [
      "https://evil.example/x?cultcode=910001", "http://127.0.0.1:9/x?cultcode=910002",
      "https://culture.seoul.go.kr.evil.example/view.do?cultcode=910003",
      "https://culture.seoul.go.kr@evil.example/x?cultcode=910004",
      "https://culture.seoul.go.kr:8443/view.do?cultcode=910005", "   https://evil.example/x?cultcode=910006",
      "https://evil.example\\@culture.seoul.go.kr/x?cultcode=910007",
      "https://culture.seoul.go.kr\\@evil.example/x?cultcode=910008",
    ]
    let linked = [Self.portal("910009"), "http://www.culture.seoul.go.kr/view.do?cultcode=910010"]
    let rows = (foreign + linked).enumerated().map { (title: "행사 \($0.offset + 1)", url: $0.element) }
    let dir = try Self.smallHistory("raon-site-links", rows + [(title: "마지막", url: Self.portal("910011"))])
    defer { try? FileManager.default.removeItem(at: dir) }
    let site = try RaonProcess.run(Self.site, in: dir)
    #expect(site.status == 0, "\(site.stderr)")
    // The first week, where every program runs (and so is listed in report.html).
    let report = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--snapshot", "1", "--format", "html", "--out", "r"], in: dir)
    #expect(report.status == 0, "\(report.stderr)")

    func isPortal(_ url: String) -> Bool {
      url.range(of: "^https?://(www\\.)?culture\\.seoul\\.go\\.kr/", options: [.regularExpression, .caseInsensitive]) != nil
    }
    var outside: [String] = []
    var siteLinked: Set<String> = []
    for (path, data) in Self.tree(dir.appendingPathComponent("site")) where path.hasSuffix(".html") {
      // Every address with a scheme but the pages' empty icon (`data:,`).
      for href in Self.hrefs(String(decoding: data, as: UTF8.self)) where href.contains(":") && href != "data:," {
        if !isPortal(href) { outside.append("\(path): \(href)") }
        if path.hasPrefix("programs/") { siteLinked.insert(href) }
      }
    }
    #expect(outside.isEmpty, "links out of the site to other hosts: \(outside.prefix(5))")
    let reportHTML = try String(contentsOf: dir.appendingPathComponent("r/report.html"), encoding: .utf8)
    let reportLinked = Set(Self.hrefs(reportHTML).filter { $0.contains("://") })
    #expect(siteLinked == reportLinked, "site \(siteLinked.sorted()) vs report \(reportLinked.sorted())")
    for url in linked { #expect(siteLinked.contains(url), "\(url) is not linked") }
    // Each foreign program still has its page, its address not offered as the portal's.
    for n in 910001...910008 {
      let page = try String(contentsOf: dir.appendingPathComponent("site/programs/cult-\(n).html"), encoding: .utf8)
      #expect(!page.contains("evil.example") && !page.contains("127.0.0.1") && !page.contains(":8443"), "cult:\(n)")
    }
  }

  // MARK: - Item 2

  /// Item 2: a user's file inside `site/programs/`, `site/districts/` or `site/weeks/` was
  /// deleted by the next `raon site` (exit 0). Now each is refused in one line naming it,
  /// and kept; a site of Raon's own files is still replaced.
  @Test func filesAUserPutInsideASitesFoldersAreRefusedAndKept() throws {
    let rows = (1...6).map { (title: "행사 \($0)", url: Self.portal(String(920000 + $0))) }
    let dir = try Self.smallHistory("raon-site-folders", rows)
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(Self.site, in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let site = dir.appendingPathComponent("site")
    let fm = FileManager.default
    #expect(Self.exists(site.appendingPathComponent("weeks/2024-W38/districts/마포구/csv/programs.csv")))
    let placements: [(path: String, folder: Bool)] = [
      ("programs/memo.txt", false), ("programs/notes.html", false), ("programs/cult-999999.html", false),
      ("programs/mine", true), ("districts/memo.docx", false), ("districts/예산.html", false),
      ("districts/mine", true), ("weeks/notes.txt", false), ("weeks/2024-W99", true), ("weeks/mine", true),
      ("weeks/2024-W37/memo.docx", false), ("weeks/2024-W37/csv/budget.xlsx", false),
      ("weeks/2024-W37/districts/마포구/memo.docx", false), ("weeks/2024-W38/districts/메모", true),
    ]
    for placement in placements {
      let url = site.appendingPathComponent(placement.path)
      let before = Self.tree(site)
      if placement.folder {
        try fm.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: url.appendingPathComponent("keep.txt"))
      } else {
        try Data("mine".utf8).write(to: url)
      }
      let again = try RaonProcess.run(Self.site, in: dir)
      #expect(again.status == 1, "\(placement.path): exit \(again.status) \(again.stdout) \(again.stderr)")
      #expect(Self.lines(again.stderr).count == 1, "\(again.stderr)")
      #expect(again.stderr.contains(placement.path), "\(placement.path): \(again.stderr)")
      #expect(Self.exists(url), "\(placement.path) was deleted")
      var after = Self.tree(site)
      after = after.filter { !$0.key.hasPrefix(placement.path) }
      #expect(after == before, "\(placement.path): the site changed")
      try fm.removeItem(at: url)
    }
    let leftovers = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".site.") }
    #expect(leftovers.isEmpty, "\(leftovers)")
    // A page edited by hand is still Raon's file: replaced, as before.
    try Data("edited".utf8).write(to: site.appendingPathComponent("programs/cult-920001.html"))
    let last = try RaonProcess.run(Self.site, in: dir)
    #expect(last.status == 0, "\(last.stderr)")
    let page = try String(contentsOf: site.appendingPathComponent("programs/cult-920001.html"), encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
  }

  // MARK: - Item 3

  /// Item 3: SIGINT/SIGTERM while program pages were written left `.site.raon-partial-PID`
  /// with thousands of files, while the message said the staged files were removed. Now
  /// nothing is left, the earlier site is as it was, and the exit status is 128 + signal.
  /// Real signals against the binary, once in the program pages and once in a week.
  @Test(arguments: [SIGINT, SIGTERM])
  func anInterruptWhileTheSiteIsWrittenLeavesNothingStaged(_ signal: Int32) throws {
    let (dir, _, _) = try SiteEndToEndTests.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(["site", "--format", "html"], in: dir, environment: SiteEndToEndTests.env)
    #expect(first.status == 0, "\(first.stderr)")
    let site = dir.appendingPathComponent("site")
    let earlier = Self.tree(site)
    for phase in ["programs", "weeks"] {
      // In English every page differs: the whole site is written again.
      let process = try RaonProcess.start(
        ["site", "--format", "html", "--lang", "en"], in: dir, environment: SiteEndToEndTests.env)
      let staged = dir.appendingPathComponent(".site.raon-partial-\(process.processIdentifier)")
      let deadline = Date().addingTimeInterval(120)
      var reached = false
      while Date() < deadline, process.isRunning, !reached {
        if phase == "programs" {
          let pages = (try? FileManager.default.contentsOfDirectory(atPath: staged.appendingPathComponent("programs").path)) ?? []
          reached = pages.count > 300
        } else {
          reached = Self.exists(staged.appendingPathComponent("weeks/2024-W37/districts"))
        }
        if !reached { usleep(2_000) }
      }
      #expect(reached, "\(phase): the build never reached that phase")
      kill(process.processIdentifier, signal)
      process.waitUntilExit()
      let err = String(decoding: (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
      #expect(process.terminationStatus == 128 + signal, "\(phase): exit \(process.terminationStatus) \(err)")
      #expect(err.contains("staged was removed"), "\(err)")
      let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".site.") }
      var count = 0
      for name in left { count += TestInspection.files(under: dir.appendingPathComponent(name)).count }
      #expect(left.isEmpty, "\(phase): left \(left) holding \(count) files")
      #expect(Self.tree(site) == earlier, "\(phase): the earlier site changed")
      for name in left { try? FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
    }
  }

  // MARK: - Item 5

  /// Item 5: a symbolic link inside an earlier site was followed when an unchanged week was
  /// reused (a link to a folder hard-linked its files into the new site; one to
  /// /proc/self copied 400 MB, then raon crashed). Now a link anywhere in the site is
  /// refused like a user's file (one line naming it, kept, nothing read through it), and
  /// a week is reused only as the files it recorded.
  @Test func symbolicLinksInAnEarlierSiteAreRefusedAndNeverFollowed() throws {
    let rows = (1...5).map { (title: "행사 \($0)", url: Self.portal(String(930000 + $0))) }
    let dir = try Self.smallHistory("raon-site-links", rows)
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(Self.site, in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let site = dir.appendingPathComponent("site")
    let fm = FileManager.default
    let outside = dir.appendingPathComponent("outside")
    try fm.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data("private".utf8).write(to: outside.appendingPathComponent("secret.txt"))
    let placements: [(path: String, to: String, replaces: Bool)] = [
      ("weeks/2024-W37/mine", outside.path, false), ("weeks/2024-W37/proc", "/proc/self", false),
      ("weeks/2024-W37/report.html", outside.appendingPathComponent("secret.txt").path, true),
      ("weeks/2024-W37/csv", "/proc/self", true), ("programs/cult-930001.html", "/proc/self/environ", true),
      ("districts/마포구.html", outside.appendingPathComponent("secret.txt").path, true),
      ("weeks/2024-W37", outside.path, true),
    ]
    for placement in placements {
      let url = site.appendingPathComponent(placement.path)
      let saved = dir.appendingPathComponent("saved")
      if placement.replaces { try fm.moveItem(at: url, to: saved) }
      try fm.createSymbolicLink(atPath: url.path, withDestinationPath: placement.to)
      let started = Date()
      let again = try RaonProcess.run(Self.site, in: dir)
      #expect(again.status == 1, "\(placement.path): exit \(again.status) \(again.stderr)")
      #expect(Self.lines(again.stderr).count == 1 && again.stderr.contains(placement.path), "\(again.stderr)")
      #expect(Date().timeIntervalSince(started) < 60, "\(placement.path): \(Date().timeIntervalSince(started)) s")
      #expect((try? fm.destinationOfSymbolicLink(atPath: url.path)) == placement.to, "\(placement.path) changed")
      try fm.removeItem(at: url)
      if placement.replaces { try fm.moveItem(at: saved, to: url) }
    }
    #expect(try fm.contentsOfDirectory(atPath: outside.path) == ["secret.txt"])
    // With the links gone the site is reused as before, and holds nothing from outside.
    let last = try RaonProcess.run(Self.site, in: dir)
    #expect(last.status == 0, "\(last.stderr)")
    #expect(last.stdout.contains("rendered 0 weeks"), "\(last.stdout)")
    let files = Self.tree(site)
    #expect(!files.values.contains(Data("private".utf8)))
    #expect(!files.keys.contains { $0.hasSuffix("secret.txt") || $0.contains("environ") })
  }

  // MARK: - Minor: long ids

  /// A cultcode of 246 digits or more made `raon site` fail entirely ("file name too
  /// long", blaming --out). Now a long id's page has a bounded name (its first bytes, `~`
  /// and the id's SHA-256), unique and the same in every build; a normal id keeps
  /// `cult-NNN.html`. (A store keeps ids of at most 200 bytes since issue 37's store
  /// limits, so the longest here are as long as a store takes: `cult:` and 195 digits;
  /// a page name is bounded from 150 bytes on.)
  @Test func aLongIdGetsABoundedStableFileNameOfItsOwn() throws {
    let long = String(repeating: "1", count: 150)
    let longer = String(repeating: "7", count: 194) + "1"
    let twin = String(repeating: "7", count: 194) + "2"
    let rows = [long, longer, twin, "940001"].enumerated().map { (title: "행사 \($0.offset + 1)", url: Self.portal($0.element)) }
    let dir = try Self.smallHistory("raon-site-long", rows + [(title: "마지막", url: Self.portal("940002"))])
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(Self.site, in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let programs = dir.appendingPathComponent("site/programs")
    let names = try FileManager.default.contentsOfDirectory(atPath: programs.path).sorted()
    #expect(names.count == 5, "\(names)")
    #expect(names.allSatisfy { $0.utf8.count <= 255 })
    #expect(names.contains("cult-940001.html"))
    // The expected names, computed here: the SHA-256 by Python's hashlib.
    func expectedName(_ code: String) throws -> String {
      let digest = try TestInspection.python(
        "import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())", ["cult:" + code])
      return String(("cult-" + code).prefix(80)) + "~" + digest + ".html"
    }
    for code in [long, longer, twin] {
      let name = try expectedName(code)
      #expect(names.contains(name), "\(name.prefix(40))… not among \(names.map { $0.prefix(40) })")
      let page = try String(contentsOf: programs.appendingPathComponent(name), encoding: .utf8)
      #expect(page.contains("cult:" + code))
      let search = try String(contentsOf: dir.appendingPathComponent("site/search.html"), encoding: .utf8)
      #expect(search.contains("\"" + name + "\""))
    }
    // Stable: a rebuild reuses each page under the same name.
    let again = try RaonProcess.run(Self.site, in: dir)
    #expect(again.status == 0 && again.stdout.contains("0 program pages"), "\(again.stdout) \(again.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: programs.path).sorted() == names)
  }

  // MARK: - Minor: reuse checks what it reuses

  /// A rebuild reused an earlier week's files without checking them: a file lost from an
  /// unchanged week was not restored, a page edited by hand was kept. Now each reused file
  /// is the one recorded (size and SHA-256 in `.raon-site.json`), else the week or page
  /// is written again.
  @Test func aRebuildRestoresLostFilesAndReplacesEditedOnes() throws {
    let rows = (1...6).map { (title: "행사 \($0)", url: Self.portal(String(950000 + $0))) }
    let dir = try Self.smallHistory("raon-site-reuse", rows)
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(Self.site, in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let site = dir.appendingPathComponent("site")
    let built = Self.tree(site)
    let fm = FileManager.default
    let lost = "weeks/2024-W37/districts/강남구/csv/programs.csv"
    let edited = "weeks/2024-W37/districts/마포구/report.html"
    let page = "programs/cult-950002.html"
    #expect(built[lost] != nil && built[edited] != nil && built[page] != nil)
    try fm.removeItem(at: site.appendingPathComponent(lost))
    try Data("edited by hand".utf8).write(to: site.appendingPathComponent(edited))
    try (built[page]! + Data("<!-- edited -->".utf8)).write(to: site.appendingPathComponent(page))
    let again = try RaonProcess.run(Self.site, in: dir)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("rendered 1 week and 1 program page"), "\(again.stdout)")
    let rebuilt = Self.tree(site)
    #expect(rebuilt.keys.sorted() == built.keys.sorted())
    let differing = built.keys.filter { built[$0] != rebuilt[$0] }.sorted()
    #expect(differing.isEmpty, "\(differing.prefix(5))")
  }

  // MARK: - Item 4, the site's part

  /// Item 4 for the site: a category longer than 32,767 characters broke `raon site`. The
  /// failure is the workbook writer's (its cell limit; the workbook's own fix truncates
  /// it), but the site's message blamed `--out` and named its hidden staging folder. The
  /// site's own pages carry the category whole; a week that cannot be written is named as
  /// the week it is, and the earlier site stays.
  @Test func aCategoryLongerThanACellStaysWholeOnTheSitesPagesAndAFailedWeekIsNamed() throws {
    let category = String(repeating: "가", count: 20_000) + String(repeating: "x", count: 15_000)
    let rows = (1...4).map { (title: "행사 \($0)", url: Self.portal(String(960000 + $0))) }
    let dir = try Self.smallHistory("raon-site-category", rows, category: category)
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(Self.site, in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let site = dir.appendingPathComponent("site")
    for page in ["programs/cult-960001.html", "districts/마포구.html"] {
      let html = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
      #expect(html.contains(category), "\(page) does not carry the category whole")
    }
    let before = Self.tree(site)
    let workbook = try RaonProcess.run(["site", "--db", "store.sqlite", "--format", "html,xlsx"], in: dir)
    if workbook.status == 0 {
      #expect(Self.exists(site.appendingPathComponent("weeks/2024-W38/report.xlsx")))
    } else {
      #expect(workbook.status == 1)
      #expect(Self.lines(workbook.stderr).count == 1, "\(workbook.stderr)")
      #expect(workbook.stderr.contains("week 2024-W37") || workbook.stderr.contains("week 2024-W38"), "\(workbook.stderr)")
      #expect(!workbook.stderr.contains("raon-partial") && !workbook.stderr.contains("--out"), "\(workbook.stderr)")
      #expect(Self.tree(site) == before, "the earlier site changed")
    }
  }
}
