import Foundation
import Testing
import TestSupport

/// The history commands through the real binary: per-file times, refusals, the shrink
/// guard, header warnings, spreadsheets, `snapshots show|delete`, Ctrl-C between files.
@Suite(.serialized) struct HistoryEndToEndTests {
  static func place() throws -> (URL, [String: String]) {
    (try Fixtures.temporaryDirectory("raon-history-cli"), ["RAON_DB": "store.sqlite"])
  }

  static func snapshotCount(_ dir: URL) throws -> Int {
    let check = try Python.run([
      "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from snapshot').fetchone()[0])",
      dir.appendingPathComponent("store.sqlite").path,
    ])
    return Int(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  static func oneLine(_ result: RaonProcess.Result) -> Bool {
    result.stderr.split(separator: "\n").filter { !$0.isEmpty }.count == 1
  }

  @Test func severalFilesNeedATimeEach() throws {
    let (dir, env) = try Self.place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let sample = Fixtures.sampleCSV.path
    for args in [
      ["snapshot", sample, sample, "--taken-at", "2024-09-09"],
      ["snapshot", sample, sample],
      ["snapshot", sample, sample, sample, "--taken-at", "2024-09-02", "--taken-at", "2024-09-09"],
      ["snapshot", sample, sample, "--taken-at", "2024-09-09", "--taken-at", "2024-09-09T00:00:00+09:00"],
      ["snapshot", sample, "--taken-at", "2024-09-09 junk"],
      ["snapshot", sample, "--taken-at", "2024-09-09T00:00:00+15:00"],
      ["snapshot", sample, "--taken-at", "2099-01-01"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status != 0 && Self.oneLine(run), "\(args): \(run.stderr)")
    }
    #expect(try Self.snapshotCount(dir) == 0)
    // Dates from the names; the second is the first's content again, and says so.
    let a = dir.appendingPathComponent("catalog-2024-09-02.csv")
    let b = dir.appendingPathComponent("catalog_20240909.csv")
    try FileManager.default.copyItem(at: Fixtures.sampleCSV, to: a)
    try FileManager.default.copyItem(at: Fixtures.sampleCSV, to: b)
    let run = try RaonProcess.run(["snapshot", a.path, b.path, "--taken-at-from-name"], in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains("taken 2024-09-02 00:00 KST") == true && lines.first?.contains("unchanged") == false)
    #expect(lines.last?.contains("taken 2024-09-09 00:00 KST") == true)
    #expect(lines.last?.contains("unchanged since snapshot 1") == true, "\(run.stdout)")
  }

  @Test func aShrunkCatalogIsRefusedUnlessAllowed() throws {
    let (dir, env) = try Self.place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let expected = try SampleShapes.expected()
    let cut = try SampleShapes.url("cut-at-boundary.csv").path
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let current = { (days: ArraySlice<String>) in days.filter { $0.isEmpty || $0 >= "2024-09-16" }.count }
    let before = current(expected.endDays[...])
    let after = current(expected.endDays.prefix(expected.rowsBeforeCut))
    for args in [
      ["snapshot", cut, "--taken-at", "2024-09-16"],
      ["report", "--input", cut, "--taken-at", "2024-09-16", "--out", "r"],
    ] {
      let refused = try RaonProcess.run(args, in: dir, environment: env)
      #expect(refused.status != 0 && Self.oneLine(refused), "\(refused.stderr)")
      #expect(refused.stderr.contains("\(before)") && refused.stderr.contains("\(after)"), "\(refused.stderr)")
      #expect(refused.stderr.contains("--allow-shrink"))
      #expect(try Self.snapshotCount(dir) == 1)
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path))
    let allowed = try RaonProcess.run(
      ["report", "--input", cut, "--taken-at", "2024-09-16", "--allow-shrink", "--out", "r", "--format", "json"],
      in: dir, environment: env)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(try Self.snapshotCount(dir) == 2)
    // A download cut inside a record is refused outright, whatever the options.
    let truncated = try RaonProcess.run(
      ["snapshot", try SampleShapes.url("truncated.csv").path, "--taken-at", "2024-09-17", "--allow-shrink"],
      in: dir, environment: env)
    #expect(truncated.status != 0 && Self.oneLine(truncated) && truncated.stderr.contains("truncated.csv:\(expected.cutLine)"), "\(truncated.stderr)")
  }

  @Test func spreadsheetsAndRelabelledFilesThroughTheBinary() throws {
    let (dir, env) = try Self.place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let expected = try SampleShapes.expected()
    let xlsx = try RaonProcess.run(
      ["snapshot", try SampleShapes.url("sample.xlsx").path, try SampleShapes.url("table.xls").path,
       "--taken-at", "2024-09-09", "--taken-at", "2024-09-10", "--allow-shrink"],
      in: dir, environment: env)
    #expect(xlsx.status == 0 && xlsx.stderr.isEmpty, "\(xlsx.stderr)")
    #expect(xlsx.stdout.contains("\(expected.ids.count) programs from sample.xlsx"))
    #expect(xlsx.stdout.contains("\(expected.smallRows) programs from table.xls"))
    let warned = try RaonProcess.run(
      ["snapshot", try SampleShapes.url("unknown-label.csv").path, "--taken-at", "2024-09-11"], in: dir, environment: env)
    #expect(warned.status == 0)
    #expect(warned.stderr.hasPrefix("warning: unknown-label.csv:1:") && warned.stderr.contains("좌표값1") && Self.oneLine(warned), "\(warned.stderr)")
    for name in ["binary.xls", "photos.zip"] {
      let refused = try RaonProcess.run(["snapshot", try SampleShapes.url(name).path], in: dir, environment: env)
      #expect(refused.status != 0 && Self.oneLine(refused) && refused.stderr.contains(".xlsx or CSV"), "\(refused.stderr)")
      #expect(!refused.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
  }

  @Test func showAndDeleteASnapshot() throws {
    let (dir, env) = try Self.place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let expected = try SampleShapes.expected()
    let relabelled = try SampleShapes.url("relabelled.csv").path
    let rec = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, relabelled, Fixtures.sampleCSV.path,
       "--taken-at", "2024-09-02", "--taken-at", "2024-09-09", "--taken-at", "2024-09-16"],
      in: dir, environment: env)
    #expect(rec.status == 0, "\(rec.stderr)")
    let show = try RaonProcess.run(["snapshots", "show", "1", "--json"], in: dir, environment: env)
    #expect(show.status == 0, "\(show.stderr)")
    let details = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(details["inputSha256"] as? String == expected.sampleSHA256)
    #expect((details["programCount"] as? NSNumber)?.intValue == expected.ids.count)
    let sets = details["fieldSets"] as? [[String: Any]] ?? []
    #expect(sets.first?["names"] as? [String] == expected.header)
    let text = try RaonProcess.run(["snapshots", "show", "2"], in: dir, environment: env)
    #expect(text.stdout.contains("relabelled.csv") && text.stdout.contains("번호"), "\(text.stdout)")

    let dry = try RaonProcess.run(["snapshots", "delete", "2"], in: dir, environment: env)
    #expect(dry.status == 0 && dry.stdout.contains("would delete snapshot 2") && dry.stdout.contains("--yes"), "\(dry.stdout)")
    #expect(dry.stdout.contains("\(expected.ids.count) program versions"))
    #expect(try Self.snapshotCount(dir) == 3)
    let yes = try RaonProcess.run(["snapshots", "delete", "2", "--yes"], in: dir, environment: env)
    #expect(yes.status == 0 && yes.stdout.hasPrefix("deleted snapshot 2"), "\(yes.stdout) \(yes.stderr)")
    #expect(try Self.snapshotCount(dir) == 2)
    let list = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
    let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(items.map { ($0["id"] as? NSNumber)?.intValue } == [1, 3])
    // The next report compares across the gap: 3 with 1, nothing changed.
    let report = try RaonProcess.run(["report", "--format", "json", "--out", "r"], in: dir, environment: env)
    #expect(report.status == 0, "\(report.stderr)")
    #expect(report.stdout.contains("compared with snapshot 1: 0 added, 0 removed, 0 changed"), "\(report.stdout)")
    let missing = try RaonProcess.run(["snapshots", "delete", "2", "--yes"], in: dir, environment: env)
    #expect(missing.status != 0 && Self.oneLine(missing) && missing.stderr.contains("no snapshot 2"), "\(missing.stderr)")
  }

  /// Ctrl-C while several files are being recorded: none of them is.
  @Test func anInterruptBetweenFilesRecordsNone() throws {
    let (dir, env) = try Self.place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let big = dir.appendingPathComponent("big.csv")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/grow_catalog.py").path,
      Fixtures.sampleCSV.path, big.path, "12",
    ])
    #expect(make.status == 0, "\(make.stderr)")
    for delay in [1.0, 2.5] {
      let process = try RaonProcess.start(
        ["snapshot", Fixtures.sampleCSV.path, Fixtures.sampleCSV.path, big.path,
         "--taken-at", "2024-09-02", "--taken-at", "2024-09-09", "--taken-at", "2024-09-16"],
        in: dir, environment: env)
      Thread.sleep(forTimeInterval: delay)
      let wasRunning = process.isRunning
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      #expect(process.terminationStatus != 0 || !wasRunning)
      if wasRunning { #expect(try Self.snapshotCount(dir) == 0, "after \(delay) s") }
    }
  }
}
