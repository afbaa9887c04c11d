import Foundation
import TestSupport
import Testing

/// Issue 37's minor items on the command line: a store URL of an unknown database, `raon
/// diff previous` on a store of one snapshot, an output folder where no file can be made.
/// Each test failed on the binary before the change (`RAON_TEST_EXECUTABLE`).
@Suite(.serialized) struct StoreURLDiffAndOutputEndToEndTests {
  /// `--db postgresq://…` made a store under `./postgresq:/…`, recorded the sample and
  /// exited 0. Now it is a usage error and nothing is made.
  @Test func aStoreURLOfAnUnknownDatabaseMakesNothing() throws {
    let dir = try Fixtures.temporaryDirectory("raon-c37-scheme")
    defer { try? FileManager.default.removeItem(at: dir) }
    for url in ["postgresq://raon:s3cret@127.0.0.1/culture", "mysql://x/y"] {
      let run = try RaonProcess.run(["report", "--db", url, "--format", "json", "--out", "r"], in: dir)
      #expect(run.status == 64, "\(url): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("postgresql://") && !run.stderr.contains("s3cret"), "\(run.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(url) made files")
    }
  }

  /// `raon diff previous latest` on a store of one snapshot said "'previous' is not a
  /// snapshot — give a positive id or 'latest'" and exited 64. It is a failure (2 for diff),
  /// saying that there is no previous snapshot yet and what to do.
  @Test func diffPreviousOnAStoreOfOneSnapshotSaysThereIsNoneYet() throws {
    let dir = try Fixtures.temporaryDirectory("raon-c37-previous")
    defer { try? FileManager.default.removeItem(at: dir) }
    let recorded = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09", "--db", "store.sqlite"], in: dir)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    for arguments in [["diff", "previous", "latest"], ["diff", "previous", "1"], ["diff", "1", "previous"]] {
      let run = try RaonProcess.run(arguments + ["--db", "store.sqlite"], in: dir)
      #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("there is no previous snapshot yet"), "\(run.stderr)")
      #expect(run.stderr.contains("only snapshot 1") && run.stderr.contains("raon snapshot FILE"), "\(run.stderr)")
    }
  }

  /// `raon report --out /proc/x` as root recorded the input, then failed: `access(2)` says
  /// yes to root for `/proc`. The folder is now checked by making a file there, before
  /// anything is recorded. (As another user `/proc` was refused before too.)
  @Test func anOutputWhereNoFileCanBeMadeIsRefusedBeforeRecording() throws {
    let dir = try Fixtures.temporaryDirectory("raon-c37-proc")
    defer { try? FileManager.default.removeItem(at: dir) }
    for out in ["/proc/raon-c37", "/proc/self/raon-c37/report", "/sys/raon-c37"] {
      let run = try RaonProcess.run(
        ["report", "--input", Fixtures.sampleCSV.path, "--db", "store.sqlite", "--format", "json", "--out", out], in: dir)
      #expect(run.status == 1, "\(out): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("cannot write the report to \(out)"), "\(run.stderr)")
      let listed = try RaonProcess.run(["snapshots", "--db", "store.sqlite", "--json"], in: dir)
      #expect(!listed.stdout.contains("\"id\""), "\(out): a snapshot was recorded: \(listed.stdout)")
    }
  }
}
