import Foundation
import GRDB
import RaonConcurrency
import RaonCore
@testable import RaonPostgres
@testable import RaonStore
import RaonStoreCore
import Testing
import TestSupport

/// The fifth round's ledger, on both databases: deliveries held until a release, the parts
/// of a message recorded as the server takes them, stale and held runs, deliveries claimed
/// by one run only, the store's own run lock — and the migration that brings an older
/// store's ledger to it with every row kept.
@Suite struct RunLedgerGatesTests {
  static let t0 = Date(timeIntervalSince1970: 1_755_468_000)  // 2025-08-18 07:00 KST

  @Test(arguments: Backend.allCases)
  func heldDeliveriesWaitForTheReleaseAndAPassingRunOfTheWeekReleasesThem(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let held = try ledger.plan(week: "2025-08-18", list: "city", recipients: ["a@x.kr", "b@x.kr"], resend: false, hold: true, at: Self.t0)
    #expect(held.map(\.status) == [.held, .held])
    #expect(try ledger.pendingDeliveries().isEmpty, "a held delivery is not pending")
    #expect(try ledger.deliveries(status: .held).count == 2)
    // Planned again by a run that holds too: still held, no second row.
    _ = try ledger.plan(week: "2025-08-18", list: "city", recipients: ["a@x.kr", "b@x.kr"], resend: false, hold: true, at: Self.t0)
    #expect(try ledger.deliveries(week: "2025-08-18").count == 2)

    // --release of another week releases nothing; of this one, both.
    #expect(try ledger.release(week: "2025-08-25", at: Self.t0).isEmpty)
    let released = try ledger.release(week: "2025-08-18", at: Self.t0)
    #expect(released.map(\.recipient) == ["a@x.kr", "b@x.kr"])
    #expect(released.allSatisfy { $0.status == .pending })
    #expect(try ledger.pendingDeliveries().count == 2)

    // Another list held, then a run of the week that passes its gates: pending.
    _ = try ledger.plan(week: "2025-08-18", list: "종로구", recipients: ["c@x.kr"], resend: false, hold: true, at: Self.t0)
    let passed = try ledger.plan(week: "2025-08-18", list: "종로구", recipients: ["c@x.kr"], resend: false, hold: false, at: Self.t0)
    #expect(passed.map(\.status) == [.pending])
    #expect(try ledger.deliveries(status: .held).isEmpty)
  }

  @Test(arguments: Backend.allCases)
  func aNoticeIsADeliveryOfItsOwnBesideTheWeeksReport(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let run = try ledger.beginRun(kind: .scheduled, week: "2025-08-25", at: Self.t0, host: "h", pid: 1)
    let notice = try ledger.plan(week: "2025-08-25", list: "city", recipients: ["a@x.kr"], resend: false, kind: .notice, at: Self.t0)
    try ledger.record(.sent(messageID: "n@x.kr", documentHash: "notice"), delivery: notice[0].id, run: run, at: Self.t0)
    // Later that week the data came: the report goes to the same recipient all the same.
    let report = try ledger.plan(week: "2025-08-25", list: "city", recipients: ["a@x.kr"], resend: false, at: Self.t0)
    #expect(report.map(\.kind) == [.report])
    #expect(report.first?.id != notice.first?.id)
    let all = try ledger.deliveries(week: "2025-08-25")
    #expect(Set(all.map(\.kind)) == [.report, .notice])
  }

  @Test(arguments: Backend.allCases)
  func thePartsTheServerTookAreKeptAsEachIsTakenWithoutCountingASend(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let run = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h", pid: 1)
    let planned = try ledger.plan(week: "2025-08-18", list: "city", recipients: ["a@x.kr"], resend: false, at: Self.t0)
    try ledger.notePartsTaken("m.p1of3@x.kr", delivery: planned[0].id, run: run, at: Self.t0)
    try ledger.notePartsTaken("m.p1of3@x.kr m.p2of3@x.kr", delivery: planned[0].id, run: run, at: Self.t0)
    let partway = try #require(try ledger.pendingDeliveries().first)
    #expect(partway.messageID == "m.p1of3@x.kr m.p2of3@x.kr")
    #expect(partway.status == .pending && partway.sends == 0 && partway.attempts == 0)
    try ledger.record(
      .sent(messageID: "m.p1of3@x.kr m.p2of3@x.kr m.p3of3@x.kr", documentHash: "h"), delivery: planned[0].id, run: run,
      at: Self.t0)
    let done = try #require(try ledger.deliveries(week: "2025-08-18").first)
    #expect(done.status == .sent && done.sends == 1 && done.attempts == 1)
  }

