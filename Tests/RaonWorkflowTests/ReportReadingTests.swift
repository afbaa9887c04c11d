import Foundation
import RaonCore
import RaonIngest
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// A report of a snapshot read from the store chunk by chunk (as a catalog over
/// ``SnapshotReading/Policy/inMemoryLimit`` is) is byte for byte the report of the same snapshot
/// held in memory: every file, the workbook included.
@Suite struct ReportReadingTests {
  @Test func aReportReadInChunksIsTheReportHeldInMemory() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-reading")
    defer { try? FileManager.default.removeItem(at: dir) }
    let modified = dir.appendingPathComponent("modified.csv").path
    let made = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, modified,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let environment = RaonEnvironment(
      now: { Date(timeIntervalSince1970: 1_726_000_000) }, variables: [:], workingDirectory: dir)
    _ = try SnapshotJob(store: store, environment: environment).recordSample()

    var request = ReportRequest()
    request.inputs = [modified]
    request.compareTo = "previous"
    request.out = "memory"
    let memory = try await ReportJob(store: store, storePath: "store.sqlite", environment: environment)
      .run(request)
    #expect(memory.changed ?? 0 > 0 && memory.added ?? 0 > 0 && memory.removed ?? 0 > 0)

    var chunked = ReportJob(store: store, storePath: "store.sqlite", environment: environment)
    chunked.reading.inMemoryLimit = 0
    chunked.reading.chunkSize = 700  // several chunks, the last one short
    request.inputs = []
    request.snapshot = String(memory.snapshot.id)
    request.out = "chunks"
    let fromStore = try await chunked.run(request)
    #expect(fromStore.files == memory.files)
    #expect((fromStore.added, fromStore.removed, fromStore.changed) == (memory.added, memory.removed, memory.changed))
    for file in memory.files {
      let a = try Data(contentsOf: dir.appendingPathComponent("memory/\(file)"))
      let b = try Data(contentsOf: dir.appendingPathComponent("chunks/\(file)"))
      // A Bool, not `a == b`: on a failure the macro would diff megabytes byte by byte.
      let same = a == b
      #expect(same, "\(file) differs between the in-memory and the chunked report")
    }
  }

  /// The compared snapshot is read beside the input file (``ReportJob/read(_:plan:)``):
  /// when it cannot be read, the report fails with the store's error before anything is
  /// recorded, and no report is left.
  @Test func aComparedSnapshotThatCannotBeReadAheadFailsTheReport() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-read-ahead")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (store, environment) = try Self.sampleStore(in: dir, damagedBy: """
      (vid,) = db.execute("SELECT id FROM program_version ORDER BY program_id DESC LIMIT 1").fetchone()
      db.execute("UPDATE program_version SET program_text = ? WHERE id = ?", ('{"place":99}', vid))
      """)
    let modified = dir.appendingPathComponent("modified.csv").path
    let made = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, modified,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    var request = ReportRequest()
    request.inputs = [modified]
    request.compareTo = "previous"
    request.out = "report"
    request.formats = [.md, .xlsx, .csv, .json]
    let job = ReportJob(store: store, storePath: "store.sqlite", environment: environment)
    await #expect {
      try await job.run(request)
    } throws: { error in
      String(describing: error).contains("raw value 99")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("report").path))
  }

  /// Read in chunks, the programs are read by the figures' pass, then by `programs.csv` and
  /// the workbook's programs sheet side by side: a program that cannot be read part-way
  /// through stops them with the store's error (not an output folder's), and no report
  /// (or staged folder) is left.
  @Test func aSnapshotThatFailsPartWayThroughTheSharedPassLeavesNoReport() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-shared-pass")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The last program in id order refers to a raw value it does not have: every chunk
    // before it has gone through the pass.
    let (store, environment) = try Self.sampleStore(in: dir, damagedBy: """
      (vid,) = db.execute("SELECT id FROM program_version ORDER BY program_id DESC LIMIT 1").fetchone()
      db.execute("UPDATE program_version SET program_text = ? WHERE id = ?", ('{"place":99}', vid))
      """)

    var job = ReportJob(store: store, storePath: "store.sqlite", environment: environment)
    job.reading.inMemoryLimit = 0
    job.reading.chunkSize = 700
    var request = ReportRequest()
    request.out = "report"
    request.formats = [.md, .xlsx, .csv, .json]
    await #expect {
      try await job.run(request)
    } throws: { error in
      String(describing: error).contains("raw value 99")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
      .filter { !$0.hasPrefix("store.sqlite") } == [], "no report folder, no staged leftovers")
  }

  /// A request that would fail after recording its input records nothing: every reference,
  /// the week and the output folder are checked first (a retry must not add a copy).
  @Test(arguments: [
    (["--compare-to", "abc"], "is not something to compare to"),
    (["--compare-to", "999"], "no snapshot 999"),
    (["--snapshot", "999"], "no snapshot 999"),
    (["--snapshot", "1", "--compare-to", "1"], "compared with itself"),
    (["--out", "a-file"], "a file of that name exists"),
    (["--out", "foreign"], "not a Raon report"),
    (["--week", "2020-W01"], "ends before the snapshot being reported"),
  ])
  func aRequestThatWouldFailRecordsNothing(arguments: [String], message: String) async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-validation")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let environment = RaonEnvironment(
      now: { Date(timeIntervalSince1970: 1_726_000_000) }, variables: [:], workingDirectory: dir)
    _ = try SnapshotJob(store: store, environment: environment).recordSample()
    try Data("x".utf8).write(to: dir.appendingPathComponent("a-file"))
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("foreign"), withIntermediateDirectories: false)
    try Data("mine".utf8).write(to: dir.appendingPathComponent("foreign/notes.txt"))
    let before = try store.snapshots()

    var request = ReportRequest()
    request.inputs = [Fixtures.sampleCSV.path]
    request.out = "report"
    var pairs = arguments.makeIterator()
    while let option = pairs.next(), let value = pairs.next() {
      switch option {
      case "--compare-to": request.compareTo = value
      case "--snapshot": request.snapshot = value
      case "--out": request.out = value
      case "--week": request.week = value
      default: Issue.record("unknown option \(option)")
      }
    }
    await #expect {
      try await ReportJob(store: store, storePath: "store.sqlite", environment: environment).run(request)
    } throws: { error in
      String(describing: error).contains(message)
    }
    #expect(try store.snapshots() == before, "nothing was recorded")
    #expect(try Data(contentsOf: dir.appendingPathComponent("foreign/notes.txt")) == Data("mine".utf8))
  }

}

extension ReportReadingTests {
  /// The snapshot a held input is compared with is read beside the input, before anything
  /// is recorded: when that read fails, the store's error comes out as it was, nothing is
  /// recorded (a retry records once) and no folder is left, staged or not.
  @Test func aComparisonThatCannotBeReadLeavesNoReport() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-unreadable")
    defer { try? FileManager.default.removeItem(at: dir) }
    // One version of the sample refers to a raw value it does not have.
    let (store, environment) = try Self.sampleStore(in: dir, damagedBy: """
      db.execute("UPDATE program_version SET program_text = ? WHERE id = 1", ('{"place":99}',))
      """)

    var request = ReportRequest()
    request.inputs = [Fixtures.sampleCSV.path]
    request.compareTo = "1"
    request.out = "report"
    await #expect {
      try await ReportJob(store: store, storePath: "store.sqlite", environment: environment)
        .run(request)
    } throws: { error in
      error is StoreError && String(describing: error).contains("raw value 99")
    }
    #expect(try store.snapshots().map(\.id) == [1], "nothing was recorded")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
      .filter { !$0.hasPrefix("store.sqlite") } == [], "no report folder, no staged leftovers")
  }
}


/// `raon report --input FILE` reports the file's programs as they are, without reading them
/// back (``HeldInput``), only when that is exactly what the store would give back; the
/// reports above and below compare such a report with one read from the store.
extension ReportReadingTests {
  @Test func aSmallInputIsHeldOnlyWhenNoProgramIDRepeats() throws {
    let catalog = try SnapshotJob.prepare(CatalogFileReader.read(Fixtures.sampleCSV))
    let time = Date(timeIntervalSince1970: 1_726_000_000)
    guard case .held(let held) = ReportInput(catalog, takenAt: time, reportsIt: true, reading: .init())
    else {
      Issue.record("the sample (no repeated id) is held")
      return
    }
    #expect(held.programs.count == catalog.entries.count)
    #expect(zip(held.programs, held.programs.dropFirst()).allSatisfy { $0.id < $1.id })

    var repeated = catalog
    repeated.entries.append(catalog.entries[17])
    guard case .prepared(let kept?) = ReportInput(repeated, takenAt: time, reportsIt: true, reading: .init())
    else {
      Issue.record("a repeated id is recorded first and read back")
      return
    }
    #expect(kept.entries.count == catalog.entries.count + 1)
    guard case .prepared = ReportInput(catalog, takenAt: time, reportsIt: false, reading: .init()) else {
      Issue.record("a report about another snapshot (--snapshot) reads that one from the store")
      return
    }
    var small = SnapshotReading.Policy()
    small.inMemoryLimit = catalog.entries.count - 1
    guard case .prepared = ReportInput(catalog, takenAt: time, reportsIt: true, reading: small) else {
      Issue.record("a catalog over the memory limit is read back in chunks")
      return
    }
  }

  /// A catalog that repeats a program id is recorded first and read back: its report is the
  /// report of the same snapshot asked for by id.
  @Test func anInputWithARepeatedIDIsReportedAsTheStoreGivesItBack() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-report-repeated")
    defer { try? FileManager.default.removeItem(at: dir) }
    let repeated = dir.appendingPathComponent("repeated.csv")
    let made = try Python.run([
      "-c",
      """
      import csv, sys
      rows = list(csv.reader(open(sys.argv[1], encoding="cp949", errors="surrogateescape", newline="")))
      # One record given twice, and a second version of another placed before it: the
      # store orders that program's versions by history (the stored one first), not by
      # where they stand in the file.
      title = rows[0].index("공연/행사명")
      changed = list(rows[3])
      changed[title] += " (변경)"
      out = [rows[0], changed] + rows[1:] + [rows[9]]
      csv.writer(open(sys.argv[2], "w", encoding="cp949", errors="surrogateescape", newline="")).writerows(out)
      """,
      Fixtures.sampleCSV.path, repeated.path,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let environment = RaonEnvironment(
      now: { Date(timeIntervalSince1970: 1_726_000_000) }, variables: [:], workingDirectory: dir)
    _ = try SnapshotJob(store: store, environment: environment).recordSample()

    var request = ReportRequest()
    request.inputs = [repeated.path]
    request.compareTo = "previous"
    request.out = "input"
    let job = ReportJob(store: store, storePath: "store.sqlite", environment: environment)
    let fromInput = try await job.run(request)
    #expect(fromInput.snapshot.programCount == 5_000)
    request.inputs = []
    request.snapshot = String(fromInput.snapshot.id)
    request.out = "by-id"
    let byID = try await job.run(request)
    #expect(byID.files == fromInput.files)
    for file in fromInput.files {
      let a = try Data(contentsOf: dir.appendingPathComponent("input/\(file)"))
      let b = try Data(contentsOf: dir.appendingPathComponent("by-id/\(file)"))
      let same = a == b
      #expect(same, "\(file) differs")
    }
  }
}

extension ReportReadingTests {
  /// A store in `dir` holding the bundled sample as snapshot 1, then changed by the
  /// Python lines `damage` with `db`, an open `sqlite3` connection to it (committed after).
  static func sampleStore(in dir: URL, damagedBy damage: String) throws -> (SnapshotStore, RaonEnvironment) {
    let path = dir.appendingPathComponent("store.sqlite").path
    let store = try SnapshotStore(path: path)
    let environment = RaonEnvironment(
      now: { Date(timeIntervalSince1970: 1_726_000_000) }, variables: [:], workingDirectory: dir)
    _ = try SnapshotJob(store: store, environment: environment).recordSample()
    let script = "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n" + damage + "\ndb.commit()\n"
    let damaged = try Python.run(["-c", script, path])
    try #require(damaged.status == 0, "\(damaged.stderr)")
    return (store, environment)
  }
}
