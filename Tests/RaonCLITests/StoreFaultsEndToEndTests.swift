import Foundation
import Testing
import TestSupport

/// Issue 27, items 2, 3, 15, 16 and 17, with the real binary: a PostgreSQL connection
/// dropped in mid-operation, a password given as `?password=`, two copies racing into one
/// store, `latest` after a backfill, and read-only commands beside a WAL store.
@Suite(.serialized) struct StoreFaultsEndToEndTests {
  // MARK: - A dropped connection

  /// The backend ended (`pg_terminate_backend`) in mid-recording, mid-report
  /// (`--districts all`) and mid-copy: each ends in one line and exit 1, within seconds
  /// (it used to wait forever), and the store holds only whole snapshots.
  @Test func aDroppedConnectionEndsEveryOperationInOneLine() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-drop")
    defer { try? FileManager.default.removeItem(at: dir) }
    // A role of its own: only this test's connections are ended.
    let role = "r_" + PostgresTestServer.freshSchema().dropFirst(2)
    let rolePassword = "drop-\(UUID().uuidString.prefix(8))"
    try server.psql("CREATE ROLE \(role) LOGIN SUPERUSER PASSWORD '\(rolePassword)'")
    let schema = PostgresTestServer.freshSchema()
    let env = [
      "RAON_DB": "postgresql://\(role)@127.0.0.1:\(server.port)/postgres?schema=\(schema)",
      "PGPASSWORD": rolePassword,
    ]
    let big = dir.appendingPathComponent("big.csv")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/grow_catalog.py").path,
      Fixtures.sampleCSV.path, big.path, "5",
    ])
    #expect(make.status == 0, "\(make.stderr)")
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let versionsBefore = try server.psql("SELECT count(*) FROM \(schema).program_version")

    // Mid-recording: once its transaction holds the writers' lock, and a second more.
    let recording = try Watched(["snapshot", big.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(try Self.waitFor(server, "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND a.usename = '\(role)'", recording))
    Thread.sleep(forTimeInterval: 1)
    try Self.expectEndsInOneLine(recording, after: Self.terminate(server, role), "mid-recording")
    #expect(try server.psql("SELECT string_agg(id::text, ',') FROM \(schema).snapshot") == "1\n")
    Thread.sleep(forTimeInterval: 0.3)  // the server rolls back as it notices
    #expect(try server.psql("SELECT count(*) FROM \(schema).program_version") == versionsBefore)

    // The big file recorded whole, for the readers to be cut in mid-read.
    let second = try RaonProcess.run(["snapshot", big.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(second.status == 0, "\(second.stderr)")
    for (label, args) in [
      ("mid-report", ["report", "--out", "r", "--districts", "all", "--format", "md,csv,json"]),
      ("mid-copy", ["store", "copy", env["RAON_DB"] ?? "", "copy.sqlite"]),
    ] {
      let reader = try Watched(args, in: dir, environment: env)
      // As soon as it pages through a snapshot's programs (a cursor's FETCH).
      #expect(try Self.waitFor(server, "SELECT count(*) FROM pg_stat_activity WHERE usename = '\(role)' AND query LIKE 'FETCH%'", reader), "\(label)")
      try Self.expectEndsInOneLine(reader, after: Self.terminate(server, role), label)
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path))
    if FileManager.default.fileExists(atPath: dir.appendingPathComponent("copy.sqlite").path) {
      let copied = try RaonProcess.run(["snapshots", "--json", "--db", "copy.sqlite"], in: dir)
      #expect(copied.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(copied.stdout) \(copied.stderr)")
    }
    // Whole snapshots only: each one's count is what its intervals hold.
    let counts = try server.psql(
      """
      SELECT string_agg(s.id || ':' || s.program_count || ':' ||
        (SELECT coalesce(sum(p.copies), 0) FROM \(schema).presence p
         WHERE p.first_snapshot_id <= s.id AND p.last_snapshot_id >= s.id), ',' ORDER BY s.id)
      FROM \(schema).snapshot s
      """)
    #expect(counts == "1:4998:4998,2:24990:24990\n", "\(counts)")
    let after = try RaonProcess.run(["report", "--out", "r", "--format", "json"], in: dir, environment: env)
    #expect(after.status == 0, "\(after.stderr)")
  }

  /// Ends every connection of `role`; returns when.
  static func terminate(_ server: PostgresTestServer, _ role: String) throws -> Date {
    try server.psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '\(role)'")
    return Date()
  }

  /// Polls `sql` (a count) until it is not 0 while `process` runs; `false` if it ended first.
  static func waitFor(_ server: PostgresTestServer, _ sql: String, _ process: Watched) throws -> Bool {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, process.isRunning {
      if try server.psql(sql) != "0\n" { return process.isRunning }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  /// The process ends within 30 s of `killed` (it used to wait forever; a recording first
  /// lets its reader finish the chunk in hand, seconds in a debug build on a busy machine),
  /// with exit 1 and one line naming the store and the closed connection.
  static func expectEndsInOneLine(_ process: Watched, after killed: Date, _ label: String) throws {
    guard let result = process.wait(until: killed.addingTimeInterval(30)) else {
      Issue.record("\(label): raon still ran 30 s after its connection was ended")
      return
    }
    #expect(result.status == 1, "\(label): exit \(result.status): \(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(label): \(result.stderr)")
    #expect(result.stderr.contains("postgresql://"), "\(label): \(result.stderr)")
    #expect(
      result.stderr.contains("57P01") || result.stderr.contains("connection to the server was closed"),
      "\(label): \(result.stderr)")
  }

  // MARK: - ?password=

  /// `?password=` (alone or with `?user=`), through `--db`, `RAON_DB` and `raon.toml`,
  /// in snapshot, report, snapshots and store copy: used as the password, never printed.
  @Test func aPasswordGivenAsAParameterIsUsedAndNeverPrinted() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-param")
    let configDir = try Fixtures.temporaryDirectory("raon-pg-param-config")
    defer {
      try? FileManager.default.removeItem(at: dir)
      try? FileManager.default.removeItem(at: configDir)
    }
    let password = PostgresTestServer.password
    let schema = PostgresTestServer.freshSchema()
    let plain = "postgresql://postgres@127.0.0.1:\(server.port)/postgres?schema=\(schema)&password=\(password)"
    let both = "postgresql://127.0.0.1:\(server.port)/postgres?user=postgres&password=\(password)&schema=\(schema)"
    let config = configDir.appendingPathComponent("raon.toml")
    try "db = \"\(both)\"\n".write(to: config, atomically: true, encoding: .utf8)
    var texts: [String: String] = [:]
    // The status each run ends with: 0, 1 (the server refuses), 64 (a malformed URL).
    let runs: [(args: [String], env: [String: String], status: Int32)] = [
      (["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02", "--db", plain], [:], 0),
      (["snapshots"], ["RAON_DB": plain], 0),
      (["snapshots"], ["RAON_DB": both], 0),
      (["report", "--out", "r", "--format", "json", "--config", config.path], [:], 0),
      (["store", "copy", plain, "copy.sqlite"], [:], 0),
      (["snapshots"], ["RAON_DB": plain.replacingOccurrences(of: "password=", with: "password=x")], 1),
      (["snapshots"], ["RAON_DB": plain + "&passwd=\(password)"], 64),
      (["snapshots"], ["RAON_DB": plain.replacingOccurrences(of: ":\(server.port)", with: ":1")], 1),
    ]
    for (i, run) in runs.enumerated() {
      let result = try RaonProcess.run(run.args, in: dir, environment: run.env)
      if run.status == 0 {
        #expect(result.status == 0, "\(i) \(run.args.prefix(2)): \(result.stderr)")
      } else {
        #expect(result.status == run.status && result.stderr.split(separator: "\n").count == 1, "\(i): \(result.stderr)")
      }
      texts["\(i) stdout"] = result.stdout
      texts["\(i) stderr"] = result.stderr
    }
    #expect(texts["1 stdout"]?.contains("2024") == true, "\(texts["1 stdout"] ?? "")")
    #expect(texts.values.contains { $0.contains("password authentication failed") })
    #expect(TestInspection.leaks(of: password, in: [dir], texts: texts).isEmpty)
  }

  // MARK: - Two copies into one empty store

  /// Two `raon store copy` into one empty PostgreSQL store, let go at once: the
  /// loser said the winner's verified copy "differs from its source"; now it says another
  /// copy won, and the target holds that copy.
  @Test func theLoserOfTwoCopiesSaysAnotherCopyWon() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-copies")
    defer { try? FileManager.default.removeItem(at: dir) }
    // Small catalogs (the sample's first 300 and 280 programs): the winner's copy must end
    // well within the loser's 10 s wait for the lock, even on a busy machine.
    let cut = try Python.run([
      "-c",
      """
      import csv, io, sys
      raw = open(sys.argv[1], 'rb').read()
      rows = list(csv.reader(io.StringIO(raw.decode('cp949', errors='replace'), newline='')))
      for name, n in (('a300.csv', 300), ('a280.csv', 280)):
          with open(sys.argv[2] + '/' + name, 'w', encoding='utf-8', newline='') as f:
              csv.writer(f, lineterminator='\\r\\n').writerows(rows[:n + 1])
      """,
      Fixtures.sampleCSV.path, dir.path,
    ])
    #expect(cut.status == 0, "\(cut.stderr)")
    for args in [
      ["snapshot", "a300.csv", "--taken-at", "2024-09-02", "--db", "a.sqlite"],
      ["snapshot", "a280.csv", "--taken-at", "2024-09-09", "--db", "a.sqlite"],
    ] {
      let run = try RaonProcess.run(args, in: dir)
      #expect(run.status == 0, "\(run.stderr)")
    }
    let schema = PostgresTestServer.freshSchema()
    let url = server.url(schema: schema)
    // The empty store made first (its schema), then its writers' lock held by another
    // session, so that both copies find it empty and wait for the lock together.
    let made = try RaonProcess.run(["snapshots", "delete", "1", "--yes", "--db", url], in: dir, environment: server.environment)
    #expect(made.status == 1, "\(made.stderr)")
    let holder = Process()
    holder.executableURL = server.binaries.appendingPathComponent("psql")
    holder.arguments = [
      "-h", "127.0.0.1", "-p", String(server.port), "-U", "postgres", "-d", "postgres", "-At", "-c",
      "SELECT pg_advisory_lock(\(0x5241_4F4E), hashtext('\(schema)')); SELECT pg_sleep(3)",
    ]
    holder.environment = server.environment
    holder.standardOutput = FileHandle.nullDevice
    try holder.run()
    Thread.sleep(forTimeInterval: 0.5)
    let copies = try (0..<2).map { _ in try Watched(["store", "copy", "a.sqlite", url], in: dir, environment: server.environment) }
    holder.waitUntilExit()
    let results = copies.compactMap { $0.wait(until: Date().addingTimeInterval(60)) }
    #expect(results.count == 2)
    let won = results.filter { $0.status == 0 }
    let lost = results.filter { $0.status != 0 }
    #expect(won.count == 1 && lost.count == 1, "\(results.map(\.stderr))")
    for loser in lost {
      #expect(loser.status == 1 && loser.stderr.split(separator: "\n").count == 1, "\(loser.stderr)")
      #expect(loser.stderr.contains("another copy") && !loser.stderr.contains("differs"), "\(loser.stderr)")
      // The checked history it names is the winner's.
      if let winner = won.first, let sha = winner.stdout.split(separator: " ").last {
        #expect(loser.stderr.contains(sha.trimmingCharacters(in: .whitespacesAndNewlines)), "\(loser.stderr)")
      }
    }
    let list = try RaonProcess.run(["snapshots", "--json", "--db", url], in: dir, environment: server.environment)
    let source = try RaonProcess.run(["snapshots", "--json", "--db", "a.sqlite"], in: dir)
    #expect(list.stdout == source.stdout && !list.stdout.isEmpty)
  }

  // MARK: - Latest by time

  /// After backfilling a snapshot taken 2025-08-10 into a store whose newest is
  /// 2025-08-18, `latest` (and a report's default) was the backfill (the highest id), week
  /// 32; now it is the newest by `taken_at`, week 34, in both stores.
  @Test(arguments: ["sqlite", "postgresql"])
  func latestIsTheSnapshotTakenLast(_ kind: String) throws {
    var env: [String: String] = ["RAON_DB": "store.sqlite"]
    if kind == "postgresql" {
      guard let server = PostgresTestServer.available() else { return }
      env = server.environment
      env["RAON_DB"] = server.url()
    }
    let dir = try Fixtures.temporaryDirectory("raon-latest")
    defer { try? FileManager.default.removeItem(at: dir) }
    for args in [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2025-08-18"],
      ["snapshot", try SampleShapes.url("cut-at-boundary.csv").path, "--taken-at", "2025-08-10", "--allow-shrink"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    let report = try RaonProcess.run(["report", "--format", "json", "--out", "r"], in: dir, environment: env)
    #expect(report.status == 0, "\(report.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("r/report.json"))) as? [String: Any]
    let snapshot = json?["snapshot"] as? [String: Any]
    let compared = json?["compareTo"] as? [String: Any]
    #expect(snapshot?["id"] as? Int == 1, "\(snapshot ?? [:])")
    #expect(compared?["id"] as? Int == 2, "\(compared ?? [:])")
    let latest = try RaonProcess.run(["report", "--snapshot", "latest", "--format", "json", "--out", "l"], in: dir, environment: env)
    #expect(latest.status == 0, "\(latest.stderr)")
    #expect(latest.stdout.contains("2025-W34") || FileManager.default.fileExists(atPath: dir.appendingPathComponent("l/report.json").path))
    let latestJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("l/report.json"))) as? [String: Any]
    #expect((latestJSON?["snapshot"] as? [String: Any])?["id"] as? Int == 1)
    let diff = try RaonProcess.run(["diff", "previous", "latest", "--format", "json", "--out", "d"], in: dir, environment: env)
    #expect(diff.status == 0 && diff.stdout.contains("snapshot 2 → 1"), "\(diff.stdout) \(diff.stderr)")
    let help = try RaonProcess.run(["report", "--help"], in: dir)
    #expect(help.stdout.contains("taken last"), "\(help.stdout)")
  }

  // MARK: - Read-only commands beside a WAL store

  /// `raon snapshots`, `raon diff` and a dry-run delete left `-wal` and `-shm`
  /// files beside a WAL store that had none; the README says read-only commands create no
  /// file.
  @Test func readOnlyCommandsLeaveNoFileBesideAWALStore() throws {
    let dir = try Fixtures.temporaryDirectory("raon-ro-wal")
    defer { try? FileManager.default.removeItem(at: dir) }
    for args in [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02", "--db", "s.sqlite"],
      ["snapshot", try SampleShapes.url("cut-at-boundary.csv").path, "--taken-at", "2024-09-09", "--allow-shrink", "--db", "s.sqlite"],
    ] {
      let run = try RaonProcess.run(args, in: dir)
      #expect(run.status == 0, "\(run.stderr)")
    }
    // As a store is left when its last writer closed cleanly: WAL mode, no log files.
    let mode = try Python.run([
      "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA journal_mode').fetchone()[0]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()",
      dir.appendingPathComponent("s.sqlite").path,
    ])
    #expect(mode.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "wal", "\(mode.stdout) \(mode.stderr)")
    let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(before == ["s.sqlite"], "\(before)")
    let bytes = try Data(contentsOf: dir.appendingPathComponent("s.sqlite"))
    for args in [
      ["snapshots"], ["snapshots", "--json"], ["snapshots", "show", "2"], ["diff", "1", "2", "--format", "none"],
      ["snapshots", "delete", "1"], ["trend", "--format", "none"],
    ] {
      let run = try RaonProcess.run(args + ["--db", "s.sqlite"], in: dir)
      #expect(run.status == 0, "\(args): \(run.stderr)")
      let now = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
      #expect(now == before, "\(args) left \(now)")
    }
    #expect(try Data(contentsOf: dir.appendingPathComponent("s.sqlite")) == bytes)
    // Beside a writer that holds the store open, its log files stay (it needs them).
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    holder.arguments = [
      "python3", "-c",
      "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM snapshot').fetchone(); print('open', flush=True); time.sleep(60)",
      dir.appendingPathComponent("s.sqlite").path,
    ]
    let opened = Pipe()
    holder.standardOutput = opened
    try holder.run()
    _ = opened.fileHandleForReading.availableData  // "open": it holds the store now
    let beside = try RaonProcess.run(["snapshots", "--db", "s.sqlite"], in: dir)
    #expect(beside.status == 0, "\(beside.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.sqlite-shm").path))
    holder.terminate()
    holder.waitUntilExit()
  }
}

/// A `raon` process whose output is read while it runs, waited for with a deadline.
final class Watched: @unchecked Sendable {
  let process: Process
  private let lock = NSLock()
  private var out = Data()
  private var err = Data()
  private let group = DispatchGroup()

  init(_ arguments: [String], in directory: URL, environment: [String: String]) throws {
    process = try RaonProcess.start(arguments, in: directory, environment: environment)
    for (pipe, isOut) in [(process.standardOutput as? Pipe, true), (process.standardError as? Pipe, false)] {
      guard let pipe else { continue }
      group.enter()
      DispatchQueue.global().async {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        self.lock.withLock { if isOut { self.out = data } else { self.err = data } }
        self.group.leave()
      }
    }
  }

  var isRunning: Bool { process.isRunning }

  /// The result, or `nil` (and the process killed) when it still runs at `deadline`.
  func wait(until deadline: Date) -> RaonProcess.Result? {
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    group.wait()
    return lock.withLock {
      RaonProcess.Result(
        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self))
    }
  }
}