  @Test(arguments: Backend.allCases)
  func aDeliveryIsClaimedByOneRunAndByAnotherOnlyOnceThatRunEnded(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let a = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h1", pid: 1)
    let b = try ledger.beginRun(kind: .deliverPending, week: "2025-08-18", at: Self.t0, host: "h2", pid: 2)
    let planned = try ledger.plan(week: "2025-08-18", list: "city", recipients: ["a@x.kr", "b@x.kr"], resend: false, at: Self.t0)
    #expect(try ledger.claim(planned[0].id, run: a))
    #expect(try ledger.claim(planned[0].id, run: a), "a run may claim again what it has")
    #expect(try !ledger.claim(planned[0].id, run: b), "claimed by a run still running")
    try ledger.record(.sent(messageID: "m@x.kr", documentHash: "h"), delivery: planned[0].id, run: a, at: Self.t0)
    #expect(try !ledger.claim(planned[0].id, run: b), "sent: nothing to claim")
    // a deferred the other and ended: b may take it.
    #expect(try ledger.claim(planned[1].id, run: a))
    try ledger.record(.deferred(reason: "421"), delivery: planned[1].id, run: a, at: Self.t0)
    #expect(try !ledger.claim(planned[1].id, run: b))
    try ledger.finishRun(a, outcome: .partial, at: Self.t0, sent: 1, pending: 1)
    #expect(try ledger.claim(planned[1].id, run: b))
  }

  /// Two stores opened on one database (two processes, two machines) claim the same
  /// deliveries at once from several threads: each is claimed exactly once.
  @Test(arguments: Backend.allCases)
  func claimsAtOnceFromTwoConnectionsGiveEachDeliveryOneRun(_ backend: Backend) throws {
    guard let first = try backend.makeStore() else { return }
    let second: any SnapshotStoring = try backend.reopen(first)
    let recipients = (1...24).map { "r\($0)@x.kr" }
    let runA = try first.ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h1", pid: 1)
    let runB = try second.ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h2", pid: 2)
    let planned = try first.ledger.plan(week: "2025-08-18", list: "city", recipients: recipients, resend: false, at: Self.t0)
    let stores = [first, second]
    let runs = [runA, runB]
    // Store A goes through the deliveries forwards, B backwards, on several threads: they meet.
    let n = planned.count
    let claims = ParallelWork.map(2 * n, minimumCount: 1) { i -> (delivery: Int, run: Int64?) in
      let side = i < n ? 0 : 1
      let index = side == 0 ? i : 2 * n - 1 - i
      let won = (try? stores[side].ledger.claim(planned[index].id, run: runs[side])) == true
      return (index, won ? runs[side] : nil)
    }
    for (index, delivery) in planned.enumerated() {
      let winners = claims.filter { $0.delivery == index }.compactMap(\.run)
      #expect(winners.count == 1, "\(delivery.recipient): \(winners)")
    }
    let kept = try first.ledger.deliveries(week: "2025-08-18")
    #expect(kept.allSatisfy { $0.claimRun == runA || $0.claimRun == runB })
  }

  @Test(arguments: Backend.allCases)
  func staleAndHeldRunsAreKeptWithTheirGatesAndAHeldReportCountsAsWritten(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let first = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h", pid: 1)
    try ledger.note(run: first, .init(snapshotID: 3, recorded: true, reportKey: "k", gates: "[{\"gate\":\"columns\"}]"))
    try ledger.finishRun(first, outcome: .held, at: Self.t0, reason: "gates tripped: columns")
    let second = try ledger.beginRun(kind: .scheduled, week: "2025-08-25", at: Self.t0.addingTimeInterval(7 * 86_400), host: "h", pid: 2)
    try ledger.note(run: second, .init(snapshotID: 3, recorded: false))
    try ledger.finishRun(second, outcome: .stale, at: Self.t0.addingTimeInterval(7 * 86_400), reason: "no new data")
    let runs = try ledger.runs()
    #expect(runs.map(\.outcome) == [.stale, .held])
    #expect(runs.last?.gates == "[{\"gate\":\"columns\"}]")
    #expect(try ledger.lastPublished(week: "2025-08-18")?.id == first, "a held run's report is written")
    #expect(try ledger.lastPublished(week: "2025-08-25") == nil, "a stale run writes no report")
    #expect(try ledger.reportedEarlier(snapshot: 3, before: "2025-08-25")?.week == "2025-08-18")
    #expect(try ledger.reportedEarlier(snapshot: 3, before: "2025-08-18") == nil)
    #expect(try ledger.lastRun(week: "2025-08-25", outcome: .stale)?.id == second)
    let release = try ledger.beginRun(kind: .release, week: "2025-08-18", at: Self.t0, host: "h", pid: 3)
    #expect(try ledger.runs().first?.id == release && ledger.runs().first?.kind == .release)
  }

