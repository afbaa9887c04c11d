import Foundation
import RaonCore
import RaonStoreCore
import Testing
import TestSupport

/// The ledger of weekly runs and deliveries, written once over both databases: the same
/// rows and answers from SQLite and PostgreSQL, one short transaction per change.
@Suite struct RunLedgerTests {
  static let t0 = Date(timeIntervalSince1970: 1_755_468_000)  // 2025-08-18 07:00 KST

  @Test(arguments: Backend.allCases)
  func aRunIsRecordedFromItsStartToItsEndWithWhatItLearnt(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let first = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h1", pid: 41)
    let second = try ledger.beginRun(kind: .rerun, week: "2025-08-11", at: Self.t0.addingTimeInterval(60), host: "h1", pid: 42)
    #expect(second > first)
    try ledger.note(run: first, .init(snapshotID: 7, recorded: true, catalogDigest: "d1"))
    try ledger.note(run: first, .init(reportKey: "k1"))
    try ledger.finishRun(first, outcome: .partial, at: Self.t0.addingTimeInterval(125), sent: 20, pending: 6, refused: 1)
    try ledger.finishRun(
      second, outcome: .failed, at: Self.t0.addingTimeInterval(90), failedStep: "pull", reason: "the Open API did not answer")

    let runs = try ledger.runs()
    #expect(runs.map(\.id) == [second, first])
    let run = try #require(runs.last)
    #expect(run.kind == .scheduled && run.week == "2025-08-18" && run.outcome == .partial)
    #expect(run.snapshotID == 7 && run.recorded && run.catalogDigest == "d1" && run.reportKey == "k1")
    #expect(run.sent == 20 && run.pending == 6 && run.refused == 1)
    #expect(run.endedAt == Self.t0.addingTimeInterval(125))
    #expect(runs.first?.failedStep == "pull" && runs.first?.reason == "the Open API did not answer")
    #expect(try ledger.lastRun(kind: .scheduled)?.id == first)
    #expect(try ledger.lastPublished(week: "2025-08-18")?.id == first)
    #expect(try ledger.lastPublished(week: "2025-08-11") == nil, "a failed run published nothing")
    #expect(try ledger.catalogDigest(ofSnapshot: 7) == "d1")
    #expect(try ledger.catalogDigest(ofSnapshot: 8) == nil)
  }

  /// The next run holds the store's run lock, which a live run would hold: every run still
  /// marked running, of any machine, ended without finishing.
  @Test(arguments: Backend.allCases)
  func aRunLeftRunningIsClosedAsInterruptedByTheNextWhateverMachineRanIt(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let killed = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h1", pid: 41)
    let elsewhere = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h2", pid: 41)
    let next = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0.addingTimeInterval(600), host: "h1", pid: 50)
    #expect(try ledger.closeAbandonedRuns(except: next, at: Self.t0.addingTimeInterval(600)) == 2)
    let byID = Dictionary(uniqueKeysWithValues: try ledger.runs().map { ($0.id, $0) })
    #expect(byID[killed]?.outcome == .interrupted)
    #expect(byID[killed]?.reason?.contains("without finishing") == true)
    #expect(byID[elsewhere]?.outcome == .interrupted)
    #expect(byID[next]?.outcome == .running)
  }

  @Test(arguments: Backend.allCases)
  func aRecipientWhoHasTheMessageIsPlannedNoSecondCopyUnlessResent(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    let run = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: Self.t0, host: "h", pid: 1)
    let planned = try ledger.plan(week: "2025-08-18", list: "종로구", recipients: ["a@x.kr", "b@x.kr"], resend: false, at: Self.t0)
    #expect(planned.map(\.recipient) == ["a@x.kr", "b@x.kr"])
    #expect(planned.allSatisfy { $0.status == .pending && $0.attempts == 0 })
    try ledger.record(.sent(messageID: "m1@x.kr", documentHash: "h1"), delivery: planned[0].id, run: run, at: Self.t0)
    try ledger.record(.deferred(reason: "421 later"), delivery: planned[1].id, run: run, at: Self.t0)

    // Planned again: only b, still pending, with its one attempt.
    let again = try ledger.plan(week: "2025-08-18", list: "종로구", recipients: ["a@x.kr", "b@x.kr"], resend: false, at: Self.t0)
    #expect(again.map(\.recipient) == ["b@x.kr"])
    #expect(again.first?.attempts == 1 && again.first?.lastError == "421 later")
    #expect(try ledger.pendingDeliveries().map(\.recipient) == ["b@x.kr"])
    try ledger.record(.refused(reason: "550 no such user"), delivery: planned[1].id, run: run, at: Self.t0)
    #expect(try ledger.pendingDeliveries().isEmpty)

    // --resend: both pending again; a's earlier send is still counted.
    let resent = try ledger.plan(week: "2025-08-18", list: "종로구", recipients: ["a@x.kr", "b@x.kr"], resend: true, at: Self.t0)
    #expect(resent.count == 2)
    try ledger.record(.sent(messageID: "m2@x.kr", documentHash: "h2"), delivery: planned[0].id, run: run, at: Self.t0)
    let a = try ledger.deliveries(week: "2025-08-18").first { $0.recipient == "a@x.kr" }
    #expect(a?.sends == 2 && a?.attempts == 2 && a?.messageID == "m2@x.kr" && a?.documentHash == "h2" && a?.status == .sent)
    #expect(a?.sentAt == Self.t0 && a?.runID == run)
  }

  @Test(arguments: Backend.allCases)
  func aWeeksMessageIsKeptOncePerListAndReplacedWhenWrittenAgain(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let ledger = store.ledger
    func message(_ hash: String) -> WeeklyMessageRecord {
      WeeklyMessageRecord(
        week: "2025-08-18", list: "city", subject: "[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일)",
        summary: "{\"title\":\"서울시\"}", attachments: "[]", documentHash: hash, updatedAt: Self.t0)
    }
    try ledger.saveMessage(message("h1"))
    try ledger.saveMessage(message("h2"))
    let kept = try ledger.messages(week: "2025-08-18")
    #expect(kept == [message("h2")])
    #expect(try ledger.messages(week: "2025-08-25").isEmpty)
  }
}
