import Foundation
import TestSupport
import Testing

/// Every exit status `raon --help` documents, for each kind of error that calls for it: 64
/// for a command given wrongly (each usage error of the jobs too), 78 for a wrong config
/// file whichever command reads it, 1 for a failure, 2 for a failure of `raon diff`. Each
/// error is one line naming what went wrong.
///
/// The cases run in-process (``InProcess``: parsed, run and ended as the binary's entry
/// ends them); one case of each status runs the real binary, whose exit status and standard
/// error are the process's own.
@Suite struct ExitStatusTests {
  struct Case: Sendable, CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    /// Words the one line on standard error holds.
    var mentions: String
    var environment: [String: String] = [:]
    var config: String?

    var description: String { arguments.joined(separator: " ") }
  }

  /// A folder whose store holds the sample, recorded as snapshot 1 (2024-09-09).
  static func folder() async throws -> URL {
    let dir = try await InProcess.folderWithSample("raon-exit")
    try Data("name,age\nkim,3\n".utf8).write(to: dir.appendingPathComponent("not-a-catalog.csv"))
    return dir
  }

  static func check(_ cases: [Case]) async throws {
    let dir = try await folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    for c in cases {
      let config = dir.appendingPathComponent("raon.toml")
      try? FileManager.default.removeItem(at: config)
      if let text = c.config { try Data(text.utf8).write(to: config) }
      let environment = ["RAON_DB": "store.sqlite"].merging(c.environment) { $1 }
      let run = await InProcess.run(c.arguments, in: dir, environment: environment)
      #expect(run.status == c.status, "\(c): \(run)")
      #expect(run.stderr.contains(c.mentions), "\(c): \(run)")
    }
  }

  /// The real binary: its exit status and its one line on standard error, for a case of
  /// each status (a usage error of the parser and of a job, a config error, a failure, a
  /// failure of diff).
  @Test func theBinaryExitsWithTheStatusAndPrintsOneLine() throws {
    let dir = try Fixtures.temporaryDirectory("raon-exit-binary")
    defer { try? FileManager.default.removeItem(at: dir) }
    let environment = ["RAON_DB": "store.sqlite"]
    let recorded = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir, environment: environment)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    try Data("lang = \"fr\"\n".utf8).write(to: dir.appendingPathComponent("bad.toml"))
    let cases = [
      Case(arguments: ["report", "--bogus"], status: 64, mentions: "--bogus"),
      Case(arguments: ["report", "--snapshot", "abc"], status: 64, mentions: "'abc' is not a snapshot"),
      Case(arguments: ["snapshots", "--config", "bad.toml"], status: 78, mentions: "bad.toml:1: lang"),
      Case(arguments: ["snapshots", "show", "99"], status: 1, mentions: "no snapshot 99"),
      Case(arguments: ["diff", "1", "99"], status: 2, mentions: "99"),
    ]
    for c in cases {
      let run = try RaonProcess.run(c.arguments, in: dir, environment: environment)
      #expect(run.status == c.status, "\(c): \(run.status) \(run.stderr)")
      #expect(run.stdout.isEmpty, "\(c): \(run.stdout)")
      let lines = run.stderr.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      #expect(lines.count == 1 && lines[0].hasPrefix("Error: "), "\(c): \(run.stderr)")
      #expect(run.stderr.contains(c.mentions), "\(c): \(run.stderr)")
    }
  }

  static let badPostgresURL = "postgresql://raon@127.0.0.1:1/culture?bogus=1"

  /// 64: every usage error of the jobs (a wrong reference, week, time, format, district, …)
  /// and of the command line (a bad id, an empty --format).
  @Test func usageErrorsExit64() async throws {
    try await Self.check([
      Case(arguments: ["report", "--snapshot", "abc"], status: 64, mentions: "'abc' is not a snapshot"),
      Case(arguments: ["report", "--compare-to", "abc"], status: 64, mentions: "'abc' is not something to compare to"),
      Case(arguments: ["report", "--snapshot", "1", "--compare-to", "1"], status: 64, mentions: "compared with itself"),
      Case(arguments: ["report", "--week", "2024-37"], status: 64, mentions: "not an ISO week"),
      Case(arguments: ["report", "--format", "docx"], status: 64, mentions: "'docx' is not a report format"),
      Case(arguments: ["report", "--district", "없는구"], status: 64, mentions: "25 districts"),
      Case(arguments: ["snapshots", "--db", ""], status: 64, mentions: "--db is empty"),
      Case(arguments: ["snapshot", "a.csv", "--taken-at", "yesterday"], status: 64, mentions: "'yesterday' is not a time"),
      Case(arguments: ["snapshot", "a.csv", "--taken-at", "2099-01-01"], status: 64, mentions: "in the future"),
      Case(arguments: ["snapshot", "a.csv", "b.csv", "--taken-at", "2024-09-01"], status: 64, mentions: "one time"),
      Case(
        arguments: ["snapshot", "a.csv", "b.csv", "c.csv", "--taken-at", "2024-09-01", "--taken-at", "2024-09-02"],
        status: 64, mentions: "3 files but 2 --taken-at values"),
      Case(
        arguments: ["snapshot", "a.csv", "b.csv", "--taken-at", "2024-09-01", "--taken-at", "2024-09-01"],
        status: 64, mentions: "would both be taken at"),
      Case(arguments: ["snapshot", "undated.csv", "--taken-at-from-name"], status: 64, mentions: "no date"),
      Case(
        arguments: ["snapshot", "--api", "--api-base", "ftp://example"], status: 64, mentions: "not an http(s) URL",
        environment: ["SEOUL_API_KEY": "test-key"]),
      Case(arguments: ["snapshots", "show", "0"], status: 64, mentions: "positive integer"),
      Case(arguments: ["report", "--bogus"], status: 64, mentions: "--bogus"),
      // An empty --format is refused by every command that writes files (site took the defaults).
      Case(arguments: ["site", "--db", "none.sqlite", "--format", ""], status: 64, mentions: "--format"),
      Case(arguments: ["trend", "--format", ",", "--out", "t"], status: 64, mentions: "--format"),
      Case(arguments: ["snapshots", "--db", Self.badPostgresURL], status: 64, mentions: "bogus"),
      Case(arguments: ["store", "copy", "store.sqlite", "store.sqlite"], status: 64, mentions: "the same store"),
      Case(arguments: ["diff", "1", "1", "--db", Self.badPostgresURL], status: 64, mentions: "bogus"),
      // A URL of a database Raon does not know is not a file path (issue 37).
      Case(arguments: ["snapshots", "--db", "postgresq://raon@127.0.0.1/culture"], status: 64, mentions: "'postgresq://'"),
      Case(arguments: ["report", "--db", "mysql://x/y"], status: 64, mentions: "'mysql://'"),
      Case(arguments: ["snapshots"], status: 64, mentions: "RAON_DB names a 'mysql://'", environment: ["RAON_DB": "mysql://x/y"]),
    ])
  }

  /// 78: a wrong value in the config file, for every command that reads it, naming the
  /// file, the line and the key; a missing --config file.
  @Test func configErrorsExit78WhicheverCommandReadsTheConfig() async throws {
    let badLanguage = "# defaults\nlang = \"fr\"\n"
    var cases = [
      ["report"], ["diff", "1", "1"], ["trend"], ["site"], ["snapshots"], ["snapshot", "a.csv"],
    ].map { Case(arguments: $0, status: 78, mentions: "raon.toml:2: lang must be \"ko\" or \"en\", not 'fr'", config: badLanguage) }
    cases += [
      Case(arguments: ["diff", "1", "1"], status: 78, mentions: "raon.toml:1: csv_encoding", config: "csv_encoding = \"latin1\"\n"),
      Case(arguments: ["trend"], status: 78, mentions: "raon.toml:1: csv_headers", config: "csv_headers = \"de\"\n"),
      Case(arguments: ["report"], status: 78, mentions: "raon.toml:1: formats", config: "formats = [\"docx\"]\n"),
      Case(arguments: ["diff", "1", "1", "--config", "missing.toml"], status: 78, mentions: "no such config file"),
      Case(arguments: ["snapshots"], status: 78, mentions: "raon.toml:1: db names a 'mysql://' store", config: "db = \"mysql://x/y\"\n"),
    ]
    try await Self.check(cases)
  }

  /// 1: the work failed — the store, a reader, the trend, a copy, the Open API, Chromium.
  @Test func failuresExit1() async throws {
    try await Self.check([
      Case(arguments: ["report", "--snapshot", "99"], status: 1, mentions: "99"),
      Case(arguments: ["snapshots", "show", "99"], status: 1, mentions: "no snapshot 99"),
      Case(arguments: ["snapshot", "not-a-catalog.csv"], status: 1, mentions: "not-a-catalog.csv"),
      Case(arguments: ["snapshot", "missing.csv"], status: 1, mentions: "missing.csv"),
      Case(arguments: ["snapshot", "--api"], status: 1, mentions: "SEOUL_API_KEY"),
      Case(arguments: ["trend", "--from", "2030-W01"], status: 1, mentions: "no snapshot"),
      Case(
        arguments: ["report", "--format", "pdf", "--out", "p"], status: 1, mentions: "RAON_CHROMIUM",
        environment: ["RAON_CHROMIUM": "/nonexistent/chromium"]),
    ])
  }

  /// 2: `raon diff` fails with 2, whatever the failure, since its 1 means "changed".
  @Test func diffFailuresExit2() async throws {
    try await Self.check([
      Case(arguments: ["diff", "1", "99"], status: 2, mentions: "99"),
      Case(arguments: ["diff", "1", "99", "--fail-if-changed"], status: 2, mentions: "99"),
      Case(arguments: ["diff", "1", "1", "--db", "none.sqlite"], status: 2, mentions: "no store"),
      // One snapshot: there is no previous one yet (issue 37: this was a usage error, 64).
      Case(arguments: ["diff", "previous", "latest"], status: 2, mentions: "there is no previous snapshot yet"),
    ])
  }
}