  @Test(arguments: Backend.allCases)
  func theRunLockIsTheStoresAndNamesTheRunThatHoldsIt(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let other = try backend.reopen(store)
    let run = try store.ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "web1", pid: 4242)
    var lock = try store.ledger.takeRunLock()
    #expect(lock != nil)
    let refused = #expect(throws: StoreRunLock.Held.self) { try other.ledger.takeRunLock() }
    #expect(refused?.holder?.contains("run \(run), pid 4242 on web1") == true, "\(String(describing: refused))")
    lock = nil
    #expect(try other.ledger.takeRunLock() != nil, "let go when its holder goes")
  }

  /// A store made by the Raon before this ledger (SQLite v6, PostgreSQL 3) keeps every run
  /// and delivery, ids and all, and takes the new outcomes, statuses and kinds after.
  @Test(arguments: Backend.allCases)
  func anOlderLedgerIsMigratedWithEveryRowKept(_ backend: Backend) throws {
    let old: any SnapshotStoring
    let reopen: () throws -> any SnapshotStoring
    switch backend {
    case .sqlite:
      let path = try Fixtures.temporaryDirectory("raon-ledger-v6").appendingPathComponent("raon.sqlite").path
      let pool = try DatabasePool(path: path, configuration: SnapshotStore.configuration())
      old = try SnapshotStore(writer: pool, path: path, fileURL: URL(fileURLWithPath: path), schemaVersion: 6)
      reopen = { try SnapshotStore(path: path) }
    case .postgresql:
      guard let server = PostgresTestServer.available() else { return }
      let url = server.url()
      old = try PostgresSnapshotStore(url: url, environment: server.environment, schemaVersion: 3)
      reopen = { try PostgresSnapshotStore(url: url, environment: server.environment) }
    }
    // The rows an older Raon wrote, in its columns.
    try old.storeAccess.writing { c in
      try c.execute(
        """
        INSERT INTO weekly_run (kind, week, started_at, host, pid, outcome, snapshot_id, recorded, report_key, sent)
        VALUES ('scheduled', '2025-08-11', '2025-08-11T07:00:00.000Z', 'h', 7, 'succeeded', 1, 1, 'k', 2)
        """, [])
      try c.execute(
        """
        INSERT INTO weekly_delivery (week, list, recipient, status, attempts, sends, message_id, run_id, updated_at)
        VALUES ('2025-08-11', 'city', 'a@x.kr', 'sent', 1, 1, 'm@x.kr', 1, '2025-08-11T07:01:00.000Z'),
               ('2025-08-11', 'city', 'b@x.kr', 'pending', 1, 0, NULL, 1, '2025-08-11T07:01:00.000Z')
        """, [])
      return 0
    }
    // The old statuses hold their old CHECK: 'held' is not one yet.
    #expect(throws: (any Error).self) {
      try old.storeAccess.writing { c in
        try c.execute("UPDATE weekly_delivery SET status = 'held' WHERE recipient = 'b@x.kr'", [])
      }
    }
    let store = try reopen()
    let ledger = store.ledger
    let run = try #require(try ledger.runs().first)
    #expect(run.id == 1 && run.outcome == .succeeded && run.sent == 2 && run.reportKey == "k" && run.gates == nil)
    let kept = try ledger.deliveries(week: "2025-08-11")
    #expect(kept.map(\.recipient) == ["a@x.kr", "b@x.kr"])
    #expect(kept.map(\.kind) == [.report, .report])
    #expect(kept.map(\.status) == [.sent, .pending])
    #expect(kept.first?.messageID == "m@x.kr" && kept.first?.sends == 1 && kept.first?.claimRun == nil)
    // The new values are taken now; the ids go on from the old ones.
    let next = try ledger.beginRun(kind: .release, week: "2025-08-11", at: Self.t0, host: "h", pid: 8)
    #expect(next == 2)
    try ledger.finishRun(next, outcome: .held, at: Self.t0, reason: "approve")
    let added = try ledger.plan(week: "2025-08-11", list: "city", recipients: ["c@x.kr"], resend: false, hold: true, at: Self.t0)
    #expect(added.filter { $0.recipient == "c@x.kr" }.map(\.id) == [3])
    _ = try ledger.plan(week: "2025-08-11", list: "city", recipients: ["a@x.kr"], resend: false, kind: .notice, at: Self.t0)
    #expect(try ledger.deliveries(week: "2025-08-11").count == 4)
  }
}

extension Backend {
  /// A second store value on the same database as `store` (another process's, another
  /// machine's): its own connections.
  func reopen(_ store: any SnapshotStoring) throws -> any SnapshotStoring {
    switch self {
    case .sqlite: return try SnapshotStore(path: store.location)
    case .postgresql:
      guard let server = PostgresTestServer.available(), let schema = store.location.split(separator: "=").last else {
        throw StoreError.cannotOpen(path: store.location, reason: "no server")
      }
      return try PostgresSnapshotStore(url: server.url(schema: String(schema)), environment: server.environment)
    }
  }
}
