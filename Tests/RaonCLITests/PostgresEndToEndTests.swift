import Foundation
import Testing
import TestSupport

/// The real `raon` binary on a PostgreSQL store (the private test server on 127.0.0.1),
/// against the same commands on an SQLite file: the same files byte for byte, a history
/// copied both ways, two writer processes and a reader at once, a kill mid-recording, and
/// the password in no output.
@Suite(.serialized) struct PostgresEndToEndTests {
  /// The commands of a two-snapshot history and its reports.
  static let history: [[String]] = [
    ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02"],
  ]

  static func secondCatalog() throws -> String { try SampleShapes.url("cut-at-boundary.csv").path }

  /// Records the two-snapshot history and writes every kind of output into `dir`.
  static func runHistory(in dir: URL, env: [String: String]) throws -> [RaonProcess.Result] {
    var runs: [RaonProcess.Result] = []
    for args in [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02"],
      ["snapshot", try secondCatalog(), "--taken-at", "2024-09-09", "--allow-shrink"],
      ["report", "--out", "report"],
      ["report", "--snapshot", "1", "--compare-to", "none", "--out", "report-1", "--lang", "en"],
      ["diff", "1", "2", "--out", "diff"],
      ["trend", "--out", "trend"],
      ["snapshots", "--json"],
      ["snapshots", "show", "2"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status == 0, "\(args): \(run.stderr)")
      runs.append(run)
    }
    return runs
  }

  /// Every file under `dir`, by relative path.
  static func files(_ dir: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for file in TestInspection.files(under: dir) where !file.path.contains(".sqlite") {
      out[String(file.path.dropFirst(dir.path.count + 1))] = try Data(contentsOf: file)
    }
    return out
  }

