import Foundation
import TestSupport
import Testing

/// End-to-end behaviour of the commands: help, errors, snapshots, diff, kills.
@Suite(.serialized) struct CommandLineEndToEndTests {
  @Test(arguments: ["report", "snapshot", "snapshots", "diff"])
  func everyCommandsHelpDescribesItWithAnExample(command: String) async throws {
    let dir = try Fixtures.temporaryDirectory("raon-help")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = await InProcess.run([command, "--help"], in: dir)
    #expect(run.status == 0)
    #expect(run.help.contains("Example"))
    #expect(run.help.contains("raon \(command)"))
  }

  @Test func topLevelHelpListsEveryCommand() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-help")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = await InProcess.run(["--help"], in: dir)
    #expect(run.status == 0)
    for command in ["report", "snapshot", "snapshots", "diff"] {
      #expect(run.help.contains(command))
    }
  }

  /// Each bad input ends with a non-zero status and one line naming it, and loses nothing
  /// stored. In-process (``InProcess``); the binary's one line on standard error is
  /// ``ExitStatusTests/theBinaryExitsWithTheStatusAndPrintsOneLine()``'s.
  @Test func badInputGivesAOneLineErrorAndANonZeroStatus() async throws {
    let dir = try await InProcess.folderWithSample("raon-errors")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let notCatalog = dir.appendingPathComponent("not-a-catalog.csv")
    try Data("name,age\nkim,3\n".utf8).write(to: notCatalog)
    let readOnly = dir.appendingPathComponent("readonly")
    try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: readOnly.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: readOnly.path) }

    let cases: [(args: [String], mentions: String)] = [
      (["snapshot", "missing.csv"], "missing.csv"),
      (["snapshot", notCatalog.path], "not-a-catalog.csv"),
      (["report", "--snapshot", "99"], "99"),
      (["report", "--week", "2024-W99"], "2024-W99"),
      (["report", "--week", "2020-W01"], "2020-W01"),
      (["report", "--format", "docx"], "docx"),
      (["diff", "1", "42"], "42"),
      (["snapshot", "--api"], "SEOUL_API_KEY"),
    ]
    for c in cases {
      let run = await InProcess.run(c.args, in: dir, environment: env)
      #expect(run.status != 0, "\(c.args) should fail")
      #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains(c.mentions), "\(c.args): \(run)")
    }
    // Root ignores permissions, so only check the unwritable output when they apply.
    if getuid() != 0 {
      let run = await InProcess.run(["report", "--out", readOnly.path + "/r"], in: dir, environment: env)
      #expect(run.status != 0)
      #expect(run.stderr.contains("readonly"))
    }
    // Nothing stored was lost, nothing recorded: still exactly the one sample snapshot.
    #expect(await InProcess.run(["snapshots", "show", "1"], in: dir, environment: env).status == 0)
    let second = await InProcess.run(["snapshots", "show", "2"], in: dir, environment: env)
    #expect(second.status == 1 && second.stderr.contains("no snapshot 2"), "\(second)")
  }

  @Test func snapshotsListsWhatWasRecordedAsJSONAndAsATable() throws {
    let dir = try Fixtures.temporaryDirectory("raon-snapshots")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let rec = try RaonProcess.run(
      [
        "snapshot", Fixtures.sampleCSV.path, Fixtures.sampleCSV.path, "--taken-at", "2024-09-09T10:00:00+09:00",
        "--taken-at", "2024-09-09T11:00:00+09:00",
      ],
      in: dir, environment: env)
    #expect(rec.status == 0, "\(rec.stderr)")
    let list = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
    let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(items.map { ($0["id"] as? NSNumber)?.intValue } == [1, 2])
    #expect(items.allSatisfy { ($0["programCount"] as? NSNumber)?.intValue == 4998 })
    #expect(items.map { $0["takenAt"] as? String } == ["2024-09-09T01:00:00Z", "2024-09-09T02:00:00Z"])
    #expect(items.allSatisfy { Set($0.keys).isSuperset(of: ["id", "takenAt", "source", "programCount"]) })
    let table = try RaonProcess.run(["snapshots"], in: dir, environment: env)
    #expect(table.stdout.contains("2024-09-09 10:00 KST"))
  }

  @Test func diffPrintsASummaryAndFailIfChangedSetsTheExitStatus() throws {
    let dir = try Fixtures.temporaryDirectory("raon-diff")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let modified = dir.appendingPathComponent("modified.csv")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, modified.path,
    ])
    #expect(make.status == 0)
    let rec = try RaonProcess.run(
      [
        "snapshot", Fixtures.sampleCSV.path, Fixtures.sampleCSV.path, modified.path,
        "--taken-at", "2024-09-02", "--taken-at", "2024-09-09", "--taken-at", "2024-09-16",
      ], in: dir, environment: env)
    #expect(rec.status == 0, "\(rec.stderr)")

    let same = try RaonProcess.run(["diff", "1", "2", "--format", "none", "--fail-if-changed"], in: dir, environment: env)
    #expect(same.status == 0)
    #expect(same.stdout.contains("0 added, 0 removed, 0 changed"))

    let changed = try RaonProcess.run(["diff", "2", "3", "--fail-if-changed", "--out", "d"], in: dir, environment: env)
    #expect(changed.status == 1)
    #expect(changed.stdout.contains("3 added, 5 removed, 4 changed"))
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("d/csv/changes.csv").path))
  }

  /// SIGKILL while a large file is being recorded: the store stays sound, holds no
  /// partial snapshot, and the next run succeeds.
  @Test func killingASnapshotMidwayLeavesTheStoreSoundAndNoPartialSnapshot() throws {
    let dir = try Fixtures.temporaryDirectory("raon-kill")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let big = dir.appendingPathComponent("big.csv")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/grow_catalog.py").path,
      Fixtures.sampleCSV.path, big.path, "20",
    ])
    #expect(make.status == 0, "\(make.stderr)")
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path], in: dir, environment: env)
    #expect(first.status == 0)

    for delay in [0.3, 1.0, 2.0] {
      let process = try RaonProcess.start(["snapshot", big.path], in: dir, environment: env)
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let check = try Python.run([
        "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('pragma integrity_check').fetchone()[0]); print(';'.join(str(r[0]) for r in c.execute('select program_count from snapshot order by id')))",
        dir.appendingPathComponent("store.sqlite").path,
      ])
      let lines = check.stdout.split(separator: "\n")
      #expect(lines.first == "ok", "\(check.stdout) \(check.stderr)")
      // Every recorded snapshot is whole: the sample (4,998) or the grown file (20×).
      let counts = lines.count > 1 ? lines[1].split(separator: ";").compactMap { Int($0) } : []
      #expect(counts.first == 4998)
      #expect(counts.dropFirst().allSatisfy { $0 == 4998 * 20 }, "partial snapshot: \(counts)")
    }
    let after = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path], in: dir, environment: env)
    #expect(after.status == 0, "\(after.stderr)")
  }

  /// SIGKILL during `raon report`: no partial report folder appears, the earlier report
  /// stays as it was, and the next run cleans up and succeeds.
  @Test func killingAReportMidwayLeavesNoPartialOutputAndKeepsTheEarlierReport() throws {
    let dir = try Fixtures.temporaryDirectory("raon-kill-report")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let first = try RaonProcess.run(["report", "--out", "r"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
    for delay in [0.2, 0.6, 1.2] {
      let process = try RaonProcess.start(["report", "--out", "r", "--lang", "en"], in: dir, environment: env)
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let now = try Data(contentsOf: dir.appendingPathComponent("r/report.json"))
      // Either the old report or a complete new one — never a missing or partial file.
      let files = try FileManager.default.subpathsOfDirectory(atPath: dir.appendingPathComponent("r").path)
      #expect(files.contains("report.xlsx") && files.contains("report.md") && files.contains("csv/programs.csv"))
      #expect(!now.isEmpty)
      _ = before
    }
    let visible = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }
    #expect(Set(visible).isSubset(of: ["r", "store.sqlite", "store.sqlite-wal", "store.sqlite-shm"]))
    let again = try RaonProcess.run(["report", "--out", "r"], in: dir, environment: env)
    #expect(again.status == 0)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("raon-partial") }
    #expect(leftovers.isEmpty)
  }
}
