import Foundation
import TestSupport
import Testing

/// A Monday with nothing new: the real binary on the clock `RAON_NOW` sets, a folder of
/// downloads, a real SMTP server on 127.0.0.1 (STARTTLS, AUTH), on SQLite and PostgreSQL.
/// The offices get nothing (or, with `stale_notice`, the notice), the operators the alert,
/// the ledger and `raon runs` say `stale`, and both exit 66.
@Suite(.serialized) struct WeeklyStaleEndToEndTests {
  @Test func aSecondMondayWithNoNewDownloadSendsNothingAndIsStale() async throws {
    try await Self.staleMondays(.sqlite, label: "sqlite", more: true)
  }

  @Test func onPostgreSQLASecondMondayWithNoNewDownloadSendsNothingAndIsStale() async throws {
    guard let server = PostgresTestServer.available() else { return }
    try await Self.staleMondays(.postgres(server), label: "pg", more: false)
  }

  static let lists = WeeklyFixture.lists

  static func staleMondays(_ backend: WeeklyFixture.Backend, label: String, more: Bool) async throws {
    let f = try await WeeklyFixture.make("stale-\(label)", backend: backend)
    defer { f.stop() }
    try f.useInbox()
    let same = try f.gateCase("same")
    try f.drop(same.base, at: "2025-08-18T06:52:00+09:00")
    let first = try await f.weekly(at: WeeklyFixture.monday(1))
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    #expect(first.stderr.contains("RAON_NOW sets this run's clock"), "\(first.stderr)")
    #expect(first.stdout.contains("gates: nothing to compare with yet"), "\(first.stdout)")
    let afterFirst = try f.smtp.messages()
    #expect(afterFirst.count == 5)
    #expect(afterFirst.allSatisfy { ($0["subject"] as? String)?.contains("2025. 8. 18.(월) ~ 8. 24.(일)") == true })

    // A week later the folder holds the same download: nothing new.
    let dry = try await f.weekly(["--dry-run"], at: WeeklyFixture.monday(2))
    #expect(dry.status == 0, "\(dry.stdout) \(dry.stderr)")
    #expect(dry.stdout.contains("freshness: STALE — no new data since 18 Aug 2025 (snapshot 1, already reported for the week of 2025-08-18)"), "\(dry.stdout)")
    #expect(dry.stdout.contains("mail: would send the offices nothing, and the operators the alert"), "\(dry.stdout)")
    let stale = try await f.weekly(at: WeeklyFixture.monday(2))
    #expect(stale.status == 66, "\(stale.stdout) \(stale.stderr)")
    let errors = stale.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
    #expect(errors.count == 1, "\(stale.stderr)")
    #expect(errors.first?.contains("no new data since 18 Aug 2025") == true, "\(stale.stderr)")
    #expect(!FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("out/2025-W35").path), "a stale week wrote a report")

    // The offices got nothing; the operators the alert, in Korean, with what to do.
    let received = try f.smtp.messages()
    #expect(received.count == 6, "\(received.map { $0["subject"] ?? "" })")
    let alert = try #require(received.last)
    #expect(WeeklyFixture.recipients(alert) == ["ops@example.go.kr"])
    #expect(alert["subject"] as? String == "[raon weekly] 2025. 8. 25.(월) 주: 2025. 8. 18. 이후 새 자료 없음 — 발송하지 않음")
    let text = alert["text"] as? String ?? ""
    for line in [
      "2025. 8. 25.(월) ~ 8. 31.(일) 주간 실행(실행 2)에서 새 자료를 찾지 못해",
      "최근 자료: 2025. 8. 18.(월) 06:52 수집 (스냅샷 1)",
      "이 자료의 보고서: 2025. 8. 18.(월) ~ 8. 24.(일) 주간으로 이미 작성·발송됨",
      "폴더 inbox의 가장 새 파일 서울시 문화행사 정보.csv",
      "각 기관에는 아무것도 보내지 않았습니다.",
      "raon weekly --dry-run",
    ] {
      #expect(text.contains(line), "\(line) — \(text)")
    }
    #expect((alert["html"] as? String)?.contains("<li>최근 자료: 2025. 8. 18.(월) 06:52 수집 (스냅샷 1)</li>") == true)
    if label == "sqlite" { f.keep(alert, index: received.count, as: "stale-monday") }

    let (status, json, stderr) = try await f.runs(at: WeeklyFixture.monday(2, at: "08:00"))
    #expect(status == 66, "\(stderr)")
    #expect(stderr.contains("sent nothing: no new data since 18 Aug 2025"), "\(stderr)")
    let run = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(run["outcome"] as? String == "stale")
    #expect(run["week"] as? String == "2025-08-25")
    #expect(run["snapshotId"] as? Int == 1)
    #expect((run["reason"] as? String)?.contains("nothing sent to the offices") == true, "\(run)")
    #expect(json["healthy"] as? Bool == false)
    #expect(try await f.snapshotCount() == 1)
    guard more else { return }

    // The third Monday, still nothing new, with stale_notice: each list gets the notice,
    // once, however often the week is run.
    try f.useInbox(weekly: "stale_notice = true")
    let noticed = try await f.weekly(at: WeeklyFixture.monday(3))
    #expect(noticed.status == 66, "\(noticed.stdout) \(noticed.stderr)")
    let again = try await f.weekly(at: WeeklyFixture.monday(3, at: "07:10"))
    #expect(again.status == 66, "\(again.stdout) \(again.stderr)")
    let third = Array(try f.smtp.messages().dropFirst(6))
    let notices = third.filter { WeeklyFixture.recipients($0) != ["ops@example.go.kr"] }
    #expect(notices.count == 5, "\(third.map { $0["subject"] ?? "" })")
    for message in notices {
      let to = WeeklyFixture.recipients(message).first ?? ""
      let list = Self.lists.first { $0.value.contains(to) }?.key ?? "?"
      #expect(message["subject"] as? String
        == "[서울시 문화행사 주간 현황] 2025. 9. 1.(월) ~ 9. 7.(일) 자료 미갱신 안내" + (list == "city" ? "" : " — \(list)"))
      let body = message["text"] as? String ?? ""
      #expect(body.contains("이번 주(2025. 9. 1.(월) ~ 9. 7.(일))에는 서울시 문화행사 자료가 새로 갱신되지 않아 주간 현황 보고서를 보내 드리지 않습니다."), "\(body)")
      #expect(body.contains("현재 최신 자료는 2025. 8. 18.(월) 06:52 기준이며, 이 자료로 작성한 2025. 8. 18.(월) ~ 8. 24.(일) 주간 현황은 이미 보내 드렸습니다."), "\(body)")
      #expect((message["attachments"] as? [Any])?.isEmpty != false)
    }
    #expect(third.filter { WeeklyFixture.recipients($0) == ["ops@example.go.kr"] }.count == 2, "an alert per stale run")
    let noticeAlert = third.first { WeeklyFixture.recipients($0) == ["ops@example.go.kr"] }
    #expect((noticeAlert?["text"] as? String)?.contains("‘자료 미갱신 안내’ 5건을 보냈습니다") == true, "\(noticeAlert?["text"] ?? "")")

