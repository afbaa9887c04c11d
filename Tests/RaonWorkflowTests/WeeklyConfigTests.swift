import Foundation
import RaonConcurrency
import RaonCore
import RaonMail
import RaonStore
import Testing

@testable import RaonWorkflow

/// `[weekly]` and `[mail]` of `raon.toml`: the keys acceptance checks use (DESIGN.md, "The
/// weekly service") read into typed settings, every mistake naming its line.
@Suite struct WeeklyConfigTests {
  static let design = """
    db = "/var/lib/raon/raon.sqlite"

    [weekly]
    source = "api"                     # or a folder of downloads
    formats = ["pdf", "xlsx"]          # what is written and attached
    districts = "all"
    out = "/srv/raon/reports"          # parent of each week's report folder
    site = "/srv/raon/site"            # optional: the site is rebuilt there
    [mail]
    server = "smtp://mail.example:587" # smtp:// requires STARTTLS; smtps:// is TLS from the start
    from = "culture@example.go.kr"
    user = "culture"                   # password: RAON_SMTP_PASSWORD, or password_file (mode 0600)
    ca_file = "/etc/raon/ca.pem"       # optional: a private CA to trust
    operator = ["ops@example.go.kr"]   # alerts when a run fails or delivers only in part
    city = ["a@example.go.kr"]
    [mail.districts]
    "종로구" = ["b@example.go.kr"]
    """

  @Test func designsExampleReadsIntoTheSettings() throws {
    let config = try RaonConfig.parse(Self.design, path: "raon.toml")
    #expect(config.db == "/var/lib/raon/raon.sqlite")
    let weekly = try #require(config.weekly)
    #expect(weekly.source == .api)
    #expect(weekly.formats == [.pdf, .xlsx])
    #expect(weekly.districts == District.all)
    #expect(weekly.out == "/srv/raon/reports")
    #expect(weekly.site == "/srv/raon/site")
    #expect(weekly.retryFor == 7_200 && weekly.retryWait == 60)
    let mail = try #require(config.mail)
    #expect(mail.server == "smtp://mail.example:587")
    #expect(mail.from.address.text == "culture@example.go.kr")
    #expect(mail.user == "culture" && mail.caFile == "/etc/raon/ca.pem" && mail.passwordFile == nil)
    #expect(mail.operators.map(\.text) == ["ops@example.go.kr"])
    #expect(mail.city.map(\.text) == ["a@example.go.kr"])
    #expect(mail.districts.mapValues { $0.map(\.text) } == ["종로구": ["b@example.go.kr"]])
    #expect(mail.lists.map(\.list) == ["city", "종로구"])
    // The weekly formats are the weekly job's: `raon report` keeps its own defaults.
    #expect(config.formats == nil && config.out == nil)
  }

  @Test func aFolderSourceDurationsAndAShortDistrictList() throws {
    let config = try RaonConfig.parse(
      """
      [weekly]
      source = "/srv/raon/inbox"
      districts = ["중구", "종로구", "중구"]
      retry_for = "1h30m"
      retry_wait = 45
      lock = "/run/raon/weekly.lock"
      """, path: "raon.toml")
    let weekly = try #require(config.weekly)
    #expect(weekly.source == .folder("/srv/raon/inbox"))
    #expect(weekly.districts == ["종로구", "중구"], "in the 25's order, once each")
    #expect(weekly.retryFor == 5_400 && weekly.retryWait == 45)
    #expect(weekly.lock == "/run/raon/weekly.lock")
    #expect(config.mail == nil)
  }

  @Test func everyMistakeNamesItsLine() {
    let cases: [(text: String, line: Int, mentions: String)] = [
      ("[weekly]\nformats = [\"pdf\", \"docx\"]\n", 2, "docx"),
      ("[weekly]\nformats = []\n", 2, "empty"),
      ("[weekly]\n\ndistricts = \"some\"\n", 3, "districts"),
      ("[weekly]\ndistricts = [\"강남구\", \"서울\"]\n", 2, "서울"),
      ("[weekly]\nretry_for = \"soon\"\n", 2, "retry_for"),
      ("[weekly]\nretry_wait = 0\n", 2, "retry_wait"),
      ("[weekly]\nout = \"\"\n", 2, "out"),
      ("[weekly]\nsauce = \"api\"\n", 2, "unknown key 'sauce'"),
      ("weekly = 3\n", 1, "[weekly] section"),
      ("[mail]\nfrom = \"a@b.kr\"\n", 1, "no server"),
      ("[mail]\nserver = \"smtp://m.kr\"\n", 1, "no from"),
      ("[mail]\nserver = \"imap://m.kr\"\nfrom = \"a@b.kr\"\n", 2, "smtp://host:587"),
      ("[mail]\nserver = \"smtp://m.kr\"\nfrom = \"a@b.kr\"\ncity = [\"ok@b.kr\", \"no way\"]\n", 4, "no way"),
      ("[mail]\nserver = \"smtp://m.kr\"\nfrom = \"a@b.kr\"\noperator = 3\n", 4, "operator"),
      ("[mail]\nserver = \"smtp://m.kr\"\nfrom = \"a@b.kr\"\nmax_message_bytes = 5\n", 4, "max_message_bytes"),
      ("[mail]\nserver = \"smtp://m.kr\"\nfrom = \"a@b.kr\"\n[mail.districts]\n\"종로\" = [\"x@b.kr\"]\n", 5, "종로"),
      (
        "[weekly]\ndistricts = [\"중구\"]\n[mail]\nserver = \"smtp://m.kr\"\nfrom = \"a@b.kr\"\n[mail.districts]\n\"종로구\" = [\"x@b.kr\"]\n",
        7, "leaves out"
      ),
    ]
    for c in cases {
      do {
        _ = try RaonConfig.parse(c.text, path: "raon.toml")
        Issue.record("accepted: \(c.text.debugDescription)")
      } catch let WorkflowError.config(path, line, message) {
        #expect(path == "raon.toml" && line == c.line, "\(c.text.debugDescription): line \(line), \(message)")
        #expect(message.contains(c.mentions), "\(c.text.debugDescription): \(message)")
      } catch {
        Issue.record("\(c.text.debugDescription): \(error)")
      }
    }
  }

