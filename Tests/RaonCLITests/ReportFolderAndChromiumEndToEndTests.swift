import Foundation
import TestSupport
import Testing

/// Issue 27 ("promises kept on the new surfaces"), the report folder's and Chromium's
/// items, end to end with the real binary (and the real Chromium where it prints), and
/// issue 24's item 14 (one browser for every PDF of a run). Each test names its item.
@Suite(.serialized) struct ReportFolderAndChromiumEndToEndTests {
  static let header = "분류,자치구,공연/행사명,장소,기관명,이용요금,유무료,시작일,종료일,문화포털상세URL\r\n"

  /// A small UTF-8 catalog, one program per `(category, title, url)`, all starting in the
  /// week of 2024-09-09 (so every one is listed under 이번 주 시작).
  static func catalog(_ rows: [(category: String, title: String, url: String)]) -> Data {
    func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    var csv = header
    for (n, row) in rows.enumerated() {
      csv += [
        quoted(row.category), "마포구", quoted(row.title), "미술관", "기관", "\"10,000원\"", "유료",
        "2024-09-10", "2024-09-\(20 + n % 9)", quoted(row.url),
      ].joined(separator: ",") + "\r\n"
    }
    return Data(csv.utf8)
  }

  static func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  // MARK: - Item 4

  /// Item 4: files a user put in `districts/강남구/`, `csv/`, `charts/…/` or a folder named
  /// `report.md/` were deleted without a word when the report ran again (one beside
  /// `report.md` was refused). Now each is refused the same way, naming it, and kept.
  @Test func filesAUserPutInsideAReportsSubfoldersAreRefusedAndKept() throws {
    let dir = try Fixtures.temporaryDirectory("raon-o3-nested")
    defer { try? FileManager.default.removeItem(at: dir) }
    let args = ["report", "--db", "store.sqlite", "--district", "강남구", "--format", "md,csv", "--out", "W"]
    let first = try RaonProcess.run(args, in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let w = dir.appendingPathComponent("W")
    let fm = FileManager.default
    #expect(Self.exists(w.appendingPathComponent("districts/강남구/report.md")))
    #expect(Self.exists(w.appendingPathComponent("charts")))
    // Each placement on its own: refused, named, kept; then taken away again.
    let placements: [(path: String, folder: Bool)] = [
      ("districts/강남구/memo.docx", false), ("csv/budget.xlsx", false), ("charts/mine/note.svg", false),
      ("districts/강남구/csv/예산.xlsx", false), ("districts/메모", true),
    ]
    for placement in placements {
      let url = w.appendingPathComponent(placement.path)
      try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      if placement.folder {
        try fm.createDirectory(at: url, withIntermediateDirectories: true)
      } else {
        try Data("mine".utf8).write(to: url)
      }
      let again = try RaonProcess.run(args, in: dir)
      #expect(again.status == 1, "\(placement.path): \(again.status) \(again.stderr)")
      #expect(Self.lines(again.stderr).count == 1, "\(again.stderr)")
      let named = placement.path.split(separator: "/").prefix(placement.path.hasPrefix("charts") ? 2 : 3)
        .joined(separator: "/")
      #expect(again.stderr.contains(named), "\(placement.path): \(again.stderr)")
      #expect(Self.exists(url), "\(placement.path) was deleted")
      try fm.removeItem(at: placement.path.hasPrefix("charts/mine") ? url.deletingLastPathComponent() : url)
    }
    // A folder where a report's file goes.
    try fm.removeItem(at: w.appendingPathComponent("report.md"))
    try fm.createDirectory(at: w.appendingPathComponent("report.md"), withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: w.appendingPathComponent("report.md/keep.txt"))
    let folder = try RaonProcess.run(args, in: dir)
    #expect(folder.status == 1 && folder.stderr.contains("report.md"), "\(folder.stderr)")
    #expect(Self.exists(w.appendingPathComponent("report.md/keep.txt")))
    try fm.removeItem(at: w.appendingPathComponent("report.md"))
    // What a report wrote itself is replaced as before.
    let last = try RaonProcess.run(args, in: dir)
    #expect(last.status == 0, "\(last.stderr)")
    #expect(Self.exists(w.appendingPathComponent("districts/강남구/csv")))
  }

  // MARK: - Item 6

  /// Item 6: Chromium was started with TERM, INT and HUP blocked (and ignored), in raon's
  /// process group. Now: a clean mask, default actions, a group of its own.
  @Test func raonStartsChromiumWithACleanSignalMaskInAGroupOfItsOwn() throws {
    let dir = try Fixtures.temporaryDirectory("raon-o3-mask")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.good, in: dir, record: record)
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--format", "pdf", "--out", "r"], in: dir,
      environment: ["RAON_CHROMIUM": fake.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(Self.exists(dir.appendingPathComponent("r/report.pdf")))
    let facts = FakeChromium.record(record)
    let blocked = try #require(facts["SigBlk"])
    let ignored = try #require(facts["SigIgn"])
    #expect(!FakeChromium.holdsHangUpInterruptOrTerminate(blocked), "SigBlk \(blocked)")
    #expect(!FakeChromium.holdsHangUpInterruptOrTerminate(ignored), "SigIgn \(ignored)")
    #expect(facts["pid"] != nil && facts["pgid"] == facts["pid"], "\(facts)")
  }

  // MARK: - Item 7

  /// The processes whose command line mentions `text`.
  static func processes(mentioning text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), FakeChromium.isRunning(pid)
      else { return false }
      return String(decoding: data, as: UTF8.self).contains(text)
    }
  }

  /// Item 7: SIGTERM or SIGINT while Chromium printed left `/tmp/raon-chromium-*` (2.3 MB)
  /// and `/tmp/raon-pdf-*` behind, every time. Now the interrupt ends Chromium's group and
  /// removes its folder.
  @Test(arguments: [SIGTERM, SIGINT])
  func anInterruptWhilePrintingLeavesNoTemporaryFolderAndNoChromium(_ signal: Int32) throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-o3-interrupt")
    defer { try? FileManager.default.removeItem(at: dir) }
    // A short TMPDIR: Chromium's singleton socket lives there, and a socket path over
    // 107 bytes makes it abort at start.
    let tmp = URL(fileURLWithPath: "/tmp/o3-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: tmp) }
    let prepared = try RaonProcess.run(["report", "--db", "store.sqlite", "--format", "json", "--out", "j"], in: dir)
    #expect(prepared.status == 0, "\(prepared.stderr)")
    let process = try RaonProcess.start(
      ["report", "--db", "store.sqlite", "--districts", "all", "--format", "pdf", "--out", "r"], in: dir,
      environment: ["TMPDIR": tmp.path])
    // Once Chromium has its folder (and has run a while), interrupt.
    let deadline = Date().addingTimeInterval(90)
    var seen = false
    while Date() < deadline, process.isRunning, !seen {
      seen = ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).contains {
        $0.hasPrefix("raon-chromium-")
      }
      usleep(50_000)
    }
    #expect(seen, "Chromium never started")
    usleep(1_500_000)
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + signal)
    usleep(500_000)
    let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("raon-") }
    #expect(left.isEmpty, "left behind: \(left)")
    let running = Self.processes(mentioning: tmp.path)
    for pid in running { kill(pid, SIGKILL) }
    #expect(running.isEmpty, "Chromium processes still running: \(running)")
    #expect(!Self.exists(dir.appendingPathComponent("r")))
  }

  // MARK: - Issue 37: Chromium's leftovers

  /// A short private TMPDIR (Chromium's socket path must stay under 107 bytes).
  static func privateTemporaryFolder() throws -> URL {
    let tmp = URL(fileURLWithPath: "/tmp/c37-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    return tmp
  }

  /// Starts `raon report … --format pdf` with `tmp` as TMPDIR and waits until Chromium has
  /// its folder there and has run a while.
  static func printing(in dir: URL, tmp: URL) throws -> Process {
    let process = try RaonProcess.start(
      ["report", "--db", "store.sqlite", "--districts", "all", "--format", "pdf", "--out", "r"], in: dir,
      environment: ["TMPDIR": tmp.path])
    let deadline = Date().addingTimeInterval(90)
    var seen = false
    while Date() < deadline, process.isRunning, !seen {
      seen = ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).contains {
        $0.hasPrefix("raon-chromium-")
      }
      usleep(50_000)
    }
    #expect(seen, "Chromium never started")
    usleep(1_500_000)
    return process
  }

  /// Issue 37: every killed or interrupted print left an empty `org.chromium.Chromium.*`
  /// folder in the user's TMPDIR (Chromium's singleton socket). Chromium now has a TMPDIR of
  /// its own inside raon's folder, which goes with it: after an interrupt TMPDIR is as it was.
  @Test func anInterruptedPrintLeavesNothingInTMPDIR() throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-c37-interrupt")
    defer { try? FileManager.default.removeItem(at: dir) }
    let tmp = try Self.privateTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: tmp) }
    let prepared = try RaonProcess.run(["report", "--db", "store.sqlite", "--format", "json", "--out", "j"], in: dir)
    #expect(prepared.status == 0, "\(prepared.stderr)")
    let process = try Self.printing(in: dir, tmp: tmp)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + SIGINT)
    usleep(500_000)
    for pid in Self.processes(mentioning: tmp.path) { kill(pid, SIGKILL) }
    let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
    #expect(left.isEmpty, "left in TMPDIR: \(left)")
  }

  /// Issue 37: after a SIGKILL of raon while it printed, its `raon-chromium-*` folder
  /// stayed forever. The folder's name now carries raon's process id, and the next raon
  /// that prints removes the folders of processes that no longer run (and those of an
  /// earlier Raon, unnamed by process, once a day old), and only those.
  @Test func aKilledRunsChromiumFolderIsRemovedByTheNextPrint() throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-c37-kill")
    defer { try? FileManager.default.removeItem(at: dir) }
    let tmp = try Self.privateTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: tmp) }
    let prepared = try RaonProcess.run(["report", "--db", "store.sqlite", "--format", "json", "--out", "j"], in: dir)
    #expect(prepared.status == 0, "\(prepared.stderr)")
    let process = try Self.printing(in: dir, tmp: tmp)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    usleep(1_000_000)
    for pid in Self.processes(mentioning: tmp.path) { kill(pid, SIGKILL) }
    usleep(300_000)
    let killed = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("raon-chromium-") }
    #expect(!killed.isEmpty, "the killed run left no folder (nothing to clean up)")

    // Beside it: a folder of a process that ended, one of a process that runs (this test),
    // and two of an earlier Raon (no process id), one old and one new.
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let fm = FileManager.default
    func folder(_ name: String, age: TimeInterval = 0) throws -> URL {
      let url = tmp.appendingPathComponent(name)
      try fm.createDirectory(at: url.appendingPathComponent("profile"), withIntermediateDirectories: true)
      if age > 0 { try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path) }
      return url
    }
    let deadRun = try folder("raon-chromium-\(ended.processIdentifier)-0badc0de")
    let liveRun = try folder("raon-chromium-\(getpid())-0badc0de")
    let oldLegacy = try folder("raon-chromium-\(UUID().uuidString)", age: 3 * 86_400)
    let newLegacy = try folder("raon-chromium-\(UUID().uuidString)")

    let next = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--format", "pdf", "--out", "r2"], in: dir, environment: ["TMPDIR": tmp.path])
    #expect(next.status == 0, "\(next.stderr)")
    for name in killed { #expect(!Self.exists(tmp.appendingPathComponent(name)), "\(name) is still there") }
    #expect(!Self.exists(deadRun) && !Self.exists(oldLegacy))
    #expect(Self.exists(liveRun) && Self.exists(newLegacy))
    let left = try fm.contentsOfDirectory(atPath: tmp.path).sorted()
    #expect(left == [liveRun.lastPathComponent, newLegacy.lastPathComponent].sorted(), "\(left)")
  }

  // MARK: - Item 9

  /// Item 9: `RAON_CHROMIUM=<a folder>` passed the check made before recording: `report
  /// --input … --format pdf` recorded the snapshot, then failed. Now nothing is recorded.
  @Test func aFolderAsRAONCHROMIUMIsRefusedBeforeAnythingIsRecorded() throws {
    let dir = try Fixtures.temporaryDirectory("raon-o3-chromium-folder")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      [
        "report", "--db", "store.sqlite", "--input", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09",
        "--format", "pdf", "--out", "r",
      ], in: dir, environment: ["RAON_CHROMIUM": dir.path])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(Self.lines(run.stderr).count == 1 && run.stderr.contains("RAON_CHROMIUM"), "\(run.stderr)")
    let store = dir.appendingPathComponent("store.sqlite")
    if Self.exists(store) {
      #expect(try TestInspection.storeSummary(store.path).programCounts.isEmpty)
    }
    #expect(!Self.exists(dir.appendingPathComponent("r")))
  }

  // MARK: - Item 10

  /// Item 10: a 문화포털상세URL on any host became the title's link in HTML, PDF and
  /// Markdown (and the workbook). Now only the portal's pages are links; the rest is text.
  @Test func onlyThePortalsProgramPagesBecomeLinks() throws {
    let dir = try Fixtures.temporaryDirectory("raon-o3-links")
    defer { try? FileManager.default.removeItem(at: dir) }
    let foreign = [
      "https://example.com/x?cultcode=1", "http://127.0.0.1:9/img.png?cultcode=1",
      "https://culture.seoul.go.kr.example.com/view.do?cultcode=3", "https://culture.seoul.go.kr@example.com/x",
      "https://culture.seoul.go.kr:8443/x?cultcode=5", "ftp://culture.seoul.go.kr/x",
    ]
    let portal = [
      "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=900001&menuNo=200008",
      "http://www.culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=900002",
      "HTTPS://Culture.Seoul.go.kr/view.do?cultcode=900003",
    ]
    let rows = (foreign + portal).enumerated().map { (category: "전시/미술", title: "행사 \($0.offset + 1)", url: $0.element) }
    let input = dir.appendingPathComponent("links.csv")
    try Self.catalog(rows).write(to: input)
    let run = try RaonProcess.run(
      [
        "report", "--db", "store.sqlite", "--input", input.path, "--taken-at", "2024-09-09",
        "--format", "md,html,xlsx", "--out", "r",
      ], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let out = dir.appendingPathComponent("r")
    let md = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
    let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
    // Every link target, read independently of the writers.
    let portalPattern = try NSRegularExpression(pattern: "^https?://(www\\.)?culture\\.seoul\\.go\\.kr/", options: [.caseInsensitive])
    func isPortal(_ url: String) -> Bool {
      portalPattern.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)) != nil
    }
    func captures(_ pattern: String, in text: String) throws -> [String] {
      let regex = try NSRegularExpression(pattern: pattern)
      return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
        Range($0.range(at: 1), in: text).map { String(text[$0]) }
      }
    }
    let mdTargets = try captures("\\]\\(([^)\\s]+)\\)", in: md).filter { !$0.hasPrefix("charts/") }
    let hrefs = try captures("href=\"([^\"]*)\"", in: html).filter { !$0.hasPrefix("#") }
      .map { $0.replacingOccurrences(of: "&amp;", with: "&") }
    #expect(!mdTargets.isEmpty && !hrefs.isEmpty)
    #expect(mdTargets.allSatisfy(isPortal), "\(mdTargets.filter { !isPortal($0) })")
    #expect(hrefs.allSatisfy(isPortal), "\(hrefs.filter { !isPortal($0) })")
    for url in portal { #expect(mdTargets.contains(url), "\(url) is not linked") }
    // Each title is still there, as text when its address is not the portal's.
    for n in 1...foreign.count { #expect(md.contains("행사 \(n)")) }
    // The workbook: no link (HYPERLINK formula or relationship) to another host.
    let script = """
      import sys, zipfile, re
      bad = []
      with zipfile.ZipFile(sys.argv[1]) as z:
          for name in z.namelist():
              text = z.read(name).decode("utf-8", "replace")
              for url in re.findall(r'HYPERLINK\\(&quot;([^&]*)&quot;', text) + re.findall(r'Target="(http[^"]*)"', text):
                  if not re.match(r"https?://(www\\.)?culture\\.seoul\\.go\\.kr/", url, re.I):
                      bad.append(url)
      print(len(bad), *bad)
      """
    let bad = try TestInspection.python(script, [out.appendingPathComponent("report.xlsx").path])
    #expect(bad == "0", "workbook links elsewhere: \(bad)")
  }

  // MARK: - Item 18

  /// Item 18: a title holding the text `&lt;script&gt;` rendered as `<script>` from
  /// `report.md`. Now a character reference in text is escaped (`\&lt;`), `R&B` is not.
  @Test func aTitleHoldingACharacterReferenceStaysLiteralInMarkdown() throws {
    let dir = try Fixtures.temporaryDirectory("raon-o3-amp")
    defer { try? FileManager.default.removeItem(at: dir) }
    let title = "&lt;script&gt;alert(1)&lt;/script&gt; &#60;b&#x3E; R&B &amp; 공연"
    let input = dir.appendingPathComponent("amp.csv")
    try Self.catalog([(category: "콘서트", title: title, url: "https://culture.seoul.go.kr/view.do?cultcode=920001")])
      .write(to: input)
    let run = try RaonProcess.run(
      [
        "report", "--db", "store.sqlite", "--input", input.path, "--taken-at", "2024-09-09",
        "--format", "md,html", "--out", "r",
      ], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let md = try String(contentsOf: dir.appendingPathComponent("r/report.md"), encoding: .utf8)
    // What a CommonMark viewer reads as a character reference: `&` not after a backslash.
    let reference = try NSRegularExpression(pattern: "(?<!\\\\)&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);")
    let found = reference.matches(in: md, range: NSRange(md.startIndex..., in: md)).compactMap {
      Range($0.range, in: md).map { String(md[$0]) }
    }
    #expect(found.isEmpty, "references a viewer would decode: \(found)")
    #expect(md.contains("R&B"))
    let html = try String(contentsOf: dir.appendingPathComponent("r/report.html"), encoding: .utf8)
    #expect(html.contains("&amp;lt;script&amp;gt;alert(1)"), "the page shows the text as it is")
    #expect(!html.contains("\\&"))
  }

  // MARK: - Issue 24, item 14

  /// Issue 24, item 14: `--districts all --format pdf` started Chromium once per PDF (26
  /// starts, 65 s where the run without PDF took 2.7 s). Now one browser prints them all.
  @Test func everyPDFOfARunIsPrintedByOneChromium() throws {
    let real = try HTMLReportEndToEndTests.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-o3-one-browser")
    defer { try? FileManager.default.removeItem(at: dir) }
    let log = dir.appendingPathComponent("starts.log")
    let wrapper = dir.appendingPathComponent("chromium")
    try Data("#!/bin/sh\necho start >> '\(log.path)'\nexec '\(real)' \"$@\"\n".utf8).write(to: wrapper)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--districts", "all", "--format", "pdf", "--out", "r"], in: dir,
      environment: ["RAON_CHROMIUM": wrapper.path])
    #expect(run.status == 0, "\(run.stderr)")
    let starts = Self.lines((try? String(contentsOf: log, encoding: .utf8)) ?? "").count
    #expect(starts == 1, "Chromium was started \(starts) times")
    let out = dir.appendingPathComponent("r")
    let packs = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("districts").path)
    #expect(packs.count == 25)
    for path in ["report.pdf"] + packs.map({ "districts/\($0)/report.pdf" }) {
      let pages = try HTMLReportEndToEndTests.pageCount(out.appendingPathComponent(path))
      #expect(pages.map { $0 >= 1 } == true, "\(path)")
    }
  }

  /// Issue 24, item 14: printing over the DevTools pipe gives the pages Chromium's own
  /// `--print-to-pdf` gives for the same `report.html` (rendered to pixels, page by page).
  @Test func theBrowsersPagesLookAsChromiumsOwnPrintToPDFPrintsThem() throws {
    let real = try HTMLReportEndToEndTests.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-o3-same-pages")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--district", "종로구", "--format", "html,pdf", "--out", "r"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    for folder in ["r", "r/districts/종로구"] {
      let html = dir.appendingPathComponent("\(folder)/report.html")
      let reference = dir.appendingPathComponent("reference.pdf")
      var arguments = HTMLReportEndToEndTests.chromiumArguments(profile: dir.appendingPathComponent("profile"))
      arguments += ["--no-pdf-header-footer", "--print-to-pdf=\(reference.path)", html.absoluteURL.absoluteString]
      let printed = try HTMLReportEndToEndTests.run(real, arguments)
      #expect(printed.status == 0, "\(printed.stderr.suffix(300))")
      var images: [[Data]] = []
      for (n, pdf) in [reference, dir.appendingPathComponent("\(folder)/report.pdf")].enumerated() {
        let prefix = dir.appendingPathComponent("page-\(n)").path
        let result = try HTMLReportEndToEndTests.run("/usr/bin/pdftoppm", ["-r", "40", "-gray", pdf.path, prefix])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
          .filter { $0.hasPrefix("page-\(n)-") }.sorted()
        images.append(try names.map { try Data(contentsOf: dir.appendingPathComponent($0)) })
        for name in names { try FileManager.default.removeItem(at: dir.appendingPathComponent(name)) }
      }
      #expect(images[0].count == images[1].count && images[0].count > 0, "\(folder): pages \(images.map(\.count))")
      #expect(images[0] == images[1], "\(folder): the printed pages differ")
    }
  }
}