  @Test func aHistoryOnPostgreSQLWritesTheSameFilesAsOnSQLite() throws {
    guard let server = PostgresTestServer.available() else { return }
    let sqliteDir = try Fixtures.temporaryDirectory("raon-pg-e2e-sqlite")
    let pgDir = try Fixtures.temporaryDirectory("raon-pg-e2e-pg")
    defer {
      try? FileManager.default.removeItem(at: sqliteDir)
      try? FileManager.default.removeItem(at: pgDir)
    }
    let sqliteRuns = try Self.runHistory(in: sqliteDir, env: ["RAON_DB": "store.sqlite"])
    var pgEnv = server.environment
    pgEnv["RAON_DB"] = server.url()
    let pgRuns = try Self.runHistory(in: pgDir, env: pgEnv)
    // What the commands print, but the folder they ran in.
    for (a, b) in zip(sqliteRuns, pgRuns) {
      #expect(a.stdout.replacingOccurrences(of: sqliteDir.path, with: "DIR") == b.stdout.replacingOccurrences(of: pgDir.path, with: "DIR"))
    }
    let expected = try Self.files(sqliteDir)
    let got = try Self.files(pgDir)
    #expect(expected.count > 20)
    #expect(Set(got.keys) == Set(expected.keys))
    for (name, data) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(got[name] == data, "\(name) differs between SQLite and PostgreSQL")
    }
  }

  @Test func storeCopyTakesAHistoryToPostgreSQLAndBack() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-copy")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = server.environment
    for args in [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02", "--db", "a.sqlite"],
      ["snapshot", try Self.secondCatalog(), "--taken-at", "2024-09-09", "--allow-shrink", "--db", "a.sqlite"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    let url = server.url()
    let there = try RaonProcess.run(["store", "copy", "a.sqlite", url], in: dir, environment: env)
    #expect(there.status == 0, "\(there.stderr)")
    #expect(there.stdout.contains("copied 2 snapshots"), "\(there.stdout)")
    let back = try RaonProcess.run(["store", "copy", url, "sqlite:b.sqlite"], in: dir, environment: env)
    #expect(back.status == 0, "\(back.stderr)")
    let digest = { (text: String) in text.split(separator: " ").last.map(String.init) }
    #expect(digest(there.stdout) == digest(back.stdout) && digest(there.stdout) != nil)
    // The same reports from all three.
    for (db, out) in [("a.sqlite", "ra"), (url, "rp"), ("b.sqlite", "rb")] {
      let run = try RaonProcess.run(["report", "--db", db, "--out", out, "--format", "json,csv,md"], in: dir, environment: env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    let a = try Self.files(dir.appendingPathComponent("ra"))
    #expect(!a.isEmpty)
    #expect(try Self.files(dir.appendingPathComponent("rp")) == a)
    #expect(try Self.files(dir.appendingPathComponent("rb")) == a)
    // Into a store that already holds snapshots: refused, one line, nothing changed.
    let again = try RaonProcess.run(["store", "copy", "a.sqlite", url], in: dir, environment: env)
    #expect(again.status == 1 && again.stderr.contains("already holds 2 snapshots"), "\(again.stderr)")
    #expect(again.stderr.split(separator: "\n").count == 1)
    // A history with a gap (snapshot 2 deleted) keeps its ids, there and back.
    for args in [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-16", "--db", "a.sqlite", "--allow-shrink"],
      ["snapshots", "delete", "2", "--yes", "--db", "a.sqlite"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status == 0, "\(args): \(run.stderr)")
    }
    let gapURL = server.url()
    for (from, to) in [("a.sqlite", gapURL), (gapURL, "c.sqlite")] {
      let run = try RaonProcess.run(["store", "copy", from, to], in: dir, environment: env)
      #expect(run.status == 0 && run.stdout.contains("copied 2 snapshots"), "\(run.stdout) \(run.stderr)")
    }
    let lists = try ["a.sqlite", gapURL, "c.sqlite"].map { db in
      try RaonProcess.run(["snapshots", "--json", "--db", db], in: dir, environment: env).stdout
    }
    #expect(lists[0].contains("\"id\": 3,") && !lists[0].contains("\"id\": 2,"), "\(lists[0])")
    #expect(lists[1] == lists[0] && lists[2] == lists[0])
    let next = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-23", "--db", gapURL], in: dir, environment: env)
    #expect(next.stdout.contains("recorded snapshot 4:"), "\(next.stdout) \(next.stderr)")
  }

  /// Two `raon snapshot` processes and a `raon report` at once on one PostgreSQL store.
  @Test func twoWriterProcessesAndAReaderAtOnce() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-concurrent")
    defer { try? FileManager.default.removeItem(at: dir) }
    var env = server.environment
    let url = server.url()
    env["RAON_DB"] = url
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let commands = [
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"],
      ["snapshot", try Self.secondCatalog(), Fixtures.sampleCSV.path, "--taken-at", "2024-09-10", "--taken-at", "2024-09-11", "--allow-shrink"],
      ["report", "--out", "r", "--format", "json"],
    ]
    let processes = try commands.map { try RaonProcess.start($0, in: dir, environment: env) }
    for (args, process) in zip(commands, processes) {
      let err = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(args): \(String(decoding: err, as: UTF8.self))")
    }
    let schema = String(url.split(separator: "=").last ?? "")
    let counts = try server.psql(
      """
      SELECT string_agg(s.id || ':' || s.program_count || ':' ||
        (SELECT coalesce(sum(p.copies), 0) FROM \(schema).presence p
         WHERE p.first_snapshot_id <= s.id AND p.last_snapshot_id >= s.id), ',' ORDER BY s.id)
      FROM \(schema).snapshot s
      """)
    let rows = counts.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
    #expect(rows.count == 4, "\(counts)")
    for (i, row) in rows.enumerated() {
      let parts = row.split(separator: ":")
      #expect(parts.count == 3 && parts[0] == "\(i + 1)" && parts[1] == parts[2], "\(counts)")
    }
  }

  /// SIGKILL while a large file is being recorded: the server rolls the transaction back,
  /// no partial snapshot is ever visible, and the next run succeeds with the next id.
  @Test func aKillMidRecordingLeavesNoHalfSnapshot() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-kill")
    defer { try? FileManager.default.removeItem(at: dir) }
    var env = server.environment
    let url = server.url()
    env["RAON_DB"] = url
    let schema = String(url.split(separator: "=").last ?? "")
    let big = dir.appendingPathComponent("big.csv")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/grow_catalog.py").path,
      Fixtures.sampleCSV.path, big.path, "10",
    ])
    #expect(make.status == 0, "\(make.stderr)")
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let versionsBefore = try server.psql("SELECT count(*) FROM \(schema).program_version")
    var sawItWriting = false
    for delay in [0.5, 1.5] {
      let process = try RaonProcess.start(["snapshot", big.path], in: dir, environment: env)
      // Wait until its transaction holds the writers' lock, then a little more.
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline, process.isRunning {
        let locks = try server.psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")
        if locks != "0\n" { sawItWriting = true; break }
        Thread.sleep(forTimeInterval: 0.02)
      }
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let counts = try server.psql(
        "SELECT string_agg(program_count::text, ',' ORDER BY id) FROM \(schema).snapshot")
      let all = counts.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
      #expect(all.first == "4998" && all.dropFirst().allSatisfy { $0 == "\(4998 * 10)" }, "partial snapshot: \(counts)")
      if all.count == 1 {
        // Rolled back whole: not one version of the big file stayed.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try server.psql("SELECT count(*) FROM \(schema).program_version") == versionsBefore)
      }
    }
    #expect(sawItWriting)
    let after = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-16"], in: dir, environment: env)
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout.contains("recorded snapshot 2:") || after.stdout.contains("recorded snapshot 3:"), "\(after.stdout)")
  }

  /// The password in the URL, in `PGPASSWORD` or wrong: in no output, message or file.
  @Test func thePasswordAppearsNowhere() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-pg-secret")
    defer { try? FileManager.default.removeItem(at: dir) }
    let password = PostgresTestServer.password
    let withPassword = server.urlWithPassword()
    var texts: [String: String] = [:]
    let runs: [([String], [String: String])] = [
      (["report", "--out", "r"], ["RAON_DB": withPassword]),
      (["snapshots"], ["RAON_DB": withPassword]),
      (["snapshots", "show", "9"], ["RAON_DB": withPassword]),
      (["diff", "1", "7"], ["RAON_DB": withPassword]),
      (["report", "--db", withPassword, "--snapshot", "5"], [:]),
      (["snapshots"], ["RAON_DB": withPassword.replacingOccurrences(of: password, with: password + "x")]),
      (["snapshots"], ["RAON_DB": withPassword.replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "127.0.0.1:1")]),
      (["snapshots"], ["RAON_DB": withPassword + "&bogus=1"]),
      (["store", "copy", withPassword, "copy.sqlite"], [:]),
      (["snapshots"], ["RAON_DB": server.url(), "PGPASSWORD": password + "y"]),
    ]
    for (i, (args, env)) in runs.enumerated() {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      if i == 0 { #expect(run.status == 0, "\(run.stderr)") }
      if run.status != 0 { #expect(run.stderr.split(separator: "\n").count == 1, "\(args): \(run.stderr)") }
      texts["\(args) stdout"] = run.stdout
      texts["\(args) stderr"] = run.stderr
    }
    #expect(texts.values.contains { $0.contains("password authentication failed") })
    #expect(TestInspection.leaks(of: password, in: [dir], texts: texts).isEmpty)
  }
}
