import Foundation
import TestSupport
import Testing

/// Issue 37 with the real binary: small workbooks that inflate to gigabytes (major 6), a
/// category longer than a cell (major 4), and the limits both stores keep alike (a minor).
@Suite(.serialized) struct BombsAndLimitsEndToEndTests {
  static let testkit = Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts")

  /// Runs `python3 -m raon_testkit.xlsx_bombs ARGS` (Python's zipfile, never Raon's code).
  static func bombs(_ arguments: [String]) throws -> String {
    let result = try Python.run([
      "-c", "import runpy, sys; sys.path.insert(0, sys.argv[1]); sys.argv = ['xlsx_bombs'] + sys.argv[2:]; "
        + "runpy.run_module('raon_testkit.xlsx_bombs', run_name='__main__')",
      testkit.path,
    ] + arguments)
    try #require(result.status == 0, "\(result.stderr.suffix(1_000))")
    return result.stdout
  }

  struct Peak: Decodable {
    var status: Int
    var peak_kib: Int
    var stderr: String
    var stderr_lines: Int
  }

  /// Before (release build, VmHWM): one 250 MB cell in a 251 KiB file peaked at 2.0 GB and
  /// was recorded; a 500 MB shared string at 3.5 GB, then failed; 80 million empty shared
  /// strings at 2.1 GB, recorded; a cell at column 99,999 in each of 100,000 rows ran out
  /// of memory. Now each is refused in one line before its contents are allocated.
  @Test(arguments: [
    ("cell", "250"), ("shared", "500"), ("empty-shared", "80000000"), ("sparse", "100000"), ("lying", "300"),
  ])
  func aWorkbookBombIsRefusedBeforeItIsAllocated(kind: String, size: String) throws {
    let dir = try Fixtures.temporaryDirectory("raon-bomb")
    defer { try? FileManager.default.removeItem(at: dir) }
    let book = dir.appendingPathComponent("\(kind).xlsx")
    let bytes = try #require(Int(try Self.bombs([kind, book.path, size]).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(bytes < 1 << 20, "\(kind): \(bytes) bytes on disk")
    let output = try Self.bombs([
      "peak", RaonProcess.executable.path, "snapshot", book.path, "--db", dir.appendingPathComponent("s.sqlite").path,
      "--taken-at", "2024-09-09",
    ])
    let peak = try JSONDecoder().decode(Peak.self, from: Data(output.utf8))
    #expect(peak.status == 1, "\(kind): \(output)")
    #expect(peak.stderr_lines == 1 && peak.stderr.contains("ZIP bomb"), "\(kind): \(output)")
    #expect(peak.stderr.contains("\(kind).xlsx ("), "\(kind): \(output)")
    // The binary itself takes some 50 MB (more under a sanitizer).
    #expect(peak.peak_kib < 400_000, "\(kind): peak \(peak.peak_kib) KiB")
    if FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.sqlite").path) {
      #expect(try Self.snapshotCount(dir, "s.sqlite") == 0)
    }
  }

  /// Before: a category of more than 32,767 characters failed `raon report` ("XLSX: writing
  /// text at M20 … this is a bug in Raon's XLSX writer"). Now every text cell is cut to
  /// Excel's limit and counted in the warning, as every other long field was.
  @Test func aCategoryLongerThanACellIsCutWithAWarning() throws {
    let dir = try Fixtures.temporaryDirectory("raon-long-category")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FaultsAndOddInputsEndToEndTests.catalog(count: 12, category: String(repeating: "가", count: 40_000))
      .write(to: dir.appendingPathComponent("catalog.csv"))
    let run = try RaonProcess.run(
      ["report", "--input", "catalog.csv", "--taken-at", "2024-09-09", "--db", "store.sqlite", "--out", "out",
       "--format", "xlsx,csv"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("32,767"), "\(run.stderr)")
    let cells = try Python.run([
      "-c",
      """
      import openpyxl, sys, warnings
      warnings.simplefilter("ignore")
      wb = openpyxl.load_workbook(sys.argv[1])
      print(max(len(v) for ws in wb.worksheets for r in ws.iter_rows(values_only=True) for v in r if isinstance(v, str)))
      """, dir.appendingPathComponent("out/report.xlsx").path,
    ])
    #expect(cells.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "32767", "\(cells.stdout) \(cells.stderr)")
  }

  // MARK: - Store limits

  /// The sample's first 40 rows, with row 5's cultcode 2,700 digits long (`longID`), or
  /// 800 columns added to the header and every row (`wide`).
  static func overLimit(_ dir: URL, _ kind: String) throws -> URL {
    let out = dir.appendingPathComponent("\(kind).csv")
    let result = try Python.run([
      "-c",
      """
      import csv, io, sys
      text = open(sys.argv[1], "rb").read().decode("cp949", errors="replace")
      rows = list(csv.reader(io.StringIO(text, newline="")))[:41]
      if sys.argv[3] == "longID":
          rows[5][-1] = rows[5][-1].split("cultcode=")[0] + "cultcode=" + "7" * 2700
      else:
          rows = [rows[0] + ["extra%d" % i for i in range(800)]] + [r + ["v"] * 800 for r in rows[1:]]
      with open(sys.argv[2], "w", encoding="utf-8-sig", newline="") as f:
          csv.writer(f).writerows(rows)
      """, Fixtures.sampleCSV.path, out.path, kind,
    ])
    try #require(result.status == 0, "\(result.stderr)")
    return out
  }

  /// Before: SQLite recorded both files and PostgreSQL refused them ("index row size
  /// exceeds maximum", SQLSTATE 54000), so `store copy` SQLite → PostgreSQL failed. Now
  /// both stores refuse them before writing, in one line naming the row and the limit.
  @Test(arguments: [("longID", "the program id 'cult:7777", "200"), ("wide", "the record's 822 column names", "2,000")])
  func theSameLimitsHoldOnBothStores(kind: String, says: String, limit: String) throws {
    let dir = try Fixtures.temporaryDirectory("raon-store-limits")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try Self.overLimit(dir, kind)
    var stores: [(String, [String: String])] = [("store.sqlite", [:])]
    if let server = PostgresTestServer.available() { stores.append((server.url(), server.environment)) }
    for (store, environment) in stores {
      let run = try RaonProcess.run(
        ["snapshot", file.path, "--db", store, "--taken-at", "2024-09-09"], in: dir, environment: environment)
      #expect(run.status == 1, "\(store): \(run.stderr)")
      #expect(run.stderr.contains("\(kind).csv:") && run.stderr.contains(says), "\(store): \(run.stderr)")
      #expect(run.stderr.contains("more than the \(limit)"), "\(store): \(run.stderr)")
      #expect(Self.lines(run.stderr) == 1, "\(run.stderr)")
      let listed = try RaonProcess.run(["snapshots", "--db", store, "--json"], in: dir, environment: environment)
      #expect(!listed.stdout.contains("\"id\""), "\(store): \(listed.stdout)")
    }
  }

  /// A store written before the limits (here: a program id lengthened in SQLite by
  /// Python's sqlite3) copies into PostgreSQL with a one-line error naming the snapshot
  /// and the program, before anything is written there (before: SQLSTATE 54000).
  @Test func copyingAnOverLimitHistoryIntoPostgreSQLSaysWhich() throws {
    guard let server = PostgresTestServer.available() else { return }
    let dir = try Fixtures.temporaryDirectory("raon-copy-limits")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FaultsAndOddInputsEndToEndTests.catalog(count: 20).write(to: dir.appendingPathComponent("catalog.csv"))
    let first = try RaonProcess.run(["snapshot", "catalog.csv", "--db", "store.sqlite", "--taken-at", "2024-09-09"], in: dir)
    try #require(first.status == 0, "\(first.stderr)")
    let edit = try Python.run([
      "-c",
      "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        + "c.execute(\"UPDATE program_version SET program_id = 'cult:' || ? WHERE id = (SELECT min(id) FROM program_version)\", ('8' * 2700,)); "
        + "c.commit()",
      dir.appendingPathComponent("store.sqlite").path,
    ])
    try #require(edit.status == 0, "\(edit.stderr)")
    let target = server.url()
    let copy = try RaonProcess.run(["store", "copy", "store.sqlite", target], in: dir, environment: server.environment)
    #expect(copy.status == 1, "\(copy.stdout) \(copy.stderr)")
    #expect(copy.stderr.contains("snapshot 1, program 'cult:888"), "\(copy.stderr)")
    #expect(copy.stderr.contains("more than the 200"), "\(copy.stderr)")
    let listed = try RaonProcess.run(["snapshots", "--db", target, "--json"], in: dir, environment: server.environment)
    #expect(!listed.stdout.contains("\"id\""), "\(listed.stdout) \(listed.stderr)")
  }

  static func snapshotCount(_ dir: URL, _ store: String) throws -> Int {
    let run = try RaonProcess.run(["snapshots", "--db", store, "--json"], in: dir)
    return run.stdout.components(separatedBy: "\"id\"").count - 1
  }

  static func lines(_ text: String) -> Int { FaultsAndOddInputsEndToEndTests.lines(text).count }
}
