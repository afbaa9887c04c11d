import Foundation
import RaonCore
import RaonIngest
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// A history that can be repaired: per-file times, several files in one transaction,
/// the shrink guard, unchanged catalogs, deleting and showing a snapshot — on a real
/// SQLite store, with files made from the sample by Python and figures Python computes.
@Suite(.serialized) struct HistoryRepairTests {
  struct Setup {
    let dir: URL
    let path: String
    var store: SnapshotStore
    let job: SnapshotJob
    let warnings: WarningLog
  }

  final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
  }

  static let now = TakenAtParser.instant("2024-09-20T12:00:00+09:00") ?? Date()

  func setUp(guarded: Bool = true) throws -> Setup {
    let dir = try Fixtures.temporaryDirectory("raon-history")
    let path = dir.appendingPathComponent("store.sqlite").path
    var store = try SnapshotStore(path: path)
    if guarded { store.shrinkGuard = .standard }
    let log = WarningLog()
    let environment = RaonEnvironment(
      now: { Self.now }, variables: [:], workingDirectory: dir, warn: { log.add($0) })
    return Setup(dir: dir, path: path, store: store, job: SnapshotJob(store: store, environment: environment), warnings: log)
  }

  static func day(_ text: String) -> Date { CalendarDay(iso: text)?.koreaMidnight ?? Date() }

  /// Rows whose end day is missing or on/after `monday`, counted by Python's reading.
  static func current(_ endDays: some Collection<String>, monday: String) -> Int {
    endDays.filter { $0.isEmpty || $0 >= monday }.count
  }

  /// Runs SQL on the store with Python's sqlite3 and returns the first column of each row.
  static func sql(_ path: String, _ query: String) throws -> [String] {
    let result = try Python.run([
      "-c",
      "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); [print(r[0]) for r in db.execute(sys.argv[2])]",
      path, query,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  // MARK: - Shrink guard

  @Test func aCatalogThatLosesATernOfItsCurrentProgramsIsRefused() throws {
    let expected = try SampleShapes.expected()
    var s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    _ = try s.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-09"))])
    let cut = try SampleShapes.url("cut-at-boundary.csv").path
    // The new snapshot's week is 2024-W38: current = no end, or end ≥ 2024-09-16.
    let previousCurrent = Self.current(expected.endDays, monday: "2024-09-16")
    let newCurrent = Self.current(expected.endDays.prefix(expected.rowsBeforeCut), monday: "2024-09-16")
    do {
      _ = try s.job.record([(cut, Self.day("2024-09-16"))])
      Issue.record("a catalog cut to \(expected.rowsBeforeCut) rows was recorded")
    } catch let refused as ShrinkRefused {
      #expect(refused.previousCurrent == previousCurrent)
      #expect(refused.newCurrent == newCurrent)
      #expect(refused.previousID == 1)
      let text = refused.description
      #expect(text.contains("\(previousCurrent)") && text.contains("\(newCurrent)") && text.contains("--allow-shrink"), "\(text)")
      #expect(!text.contains("\n"))
    }
    #expect(try s.store.snapshots().count == 1)
    #expect(try Self.sql(s.path, "SELECT count(*) FROM snapshot") == ["1"])
    // --allow-shrink: recorded.
    s.store.shrinkGuard = nil
    let job = SnapshotJob(store: s.store, environment: s.job.environment)
    let recorded = try job.record([(cut, Self.day("2024-09-16"))])
    #expect(recorded.first?.info.programCount == expected.rowsBeforeCut)
  }

  @Test func aNormalWeekIsNotRefused() throws {
    // The sample again a week later: every program that ended before the new week's
    // Monday no longer counts as current, so nothing looks lost.
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    _ = try s.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-09"))])
    let again = try s.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-16"))])
    #expect(again.first?.unchangedSince == 1)
  }

  // MARK: - Several files, one transaction

  @Test func severalFilesAreRecordedTogetherOrNotAtAll() throws {
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    let truncated = try SampleShapes.url("truncated.csv").path
    do {
      _ = try s.job.record([
        (Fixtures.sampleCSV.path, Self.day("2024-09-02")), (Fixtures.sampleCSV.path, Self.day("2024-09-09")),
        (truncated, Self.day("2024-09-16")),
      ])
      Issue.record("a truncated third file was recorded")
    } catch let error as WorkflowError {
      #expect(error.description.contains("truncated.csv") && error.description.contains("none of the 3 files"), "\(error)")
    }
    #expect(try Self.sql(s.path, "SELECT count(*) FROM snapshot") == ["0"])
    #expect(try Self.sql(s.path, "SELECT count(*) FROM program_version") == ["0"])
    // Two good files: both, each at its own time, the second unchanged since the first.
    let recorded = try s.job.record([
      (Fixtures.sampleCSV.path, Self.day("2024-09-02")), (Fixtures.sampleCSV.path, Self.day("2024-09-09")),
    ])
    #expect(recorded.map(\.info.id) == [1, 2])
    #expect(recorded.map(\.unchangedSince) == [nil, 1])
    #expect(try Self.sql(s.path, "SELECT taken_at FROM snapshot ORDER BY id") == ["2024-09-01T15:00:00Z", "2024-09-08T15:00:00Z"])
  }

  @Test func severalFilesAtOneInstantAreRefused() throws {
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    let time = Self.day("2024-09-09")
    #expect(throws: WorkflowError.duplicateTakenAt(first: "a.csv", second: "b.csv", time: time.koreaDisplay)) {
      _ = try s.job.record([("a.csv", time), ("b.csv", time)])
    }
    #expect(throws: WorkflowError.sharedTakenAt(count: 2)) {
      _ = try s.job.recordFiles([Fixtures.sampleCSV.path, Fixtures.sampleCSV.path], takenAt: time)
    }
    #expect(try s.store.snapshots().isEmpty)
  }

  // MARK: - --taken-at

  @Test func takenAtIsStrict() throws {
    let now = Self.now
    #expect(try TakenAtParser.parse("2024-09-09", now: now) == Self.day("2024-09-09"))
    #expect(try TakenAtParser.parse("2024-09-09T09:00:00+09:00", now: now).timeIntervalSince1970 == 1_725_840_000)
    #expect(try TakenAtParser.parse("2024-09-09T00:00:00Z", now: now).timeIntervalSince1970 == 1_725_840_000)
    #expect(try TakenAtParser.parse("2024-09-09 09:00", now: now).timeIntervalSince1970 == 1_725_840_000)
    #expect(try TakenAtParser.parse("2024-09-08T23:00:00-01:00", now: now).timeIntervalSince1970 == 1_725_840_000)
    #expect(try TakenAtParser.parse("2024-09-09T14:00:00.5+1400", now: now).timeIntervalSince1970 == 1_725_840_000.5)
    for bad in [
      "2024-09-09 oops", "2024-09-09T09:00:00+09:00 extra", "2024-09-09T09:00:00+14:30",
      "2024-09-09T09:00:00-15:00", "2024-09-09T25:00", "2024-02-30", "yesterday", "2024-09-09T09:00:00ZZ",
    ] {
      #expect(throws: WorkflowError.invalidTakenAt(bad)) { _ = try TakenAtParser.parse(bad, now: now) }
    }
    // Up to a day ahead is a clock's slack; more is a typo.
    #expect(try TakenAtParser.parse("2024-09-21", now: now) == Self.day("2024-09-21"))
    #expect(throws: WorkflowError.takenAtInFuture(text: "2024-09-22", now: now.koreaDisplay)) {
      _ = try TakenAtParser.parse("2024-09-22", now: now)
    }
    #expect(throws: WorkflowError.takenAtInFuture(text: "2042-09-09", now: now.koreaDisplay)) {
      _ = try TakenAtParser.parse("2042-09-09", now: now)
    }
  }

  @Test func takenAtFromTheFileName() throws {
    #expect(try TakenAtParser.fromFileName("/x/2024-09-16.csv") == Self.day("2024-09-16"))
    #expect(try TakenAtParser.fromFileName("서울시 문화행사 정보_20240916.xlsx") == Self.day("2024-09-16"))
    #expect(try TakenAtParser.fromFileName("seoul-cultural-events-2024-09-09.cp949.csv") == Self.day("2024-09-09"))
    for bad in ["catalog.csv", "v20241399.csv", "123456789.csv"] {
      #expect(throws: WorkflowError.noDateInFileName(path: bad)) { _ = try TakenAtParser.fromFileName(bad) }
    }
  }

  // MARK: - Deleting and showing

  @Test func deletingASnapshotRemovesWhatOnlyItHeldAndJoinsTheGap() throws {
    let expected = try SampleShapes.expected()
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    let relabelled = try SampleShapes.url("relabelled.csv").path
    _ = try s.job.record([
      (Fixtures.sampleCSV.path, Self.day("2024-09-02")), (relabelled, Self.day("2024-09-09")),
      (Fixtures.sampleCSV.path, Self.day("2024-09-16")),
    ])
    let n = expected.ids.count
    // Snapshot 2's records have other field names: versions of their own.
    #expect(try Self.sql(s.path, "SELECT count(*) FROM program_version") == ["\(2 * n)"])
    let tables = "SELECT (SELECT count(*) FROM snapshot) || '/' || (SELECT count(*) FROM program_version) || '/' || (SELECT count(*) FROM presence) || '/' || (SELECT count(*) FROM field_set)"
    let before = try Self.sql(s.path, tables)
    let plan = try s.store.deleteSnapshot(id: 2, dryRun: true)
    #expect(try Self.sql(s.path, tables) == before)  // a dry run changes nothing
    #expect(plan.versionsRemoved == n && plan.intervalsRemoved == n && plan.fieldSetsRemoved == 1)
    // The sample's versions, in 1 and 3 around it, are joined into one interval each.
    #expect(plan.intervalsJoined == n)
    let done = try s.store.deleteSnapshot(id: 2)
    #expect(done == plan)
    #expect(try Self.sql(s.path, tables) == ["2/\(n)/\(n)/1"])
    // The sample's versions are in 1 and 3 as one interval each: what a store that never
    // recorded 2 holds too.
    let fresh = try setUp()
    defer { try? FileManager.default.removeItem(at: fresh.dir) }
    _ = try fresh.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-02"))])
    _ = try fresh.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-16"))])
    let shape = "SELECT count(*) || ':' || min(first_snapshot_id) || '-' || max(last_snapshot_id) FROM presence"
    #expect(try Self.sql(fresh.path, shape) == ["\(n):1-2"])
    #expect(try Self.sql(s.path, shape) == ["\(n):1-3"])
    #expect(try s.store.unchangedSince(snapshot: 3) == 1)
    // Deleting 1 as well leaves 3 as it was recorded; ids are never reused.
    _ = try s.store.deleteSnapshot(id: 1)
    #expect(try s.store.programs(inSnapshot: 3).map(\.id) == expected.ids.sorted())
    let next = try s.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-17"))])
    #expect(next.first?.info.id == 4)
    #expect(next.first?.unchangedSince == 3)
    #expect(try s.store.integrityCheck() == ["ok"])
  }

  @Test func deletingTheMiddleOfAnUnchangedRunJoinsItsIntervals() throws {
    let expected = try SampleShapes.expected()
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    let cut = try SampleShapes.url("cut-at-boundary.csv").path
    var store = s.store
    store.shrinkGuard = nil
    let job = SnapshotJob(store: store, environment: s.job.environment)
    // 1: sample, 2: the first rows only (BOM/UTF-8 but the same records), 3: sample.
    _ = try job.record([
      (Fixtures.sampleCSV.path, Self.day("2024-09-02")), (cut, Self.day("2024-09-09")),
      (Fixtures.sampleCSV.path, Self.day("2024-09-16")),
    ])
    let n = expected.ids.count
    let k = expected.rowsBeforeCut
    // The first k versions are in 1–3 (one interval); the rest in 1 and in 3 (two each).
    #expect(try Self.sql(s.path, "SELECT count(*) FROM presence") == ["\(k + 2 * (n - k))"])
    let done = try store.deleteSnapshot(id: 2)
    #expect(done.versionsRemoved == 0 && done.intervalsJoined == n - k)
    #expect(try Self.sql(s.path, "SELECT count(*) || ':' || min(first_snapshot_id) || '-' || min(last_snapshot_id) FROM presence") == ["\(n):1-3"])
    #expect(try store.unchangedSince(snapshot: 3) == 1)
  }

  @Test func showTellsSourceTimeCountsHashAndFields() throws {
    let expected = try SampleShapes.expected()
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    _ = try s.job.record([(Fixtures.sampleCSV.path, Self.day("2024-09-09"))])
    let details = try s.store.details(snapshot: 1)
    #expect(details.inputSHA256 == expected.sampleSHA256)
    #expect(try Self.sql(s.path, "SELECT input_sha256 FROM snapshot") == [expected.sampleSHA256])
    #expect(details.snapshot.programCount == expected.ids.count)
    #expect(details.distinctPrograms == Set(expected.ids).count)
    #expect(details.versionsFirstSeen == expected.ids.count)
    #expect(details.fieldSets.count == 1)
    #expect(details.fieldSets.first?.names == expected.header)
    #expect(details.fieldSets.first?.programs == expected.ids.count)
    let text = SnapshotListing.details(details)
    #expect(text.contains(expected.sampleSHA256) && text.contains("seoul-cultural-events-2024-09-09.cp949.csv"))
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: s.path)) { _ = try s.store.details(snapshot: 9) }
    // A label with an escape sequence or a line break never reaches the terminal raw.
    #expect(SnapshotListing.visible("분류\u{1B}[31m\n") == "분류?[31m?")
    // The bundled sample and an .xlsx carry their hash too.
    let xlsx = try s.job.record([(SampleShapes.url("sample.xlsx").path, Self.day("2024-09-10"))])
    let xlsxHash = try Python.run([
      "-c", "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())",
      SampleShapes.url("sample.xlsx").path,
    ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try s.store.details(snapshot: xlsx[0].info.id).inputSHA256 == xlsxHash)
  }

  @Test func warningsAboutTheHeaderReachTheEnvironment() throws {
    let s = try setUp()
    defer { try? FileManager.default.removeItem(at: s.dir) }
    _ = try s.job.record([(SampleShapes.url("unknown-label.csv").path, Self.day("2024-09-09"))])
    #expect(s.warnings.all.count == 1)
    #expect(s.warnings.all.first?.contains("좌표값1") == true)
  }
}