  @Test func otherSectionsAreStillReadAsIfTheyWereNotThere() throws {
    let config = try RaonConfig.parse("[report]\nlang = \"en\"\n[weekly]\nout = \"r\"\n", path: "raon.toml")
    #expect(config.lang == .en)
    #expect(config.weekly?.out == "r")
  }

  @Test func theWeeksMessageHasItsSubjectInOfficialFormAndKoreanFileNames() throws {
    let week = ISOWeek(containing: try #require(CalendarDay(iso: "2025-08-20")))
    #expect(WeeklyMail.subject(week: week, list: "종로구", language: .ko) == "[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일) — 종로구")
    #expect(WeeklyMail.subject(week: week, list: "city", language: .ko) == "[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일)")
    let newYear = ISOWeek(containing: try #require(CalendarDay(iso: "2025-12-31")))
    #expect(WeeklyMail.subject(week: newYear, list: "city", language: .ko) == "[서울시 문화행사 주간 현황] 2025. 12. 29.(월) ~ 2026. 1. 4.(일)")
    let files = WeeklyMail.attachments(week: week, list: "종로구", formats: [.md, .xlsx, .csv, .pdf])
    #expect(files.map(\.name) == ["서울시_문화행사_주간현황_2025-08-18_종로구.pdf", "서울시_문화행사_주간현황_2025-08-18_종로구.xlsx"])
    #expect(files.map(\.path) == ["2025-W34/districts/종로구/report.pdf", "2025-W34/districts/종로구/report.xlsx"])
    let from = try #require(Mailbox("culture@example.go.kr"))
    #expect(
      WeeklyMail.messageID(week: week, list: "종로구", documentHash: "0123456789abcdef", resendRun: nil, from: from)
        == "raon.20250818.d23.0123456789ab@example.go.kr")
    #expect(
      WeeklyMail.messageID(week: week, list: "city", documentHash: "0123456789abcdef", resendRun: 9, from: from)
        == "raon.20250818.city.0123456789ab.r9@example.go.kr")
  }

  @Test func theServiceIsWellOnlyWhenTheLastScheduledRunSucceededLatelyAndNothingIsPending() {
    let now = Date(timeIntervalSince1970: 1_755_468_000)
    func run(_ outcome: WeeklyRunRecord.Outcome, daysAgo: Double, pid: Int = 1) -> WeeklyRunRecord {
      WeeklyRunRecord(
        id: 3, kind: .scheduled, week: "2025-08-18", startedAt: now.addingTimeInterval(-daysAgo * 86_400), host: "h",
        pid: pid, outcome: outcome, failedStep: outcome == .failed ? "pull" : nil, reason: outcome == .failed ? "down" : nil)
    }
    #expect(RunsListing.health(lastScheduled: run(.succeeded, daysAgo: 1), pending: 0, now: now, host: "h").status == nil)
    #expect(RunsListing.health(lastScheduled: nil, pending: 0, now: now, host: "h").status == .failure)
    let stale = RunsListing.health(lastScheduled: run(.succeeded, daysAgo: 8.1), pending: 0, now: now, host: "h")
    #expect(stale.status == .failure && stale.problem?.contains("8 days") == true)
    let failed = RunsListing.health(lastScheduled: run(.failed, daysAgo: 0.1), pending: 0, now: now, host: "h")
    #expect(failed.status == .failure && failed.problem?.contains("failed at pull: down") == true)
    #expect(RunsListing.health(lastScheduled: run(.interrupted, daysAgo: 0.1), pending: 0, now: now, host: "h").status == .failure)
    #expect(RunsListing.health(lastScheduled: run(.partial, daysAgo: 0.1), pending: 3, now: now, host: "h").status == .pending)
    #expect(RunsListing.health(lastScheduled: run(.partial, daysAgo: 0.1), pending: 0, now: now, host: "h").status == nil)
    let gone = RunsListing.health(lastScheduled: run(.running, daysAgo: 0.1), pending: 0, now: now, host: "h", alive: { _ in false })
    #expect(gone.status == .failure)
    #expect(RunsListing.health(lastScheduled: run(.running, daysAgo: 0.1), pending: 0, now: now, host: "h", alive: { _ in true }).status == nil)
  }

  @Test func retriesWaitLongerEachTimeAndStopWhenTheConfiguredTimeIsUp() async throws {
    #expect((1...7).map { Retrying.wait(after: $0, first: .seconds(60), maximum: .seconds(900)) }
      == [60, 120, 240, 480, 900, 900, 900].map { Duration.seconds($0) })
    final class Count: @unchecked Sendable { var attempts = 0; var slept: [Duration] = [] }
    let count = Count()
    struct Down: Error {}
    await #expect(throws: Down.self) {
      try await Retrying.run(
        for: .seconds(1_000), first: .seconds(60), maximum: .seconds(900), isRetryable: { $0 is Down },
        sleep: { count.slept.append($0) }
      ) { () async throws -> Int in
        count.attempts += 1
        throw Down()
      }
    }
    // 60 + 120 + 240 + 480 = 900 ≤ 1,000; the next wait (900) would pass it.
    #expect(count.attempts == 5)
    #expect(count.slept == [60, 120, 240, 480].map { Duration.seconds($0) })
  }
}
