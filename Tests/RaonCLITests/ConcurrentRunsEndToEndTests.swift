import Foundation
import TestSupport
import Testing

/// Two `raon snapshot` and one `raon report` at once on one store: each succeeds or fails
/// with a clear one-line error, and the store stays consistent (checked by Python's sqlite3).
@Suite(.serialized) struct ConcurrentRunsEndToEndTests {
  struct Outcome {
    var args: [String]
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func runTogether(_ commands: [[String]], in dir: URL, env: [String: String]) throws -> [Outcome] {
    let processes = try commands.map { try RaonProcess.start($0, in: dir, environment: env) }
    let box = OutcomeBox()
    let group = DispatchGroup()
    for (args, process) in zip(commands, processes) {
      group.enter()
      DispatchQueue.global().async {
        let out = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let err = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        box.append(
          Outcome(
            args: args, status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self)))
        group.leave()
      }
    }
    group.wait()
    return box.all
  }

  final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Outcome] = []
    func append(_ o: Outcome) { lock.withLock { items.append(o) } }
    var all: [Outcome] { lock.withLock { items } }
  }

  func check(fresh: Bool) throws {
    let dir = try Fixtures.temporaryDirectory("raon-concurrent")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    if !fresh {
      let first = try RaonProcess.run(
        ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-02"], in: dir, environment: env)
      #expect(first.status == 0, "\(first.stderr)")
    }
    // A modified copy, so the second snapshot stores new versions rather than none.
    let copy = dir.appendingPathComponent("modified.csv")
    var bytes = try Data(contentsOf: Fixtures.sampleCSV)
    bytes.append(contentsOf: Array("\r\n".utf8))
    try bytes.write(to: copy)
    let outcomes = try Self.runTogether(
      [
        ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"],
        ["snapshot", copy.path, Fixtures.sampleCSV.path, "--taken-at", "2024-09-10", "--taken-at", "2024-09-11"],
        ["report", "--out", "out/r"],
      ], in: dir, env: env)
    var expectedSnapshots = fresh ? 0 : 1
    for o in outcomes {
      if o.status == 0 {
        if o.args[0] == "snapshot" { expectedSnapshots += o.args.filter { $0.hasSuffix(".csv") }.count }
      } else {
        let lines = o.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(o.args): \(o.stderr)")
        #expect(!o.stderr.contains("Fatal error") && !o.stderr.contains("Stack dump"), "\(o.stderr)")
        // Waiting and then failing clearly is allowed: the store's busy timeout is 10 s.
        #expect(o.stderr.contains("locked") && o.stderr.contains("try again"), "\(o.args): \(o.stderr)")
        print("\(o.args) failed under concurrency, clearly: \(o.stderr)")
      }
    }
    let summary = try TestInspection.storeSummary(dir.appendingPathComponent("store.sqlite").path)
    #expect(summary.integrity == "ok")
    // The report may have recorded the sample first on a fresh store.
    let counts = summary.programCounts
    #expect(counts.values.allSatisfy { $0 == 4_998 }, "program counts: \(counts)")
    #expect(counts.count == expectedSnapshots || counts.count == expectedSnapshots + 1, "\(counts)")
    #expect(Array(counts.keys).sorted() == Array(1...counts.count), "ids \(counts.keys.sorted())")
    if let report = outcomes.first(where: { $0.args[0] == "report" }), report.status == 0 {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/r/report.xlsx").path))
      #expect(Self.leftoversIn(dir.appendingPathComponent("out")).isEmpty)
    }
    // And the store is still usable.
    let after = try RaonProcess.run(["report", "--out", "out/after"], in: dir, environment: env)
    #expect(after.status == 0, "\(after.stderr)")
  }

  static func leftoversIn(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".") }
  }

  @Test func twoSnapshotsAndAReportAtOnceOnAnExistingStore() throws {
    try check(fresh: false)
  }

  /// Regression: several processes creating the store at once used to misreport it as
  /// "not a Raon store" (one opened the file while another was still migrating it).
  @Test func twoSnapshotsAndAReportAtOnceOnAStoreThatDoesNotExistYet() throws {
    try check(fresh: true)
  }
}
