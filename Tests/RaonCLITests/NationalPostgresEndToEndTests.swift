import Foundation
import Testing
import TestSupport

/// The national catalog on a PostgreSQL store (the private test server on 127.0.0.1)
/// against the same commands on an SQLite file (issue 36): a download stored, a later one
/// reported with a pack per 시·도, `diff`, `trend` and `site` write the same files byte for
/// byte, and the store's catalog is the national one on both.
@Suite(.serialized) struct NationalPostgresEndToEndTests {
  /// The history: the shared download, then a later one (renames, edits, sessions) reported
  /// while it is recorded, then every other command that reads it.
  static func runHistory(later: String, in dir: URL, env: [String: String]) throws -> [RaonProcess.Result] {
    var runs: [RaonProcess.Result] = []
    for args in [
      ["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31T09:00:00+09:00"],
      ["report", "--input", later, "--taken-at", "2025-10-01T09:00:00+09:00", "--compare-to", "previous",
       "--regions", "all", "--format", "md,csv,json", "--out", "report"],
      ["diff", "1", "2", "--format", "md,csv,json", "--out", "diff"],
      ["trend", "--format", "md,csv,json", "--out", "trend"],
      ["site", "--format", "html", "--out", "site"],
      ["snapshots", "--json"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status == 0, "\(args): \(run.stderr)")
      runs.append(run)
    }
    return runs
  }

  @Test func aNationalHistoryOnPostgreSQLWritesTheSameFilesAsOnSQLite() throws {
    guard let server = PostgresTestServer.available() else { return }
    let sqliteDir = try Fixtures.temporaryDirectory("raon-pg-national-sqlite")
    let pgDir = try Fixtures.temporaryDirectory("raon-pg-national-pg")
    defer {
      try? FileManager.default.removeItem(at: sqliteDir)
      try? FileManager.default.removeItem(at: pgDir)
    }
    let later = try NationalLaterDownload.write(into: sqliteDir)
    let sqliteRuns = try Self.runHistory(later: later.path, in: sqliteDir, env: ["RAON_DB": "store.sqlite"])
    var pgEnv = server.environment
    pgEnv["RAON_DB"] = server.url(schema: PostgresTestServer.freshSchema())
    let pgRuns = try Self.runHistory(later: later.path, in: pgDir, env: pgEnv)
    for (a, b) in zip(sqliteRuns, pgRuns) {
      #expect(a.stdout.replacingOccurrences(of: sqliteDir.path, with: "DIR") == b.stdout.replacingOccurrences(of: pgDir.path, with: "DIR"))
    }
    let expected = try PostgresEndToEndTests.files(sqliteDir).filter { $0.key != "later.csv" }
    let got = try PostgresEndToEndTests.files(pgDir)
    // A pack per 시·도 and the site's pages: well over a hundred files.
    #expect(expected.keys.contains { $0.hasPrefix("report/regions/") } && expected.count > 100, "\(expected.count)")
    #expect(Set(got.keys) == Set(expected.keys))
    for (name, data) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(got[name] == data, "\(name) differs between SQLite and PostgreSQL")
    }
    let catalog = try RaonProcess.run(["snapshots", "--json"], in: pgDir, environment: pgEnv)
    #expect(catalog.stdout.contains("national"), "\(catalog.stdout)")
  }
}
