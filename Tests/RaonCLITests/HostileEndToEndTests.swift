import Foundation
import TestSupport
import Testing

/// Bugs the hostile-case runner found (scripts/hostile/RESULTS.md, findings 4–9), end to
/// end with the real binary: each test names its finding.
@Suite(.serialized) struct HostileEndToEndTests {
  /// A folder with a two-snapshot store `store.sqlite` (snapshots 1 and 2) and the catalog
  /// `catalog.csv`.
  static func folderWithStore(_ label: String) throws -> URL {
    let dir = try Fixtures.temporaryDirectory(label)
    try FaultsAndOddInputsEndToEndTests.catalog(count: 8).write(to: dir.appendingPathComponent("catalog.csv"))
    try FaultsAndOddInputsEndToEndTests.catalog(count: 9).write(to: dir.appendingPathComponent("catalog2.csv"))
    for (file, day) in [("catalog.csv", "2024-09-02"), ("catalog2.csv", "2024-09-09")] {
      let run = try RaonProcess.run(["snapshot", file, "--db", "store.sqlite", "--taken-at", day], in: dir)
      try #require(run.status == 0, "\(run.stderr)")
    }
    return dir
  }

  /// ``folderWithStore(_:)``, recorded in-process.
  static func folderWithStore(_ label: String) async throws -> URL {
    let dir = try Fixtures.temporaryDirectory(label)
    try FaultsAndOddInputsEndToEndTests.catalog(count: 8).write(to: dir.appendingPathComponent("catalog.csv"))
    try FaultsAndOddInputsEndToEndTests.catalog(count: 9).write(to: dir.appendingPathComponent("catalog2.csv"))
    for (file, day) in [("catalog.csv", "2024-09-02"), ("catalog2.csv", "2024-09-09")] {
      let run = await InProcess.run(["snapshot", file, "--db", "store.sqlite", "--taken-at", day], in: dir)
      try #require(run.status == 0, "\(run)")
    }
    return dir
  }

  static func snapshotCount(in dir: URL) throws -> Int {
    let run = try RaonProcess.run(["snapshots", "--db", "store.sqlite", "--json"], in: dir)
    return run.stdout.components(separatedBy: "\"id\"").count - 1
  }

  static func lines(_ text: String) -> Int { FaultsAndOddInputsEndToEndTests.lines(text).count }

  /// Runs raon, killing it when it has not finished within `seconds` (then `nil`).
  static func run(_ arguments: [String], in dir: URL, seconds: Double) throws -> RaonProcess.Result? {
    let process = try RaonProcess.start(arguments, in: dir)
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    let err = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    return RaonProcess.Result(
      status: process.terminationStatus, stdout: "", stderr: String(decoding: err, as: UTF8.self))
  }

  // MARK: - Finding 4