    // The download comes that Monday: the week is sent after all.
    let minor = try f.gateCase("minor")
    try f.drop(minor.case, at: "2025-09-01T09:30:00+09:00")
    let fresh = try await f.weekly(at: WeeklyFixture.monday(3, at: "10:00"))
    #expect(fresh.status == 0, "\(fresh.stdout) \(fresh.stderr)")
    #expect(fresh.stdout.contains("passes  changed_share: 4,998건 중 10건 (0.2%)"), "\(fresh.stdout)")
    let reports = Array(try f.smtp.messages().dropFirst(6 + third.count))
    #expect(reports.count == 5)
    #expect(reports.allSatisfy { ($0["subject"] as? String)?.contains("2025. 9. 1.(월) ~ 9. 7.(일)") == true && ($0["subject"] as? String)?.contains("안내") == false })
    let week3 = try await f.runs(at: WeeklyFixture.monday(3, at: "11:00"))
    #expect(week3.status == 0, "\(week3.stderr)")
    let kinds = f.deliveries(week3.json).filter { $0["week"] as? String == "2025-09-01" }.map { "\($0["kind"] ?? "")/\($0["status"] ?? "")" }
    #expect(kinds.sorted() == Array(repeating: "notice/sent", count: 5) + Array(repeating: "report/sent", count: 5))

    // A new download collected longer ago than max_age: recorded, not sent.
    try f.useInbox(weekly: "max_age = \"3d\"")
    try f.drop(minor.base, at: "2025-09-03T10:00:00+09:00", as: "older.csv")
    let old = try await f.weekly(at: WeeklyFixture.monday(4))
    #expect(old.status == 66, "\(old.stdout) \(old.stderr)")
    #expect(old.stderr.contains("4 days old, over max_age 3 days"), "\(old.stderr)")
    #expect(old.stdout.contains("recorded snapshot 3"), "\(old.stdout)")
    #expect(try await f.snapshotCount() == 3)
    let last = try #require(try f.smtp.messages().last)
    #expect(WeeklyFixture.recipients(last) == ["ops@example.go.kr"])
    #expect((last["text"] as? String)?.contains("수집 후 4일 지남 (max_age 3일)") == true, "\(last["text"] ?? "")")
  }

  /// The Open API serving last week's catalog unchanged is a stale week too: no copy of the
  /// snapshot is recorded to hide it.
  @Test func theOpenAPIServingLastWeeksCatalogIsStale() async throws {
    let f = try await WeeklyFixture.make("stale-api")
    defer { f.stop() }
    try f.writeConfig()
    let first = try await f.weekly(at: WeeklyFixture.monday(1))
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    let second = try await f.weekly(at: WeeklyFixture.monday(2))
    #expect(second.status == 66, "\(second.stdout) \(second.stderr)")
    #expect(second.stdout.contains("the Open API serves the same catalog as snapshot 1"), "\(second.stdout)")
    #expect(try await f.snapshotCount() == 1)
    let alert = try #require(try f.smtp.messages().last)
    #expect((alert["text"] as? String)?.contains("자료 출처: Open API (지난번과 같은 목록)") == true)
  }
}
