import Foundation
import TestSupport
import Testing

/// Promises kept under hostile input, signals and faults, end to end with the real
/// binary: each test names the promise it guards.
@Suite(.serialized) struct FaultsAndOddInputsEndToEndTests {
  static let header = "분류,자치구,공연/행사명,장소,기관명,이용요금,유무료,시작일,종료일,문화포털상세URL\r\n"

  /// A small UTF-8 catalog of `count` programs; `category`/`title`/`place` may carry
  /// hostile characters.
  static func catalog(
    count: Int, category: String = "전시/미술", title: (Int) -> String = { "전시 \($0)" },
    place: String = "미술관"
  ) -> Data {
    func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    var csv = header
    for n in 1...count {
      csv += [
        quoted(category), "마포구", quoted(title(n)), quoted(place), "기관", "\"10,000원\"", "유료",
        "2024-09-02", "2024-09-\(10 + n % 10)",
        "https://culture.seoul.go.kr/view.do?cultcode=\(700_000 + n)",
      ].joined(separator: ",") + "\r\n"
    }
    return Data(csv.utf8)
  }

  static func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  static func hidden(in dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".raon-") }
  }

  /// `chart_top_n = 9223372036854775807` trapped (SIGILL, a backtrace, a
  /// `.out.raon-partial-PID` folder left). Now: refused where it is read, one line with
  /// file:line, nothing staged.
  @Test func aHugeConfigNumberIsRefusedWithItsLineAndNothingIsStaged() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-config")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    for (text, mention) in [
      ("lang = \"ko\"\nchart_top_n = 9223372036854775807\n", "raon.toml:2"),
      ("chart_top_n = 0\n", "raon.toml:1"),
      ("lang = \"fr\"\n", "raon.toml:1"),
      ("[weekly]\nformats = [\"md\", \"docx\"]\n", "raon.toml:2"),
    ] {
      try Data(text.utf8).write(to: dir.appendingPathComponent("raon.toml"))
      let run = try RaonProcess.run(["report", "--out", "out"], in: dir, environment: env)
      #expect(run.status == 78, "\(text.debugDescription): \(run.status) \(run.stderr)")
      #expect(Self.lines(run.stderr).count == 1, "\(text.debugDescription): \(run.stderr)")
      #expect(run.stderr.contains(mention), "\(text.debugDescription): \(run.stderr)")
      #expect(try Self.hidden(in: dir).isEmpty)
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }
  }

  /// A vertical tab in a category and U+FFFE/U+FFFF in a title made `chart1.xml`
  /// and a sheet invalid XML (Excel: "damaged") with exit 0; ESC/BEL reached the Markdown.
  /// Now they are replaced, flagged `invalid_characters_replaced`, and every XML part of
  /// the workbook parses.
  @Test func controlCharactersNeverReachTheWorkbookOrTheMarkdown() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-xml")
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("hostile.csv")
    try Self.catalog(
      count: 6, category: "전시\u{0B}미술", title: { "제목 \($0) \u{FFFE}\u{FFFF}\u{1B}[31m" },
      place: "장소\u{07}\u{1B}]0;pwned\u{07}"
    ).write(to: input)
    let env = ["RAON_DB": "store.sqlite"]
    let run = try RaonProcess.run(
      ["report", "--input", input.path, "--taken-at", "2024-09-09", "--out", "out"], in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}"))
    let script = """
      import sys, zipfile, glob, xml.etree.ElementTree as ET, csv, json
      out = sys.argv[1]
      bad = []
      with zipfile.ZipFile(out + "/report.xlsx") as z:
          for name in z.namelist():
              if name.endswith(".xml") or name.endswith(".rels"):
                  try:
                      ET.fromstring(z.read(name))
                  except ET.ParseError as e:
                      bad.append(name + ": " + str(e))
      md = open(out + "/report.md", "rb").read()
      controls = sorted({b for b in md if b < 0x20 and b not in (9, 10, 13)})
      svgs = []
      for path in glob.glob(out + "/charts/*.svg"):
          try:
              ET.parse(path)
          except ET.ParseError as e:
              svgs.append(path + ": " + str(e))
      with open(out + "/csv/programs.csv", encoding="utf-8-sig", newline="") as f:
          rows = list(csv.DictReader(f))
      flags = [r["quality_flags"] for r in rows]
      categories = sorted({r["category"] for r in rows})
      print(json.dumps({"bad": bad, "controls": controls, "svgs": svgs, "flags": flags, "categories": categories}))
      """
    let text = try TestInspection.python(script, [dir.appendingPathComponent("out").path])
    let result = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    #expect((result["bad"] as? [Any])?.isEmpty == true, "invalid XML parts: \(result["bad"] ?? "")")
    #expect((result["svgs"] as? [Any])?.isEmpty == true, "invalid SVG: \(result["svgs"] ?? "")")
    #expect((result["controls"] as? [Any])?.isEmpty == true, "control bytes in report.md: \(result["controls"] ?? "")")
    let flags = result["flags"] as? [String] ?? []
    #expect(flags.count == 6 && flags.allSatisfy { $0.contains("invalid_characters_replaced") }, "\(flags)")
    #expect(result["categories"] as? [String] == ["전시\u{FFFD}미술"])
  }

  /// An error quoting a header with an ESC byte echoed it to the terminal.
  @Test func anErrorQuotingAnEscapeByteDoesNotEchoIt() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-esc")
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("esc.csv")
    try Data("a\u{1B}[2Jb\u{07},c\nx,y\n".utf8).write(to: input)
    let run = try RaonProcess.run(["snapshot", input.path], in: dir, environment: ["RAON_DB": "s.sqlite"])
    #expect(run.status == 1)
    #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"), "\(run.stderr.debugDescription)")
    #expect(run.stderr.contains("\\u{1B}"), "\(run.stderr)")
    #expect(Self.lines(run.stderr).count == 1)
  }

  /// `--db ""` silently meant the default store, and `raon snapshots --db
  /// typo/a/b.sqlite` created folders and an empty store.
  @Test func emptyStorePathsAreRefusedAndReadingCommandsCreateNothing() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-db")
    defer { try? FileManager.default.removeItem(at: dir) }
    let defaultStore = dir.appendingPathComponent(".local/share/raon")
    for args in [["snapshots", "--db", ""], ["report", "--db", "", "--out", "r"], ["diff", "1", "2", "--db", " "]] {
      let run = try RaonProcess.run(args, in: dir)
      #expect(run.status == 64, "\(args): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("--db is empty"), "\(args): \(run.stderr)")
      #expect(Self.lines(run.stderr).count == 1)
    }
    let unset = try RaonProcess.run(["snapshots"], in: dir, environment: ["RAON_DB": ""])
    #expect(unset.status == 64 && unset.stderr.contains("RAON_DB"), "\(unset.stderr)")
    #expect(!FileManager.default.fileExists(atPath: defaultStore.path))

    for args in [["snapshots", "--db", "typo/a/b.sqlite"], ["diff", "1", "2", "--db", "typo/a/b.sqlite"]] {
      let run = try RaonProcess.run(args, in: dir)
      #expect(run.status != 0, "\(args)")
      #expect(run.stderr.contains("there is no store at"), "\(args): \(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("typo").path))
  }

  /// Ctrl-C and SIGTERM left half-written report folders. Now the staged folder
  /// is removed, the earlier report stays, the store stays sound, and the status is
  /// 130 / 143.
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func anInterruptRemovesWhatTheRunStaged(signal: Int32, status: Int32) throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-signal")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let first = try RaonProcess.run(["report", "--out", "r", "--format", "json"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let earlier = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))

    let process = try RaonProcess.start(
      ["report", "--out", "r", "--input", Fixtures.sampleCSV.path, "--taken-at", "2024-09-16"],
      in: dir, environment: env)
    // Wait until the run has staged its folder, then interrupt it.
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline, (try? Self.hidden(in: dir))?.isEmpty ?? true {
      usleep(2_000)
    }
    guard process.isRunning else {
      process.waitUntilExit()
      Issue.record("the run ended (status \(process.terminationStatus)) before it could be interrupted")
      return
    }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    let stderr = String(
      decoding: (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(),
      as: UTF8.self)
    #expect(process.terminationReason == .exit, "killed by the signal instead of handling it")
    #expect(process.terminationStatus == status, "\(stderr)")
    #expect(stderr.contains("interrupted"), "\(stderr)")
    let leftovers = try Self.hidden(in: dir)
    #expect(leftovers.isEmpty, "left behind: \(leftovers)")
    #expect(try Data(contentsOf: dir.appendingPathComponent("r/report.json")) == earlier)
    let summary = try TestInspection.storeSummary(dir.appendingPathComponent("store.sqlite").path)
    #expect(summary.integrity == "ok")
    #expect(!summary.programCounts.values.contains(-1))
  }

  /// The hostile set interrupted `raon report --input` at random moments: about half the
  /// runs stopped while the workbook was saved said nothing (descriptor 2 pointed at the
  /// file that captures libxlsxwriter's messages), and some left the staged folder behind
  /// (a writer recreated it while it was removed). At each of a spread of moments after
  /// the folder is staged: status 130, the one-line message, and nothing left behind.
  @Test func anInterruptAtAnyMomentSaysSoAndLeavesNothing() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-moments")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    var interrupted = 0
    for (k, delay) in stride(from: 0, through: 1_400, by: 100).enumerated() {
      // A day of its own for each run, in case it finishes before the interrupt.
      let process = try RaonProcess.start(
        ["report", "--out", "r", "--input", Fixtures.sampleCSV.path, "--taken-at", "2024-09-\(10 + k)"],
        in: dir, environment: env)
      let deadline = Date().addingTimeInterval(60)
      while process.isRunning, Date() < deadline, (try? Self.hidden(in: dir))?.isEmpty ?? true {
        usleep(1_000)
      }
      usleep(useconds_t(delay * 1_000))
      guard process.isRunning else {
        process.waitUntilExit()
        continue  // finished first: nothing to check at this moment
      }
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      let stderr = String(
        decoding: (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(),
        as: UTF8.self)
      if process.terminationStatus == 130 {
        interrupted += 1
        #expect(stderr.contains("interrupted by SIGINT"), "\(delay) ms: stderr was '\(stderr)'")
        #expect(stderr.split(separator: "\n").count == 1, "\(delay) ms: \(stderr)")
      } else {
        #expect(process.terminationStatus == 0, "\(delay) ms: status \(process.terminationStatus): \(stderr)")
      }
      let leftovers = try Self.hidden(in: dir)
      #expect(leftovers.isEmpty, "\(delay) ms: left behind \(leftovers)")
    }
    #expect(interrupted >= 5, "only \(interrupted) runs were still going when interrupted")
    let summary = try TestInspection.storeSummary(dir.appendingPathComponent("store.sqlite").path)
    #expect(summary.integrity == "ok")
  }

  /// A FIFO and `/dev/null` were reported as "permission denied" (and a FIFO can
  /// block a reader forever).
  @Test func aFIFOAndADeviceAreNamedForWhatTheyAre() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-fifo")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("catalog.csv")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    for (path, kind) in [(fifo.path, "FIFO"), ("/dev/null", "device"), (dir.path, "folder")] {
      for args in [["snapshot", path], ["report", "--input", path, "--out", "r"]] {
        let process = try RaonProcess.start(args, in: dir, environment: ["RAON_DB": "s.sqlite"])
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        let stderr = String(
          decoding: (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(),
          as: UTF8.self)
        #expect(process.terminationStatus == 1, "\(args): \(stderr)")
        #expect(stderr.contains(kind), "\(args): \(stderr)")
        #expect(!stderr.lowercased().contains("permission"), "\(args): \(stderr)")
        #expect(Self.lines(stderr).count == 1, "\(args): \(stderr)")
      }
    }
  }

  /// A file name with a newline broke the one-line rule and the `snapshots` table.
  @Test func aFileNameWithANewlineStaysOnOneLine() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-newline")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let name = "week\n37\u{1B}[2J.csv"
    try Self.catalog(count: 3).write(to: dir.appendingPathComponent(name))
    let recorded = try RaonProcess.run(["snapshot", name, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(Self.lines(recorded.stdout).count == 1, "\(recorded.stdout)")
    let listed = try RaonProcess.run(["snapshots"], in: dir, environment: env)
    #expect(Self.lines(listed.stdout).count == 2, "\(listed.stdout)")
    #expect(!listed.stdout.contains("\u{1B}"))
    let missing = try RaonProcess.run(["snapshot", "no\nsuch.csv"], in: dir, environment: env)
    #expect(missing.status == 1)
    #expect(Self.lines(missing.stderr).count == 1, "\(missing.stderr)")
  }

  /// A read-only store failed even for `raon snapshots` ("attempt to write a
  /// readonly database"). On a read-only mount (tmpfs remounted read-only; skipped where
  /// mounting is not allowed) the reading commands work.
  @Test func readingCommandsWorkOnAReadOnlyStore() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-ro")
    defer { try? FileManager.default.removeItem(at: dir) }
    let mountPoint = dir.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    guard Self.mount(["-t", "tmpfs", "-o", "size=64m", "tmpfs", mountPoint.path]) else {
      print("SKIPPED readingCommandsWorkOnAReadOnlyStore: cannot mount a tmpfs here")
      return
    }
    defer { _ = Self.mount([mountPoint.path], program: "/bin/umount") }
    let store = mountPoint.appendingPathComponent("store.sqlite").path
    let env = ["RAON_DB": store]
    for (n, day) in ["2024-09-09", "2024-09-16"].enumerated() {
      let input = dir.appendingPathComponent("c\(n).csv")
      try Self.catalog(count: 5 + n).write(to: input)
      let run = try RaonProcess.run(["snapshot", input.path, "--taken-at", day], in: dir, environment: env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    guard Self.mount(["-o", "remount,ro", mountPoint.path]) else {
      print("SKIPPED readingCommandsWorkOnAReadOnlyStore: cannot remount read-only")
      return
    }
    let listed = try RaonProcess.run(["snapshots"], in: dir, environment: env)
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(Self.lines(listed.stdout).count == 3, "\(listed.stdout)")
    let diff = try RaonProcess.run(["diff", "1", "2", "--format", "none"], in: dir, environment: env)
    #expect(diff.status == 0, "\(diff.stderr)")
    #expect(diff.stdout.contains("1 added"), "\(diff.stdout)")
    // A report that records nothing needs only to read the store.
    let report = try RaonProcess.run(["report", "--format", "json", "--out", "out"], in: dir, environment: env)
    #expect(report.status == 0, "\(report.stderr)")
    #expect(report.stdout.contains("compared with snapshot 1"), "\(report.stdout)")
  }

  static func mount(_ arguments: [String], program: String = "/bin/mount") -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Another application's SQLite file was switched to WAL before it was refused.
  @Test func anotherApplicationsDatabaseIsLeftByteForByte() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-foreign")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("app.db").path
    _ = try TestInspection.python(
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("CREATE TABLE t (x)")
      db.execute("INSERT INTO t VALUES (1)")
      db.commit()
      """, [path])
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let input = dir.appendingPathComponent("c.csv")
    try Self.catalog(count: 3).write(to: input)
    for args in [
      ["snapshot", input.path], ["report", "--out", "r"], ["snapshots"], ["diff", "1", "2"],
    ] {
      let run = try RaonProcess.run(args + ["--db", path], in: dir)
      #expect(run.status != 0, "\(args)")
      #expect(run.stderr.contains("not a Raon store"), "\(args): \(run.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  /// `--out` that is a symlink was replaced by a folder; now it is written
  /// through and stays a link.
  @Test func aSymbolicLinkOutIsWrittenThrough() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-link")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("real"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link").path, withDestinationPath: "real")
    for _ in 1...2 {
      let linked = try RaonProcess.run(["report", "--out", "link", "--format", "json"], in: dir, environment: env)
      #expect(linked.status == 0, "\(linked.stderr)")
      let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("link").path)
      #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("real/report.json").path))
    }
  }

  /// `--week 9999-W52` was refused though Raon labels reports that way.
  @Test func theLastWeekRaonLabelsIsAccepted() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-week")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let far = try RaonProcess.run(["report", "--week", "9999-W52", "--format", "json", "--out", "w"], in: dir, environment: env)
    #expect(far.status == 0, "\(far.stderr)")
    #expect(far.stdout.contains("9999-W52"), "\(far.stdout)")
  }

  /// With `--csv-encoding cp949` the en dash of labels became `?`.
  @Test func cp949LabelsKeepTheirDashes() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-cp949")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let cp949 = try RaonProcess.run(
      ["report", "--lang", "en", "--csv-encoding", "cp949", "--format", "csv", "--out", "cp"], in: dir, environment: env)
    #expect(cp949.status == 0, "\(cp949.stderr)")
    let labels = try TestInspection.python(
      """
      import csv, sys
      with open(sys.argv[1], encoding="cp949", newline="") as f:
          print("|".join(r["label"] for r in csv.DictReader(f)))
      """, [dir.appendingPathComponent("cp/csv/by_duration.csv").path])
    #expect(labels.contains("2-7 days"), "\(labels)")
    #expect(!labels.contains("?"), "\(labels)")
  }

  /// Exit statuses in the manner of diff(1) and sysexits: `--fail-if-changed`
  /// gives 1 for "changed" and 2 for any error (both were 1); bad option values and
  /// unknown options give 64, on one line. Run in-process (``InProcess``); the binary's
  /// own statuses are ``ExitStatusTests/theBinaryExitsWithTheStatusAndPrintsOneLine()``'s.
  @Test func exitStatusesFollowDiffAndSysexits() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-exit")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    for (n, day) in ["2024-09-09", "2024-09-16"].enumerated() {
      let input = dir.appendingPathComponent("c\(n).csv")
      try Self.catalog(count: 5 + n).write(to: input)
      #expect(await InProcess.run(["snapshot", input.path, "--taken-at", day], in: dir, environment: env).status == 0)
    }
    let cases: [(args: [String], status: Int32)] = [
      (["diff", "1", "1", "--format", "none", "--fail-if-changed"], 0),
      (["diff", "1", "2", "--format", "none", "--fail-if-changed"], 1),
      (["diff", "1", "99", "--format", "none", "--fail-if-changed"], 2),
      (["diff", "1", "99", "--format", "none"], 2),
      (["diff", "1", "2", "--format", "docx", "--fail-if-changed"], 64),
      (["diff", "1", "2", "--bogus"], 64),
      (["report", "--bogus"], 64),
      (["report", "--format", "docx"], 64),
      (["report", "--lang", "fr"], 64),
      (["report", "--week", "2024-W99"], 64),
      (["report", "--snapshot", "abc"], 64),
      (["report", "--compare-to", "abc"], 64),
      (["snapshot", "--taken-at", "yesterday", "c0.csv"], 64),
      (["snapshot"], 64),
      (["report", "--snapshot", "99"], 1),
    ]
    for c in cases {
      let run = await InProcess.run(c.args, in: dir, environment: env)
      #expect(run.status == c.status, "\(c.args): \(run)")
      #expect((c.status == 0 || c.status == 1 && c.args[0] == "diff") == run.stderr.isEmpty, "\(c.args): \(run)")
    }
    let help = await InProcess.run(["--help"], in: dir)
    #expect(help.help.contains("Exit status") && help.help.contains("64"), "\(help.help)")
    let diffHelp = await InProcess.run(["diff", "--help"], in: dir)
    #expect(diffHelp.help.contains("2 any error"), "\(diffHelp.help)")
  }
}