  /// Finding 4: a FIFO as `--db` hung every command forever (opening it waits for a
  /// writer). Now each says, in one line, that it is a FIFO, before recording anything.
  @Test func aFIFOAsTheStoreIsNamedAndNothingHangs() throws {
    let dir = try Self.folderWithStore("raon-hostile-fifo")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("fifo").path
    try #require(mkfifo(fifo, 0o644) == 0)
    let commands: [[String]] = [
      ["snapshots"], ["snapshots", "show", "1"], ["snapshots", "delete", "1"], ["diff", "1", "2"],
      ["snapshot", "catalog.csv", "--taken-at", "2024-09-16"],
      ["report", "--input", "catalog.csv", "--taken-at", "2024-09-16", "--out", "out"],
      ["report", "--out", "out"], ["trend", "--out", "trend"],
    ]
    for command in commands {
      guard let run = try Self.run(command + ["--db", fifo], in: dir, seconds: 15) else {
        Issue.record("\(command): hung")
        continue
      }
      #expect(run.status == (command[0] == "diff" ? 2 : 1), "\(command): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("FIFO") && Self.lines(run.stderr) == 1, "\(command): \(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("trend").path))
  }

  // MARK: - Finding 5

  /// Finding 5: `raon trend` and a dry-run `raon snapshots delete` created a mistyped
  /// store (and its folders), and turned an empty file into a store. They only read now.
  @Test func trendAndADryRunDeleteCreateNothing() throws {
    let dir = try Self.folderWithStore("raon-hostile-ro")
    defer { try? FileManager.default.removeItem(at: dir) }
    let empty = dir.appendingPathComponent("empty.sqlite")
    try Data().write(to: empty)
    for command in [["trend", "--out", "trend"], ["snapshots", "delete", "1"]] {
      let typo = try RaonProcess.run(command + ["--db", "typo/a/b.sqlite"], in: dir)
      #expect(typo.status == 1 && Self.lines(typo.stderr) == 1, "\(command): \(typo.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("typo").path), "\(command)")
      let onEmpty = try RaonProcess.run(command + ["--db", "empty.sqlite"], in: dir)
      #expect(onEmpty.status == 1, "\(command): \(onEmpty.stderr)")
      let size = try FileManager.default.attributesOfItem(atPath: empty.path)[.size] as? NSNumber
      #expect(size?.intValue == 0, "\(command)")
    }
    let dryRun = try RaonProcess.run(["snapshots", "delete", "1", "--db", "store.sqlite"], in: dir)
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(try Self.snapshotCount(in: dir) == 2)
    let trend = try RaonProcess.run(["trend", "--db", "store.sqlite", "--out", "trend", "--format", "csv"], in: dir)
    #expect(trend.status == 0, "\(trend.stderr)")
  }

  // MARK: - Findings 6 and 7

  /// Finding 6: an empty `--format` (or only commas) meant the default formats; finding
  /// 7: an empty `--out` meant the working directory. Both are usage errors (64) now,
  /// refused before anything is recorded or written.
  /// In-process (``InProcess``).
  @Test func anEmptyFormatOrOutIsAUsageError() async throws {
    let dir = try await Self.folderWithStore("raon-hostile-empty")
    defer { try? FileManager.default.removeItem(at: dir) }
    let report = ["report", "--input", "catalog.csv", "--taken-at", "2024-09-16", "--db", "store.sqlite"]
    let cases: [(arguments: [String], mentions: String)] = [
      (report + ["--format", "", "--out", "out"], "--format"),
      (report + ["--format", ",,", "--out", "out"], "--format"),
      (report + ["--format", " , ", "--out", "out"], "--format"),
      (["diff", "1", "2", "--db", "store.sqlite", "--format", "", "--out", "out"], "--format"),
      (["trend", "--db", "store.sqlite", "--format", "", "--out", "out"], "--format"),
      (report + ["--out", ""], "--out"),
      (report + ["--out", " "], "--out"),
      (["diff", "1", "2", "--db", "store.sqlite", "--out", ""], "--out"),
      (["trend", "--db", "store.sqlite", "--out", ""], "--out"),
    ]
    let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    for c in cases {
      let run = await InProcess.run(c.arguments, in: dir)
      #expect(run.status == 64, "\(c.arguments): \(run)")
      #expect(run.stderr.contains(c.mentions), "\(c.arguments): \(run)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == before, "\(c.arguments)")
    }
    #expect(await InProcess.run(["snapshots", "show", "3", "--db", "store.sqlite"], in: dir).status == 1, "nothing recorded")
  }

  // MARK: - Findings 8 and 9

  /// Finding 8: a NUL byte in raon.toml silently ended the config there, and an escaped
  /// NUL in a list item passed; both are config errors (78) naming the line now.
  @Test func aNULInTheConfigIsRefusedWithItsLine() throws {
    let dir = try Self.folderWithStore("raon-hostile-nul")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (text, line) in [
      ("lang = \"en\"\n\0\nchart_top_n = 999\n", 2), ("lang = \"en\"\nformats = [\"json\\u0000\"]\n", 2),
    ] {
      try Data(text.utf8).write(to: dir.appendingPathComponent("raon.toml"))
      let run = try RaonProcess.run(
        ["report", "--input", "catalog.csv", "--taken-at", "2024-09-16", "--db", "store.sqlite", "--out", "out"],
        in: dir)
      #expect(run.status == 78, "\(text.debugDescription): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("raon.toml:\(line)") && Self.lines(run.stderr) == 1, "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }
    try FileManager.default.removeItem(at: dir.appendingPathComponent("raon.toml"))
    #expect(try Self.snapshotCount(in: dir) == 2)
  }

  /// Finding 9: `--config /dev/null` was "cannot read it as UTF-8 text"; it is an empty
  /// config, like an empty file.
  @Test func devNullIsAnEmptyConfig() throws {
    let dir = try Self.folderWithStore("raon-hostile-devnull")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["snapshots", "--db", "store.sqlite", "--config", "/dev/null"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
  }
}
