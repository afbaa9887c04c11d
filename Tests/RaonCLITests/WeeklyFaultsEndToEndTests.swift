import Foundation
import RaonConcurrency
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `raon weekly` when things go wrong: the mail server going away in the middle of a run,
/// an address refused, the Open API down, two runs at once, a run killed or stopped.
@Suite(.serialized) struct WeeklyFaultsEndToEndTests {
  /// Every recipient of the fixture's lists.
  static var everyone: Set<String> { Set(WeeklyFixture.lists.values.flatMap { $0 }) }

  static func recipients(_ messages: some Sequence<[String: Any]>) -> [String] {
    messages.flatMap { ($0["envelope"] as? [String: Any])?["rcpt_tos"] as? [String] ?? [] }
  }

  @Test func theMailServerGoingAwayMidRunLeavesExactlyTheRestPendingAndALaterRunSendsThose() async throws {
    try await Self.serverGoesAway(.sqlite, label: "sqlite")
  }

  @Test func onPostgreSQLTheMailServerGoingAwayMidRunLeavesExactlyTheRestPending() async throws {
    guard let server = PostgresTestServer.available() else { return }
    try await Self.serverGoesAway(.postgres(server), label: "pg")
  }

  static func serverGoesAway(_ backend: WeeklyFixture.Backend, label: String) async throws {
    let f = try await WeeklyFixture.make("away-\(label)", backend: backend, smtpOptions: .init(stopAfter: 2))
    defer { f.stop() }
    let run = try await f.weekly()
    #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("pending"), "\(run.stderr)")
    // The report and the site are published all the same.
    #expect(FileManager.default.fileExists(atPath: f.published("city", "pdf").path))
    #expect(FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("site/index.html").path))
    f.smtp.waitUntilGone()
    let firstBatch = Self.recipients(try f.smtp.messages())
    #expect(firstBatch.count == 2)

    let (status, json, stderr) = try await f.runs()
    #expect(status == 75, "\(stderr)")
    let pending = f.deliveries(json).filter { $0["status"] as? String == "pending" }.compactMap { $0["recipient"] as? String }
    #expect(Set(pending) == Self.everyone.subtracting(firstBatch), "exactly the undelivered are pending")
    #expect(pending.count == Self.everyone.count - 2)
    #expect((json["runs"] as? [[String: Any]])?.first?["outcome"] as? String == "partial")

    // The server is back: --deliver-pending sends exactly those, once.
    f.smtp = try f.smtp.restart()
    let later = try await f.weekly(["--deliver-pending"])
    #expect(later.status == 0, "\(later.stdout) \(later.stderr)")
    let all = Self.recipients(try f.smtp.messages())
    #expect(all.count == Self.everyone.count, "\(all)")
    #expect(Set(all.dropFirst(2)) == Set(pending))
    #expect(Set(all) == Self.everyone)
    // …as the same messages the others got (one Message-ID per list).
    let ids = Set(try f.smtp.messages().compactMap { $0["messageId"] as? String })
    #expect(ids.count == 4)
    let after = try await f.runs()
    #expect(after.status == 0, "\(after.stderr)")
    // A scheduled run now sends nothing more.
    let again = try await f.weekly()
    #expect(again.status == 0, "\(again.stderr)")
    #expect(Self.recipients(try f.smtp.messages()).count == Self.everyone.count)
  }

  @Test func oneRefusedAddressDoesNotStopTheOthersAndTheOperatorIsTold() async throws {
    let f = try await WeeklyFixture.make(
      "refused", smtpOptions: .init(reject: ["nobody@example.go.kr"]), extraLists: ["종로구": ["nobody@example.go.kr"]])
    defer { f.stop() }
    // 종로구's list is jongno@ and the refused nobody@; nobody@ comes last in that list.
    let run = try await f.weekly()
    #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("1 refused"), "\(run.stderr)")
    let received = try f.smtp.messages()
    let delivered = Self.recipients(received)
    #expect(Set(delivered.filter { $0 != "ops@example.go.kr" }) == Self.everyone)
    let (_, json, _) = try await f.runs()
    let refused = f.deliveries(json).filter { $0["status"] as? String == "refused" }
    #expect(refused.count == 1)
    #expect(refused.first?["recipient"] as? String == "nobody@example.go.kr")
    #expect((refused.first?["lastError"] as? String)?.contains("550") == true)
    // The operator's alert: one line.
    let alert = received.first { (($0["envelope"] as? [String: Any])?["rcpt_tos"] as? [String]) == ["ops@example.go.kr"] }
    let alertText = (alert?["text"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(alertText.contains("delivered in part"), "\(alertText)")
    #expect(!alertText.contains("\n"))
    // Nothing pending: the next run is done (the address stays refused until raon.toml changes).
    let next = try await f.weekly()
    #expect(next.status == 0, "\(next.stderr)")
  }

  @Test func aServerThatOffersNoSTARTTLSGetsNoPasswordAndNoMessage() async throws {
    let f = try await WeeklyFixture.make("no-starttls", smtpOptions: .init(noStartTLS: true))
    defer { f.stop() }
    let run = try await f.weekly()
    #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
    #expect(!run.stderr.contains(WeeklyFixture.smtpPassword))
    // The server would take the login and the messages in clear: it got neither.
    #expect(try f.smtp.messages().isEmpty)
    #expect(FileManager.default.fileExists(atPath: f.published("city", "pdf").path))
    let (_, json, _) = try await f.runs()
    let deliveries = f.deliveries(json)
    #expect(Set(deliveries.compactMap { $0["recipient"] as? String }) == Self.everyone)
    #expect(deliveries.allSatisfy { $0["status"] as? String == "pending" }, "\(deliveries)")
  }

  @Test func theAPIDownMakesTheRunFailInOneLineWithTheEarlierReportIntact() async throws {
    let f = try await WeeklyFixture.make("api-down")
    defer { f.stop() }
    let first = try await f.weekly()
    #expect(first.status == 0, "\(first.stderr)")
    let before = f.publishedFiles()
    let bytes = try Data(contentsOf: f.published("city", "pdf"))
    let mailed = try f.smtp.messages().count

    await f.api.stop()
    // Each pull already retries its requests for ~8 s (the API client's own backoff): give
    // the run's retries the time for a second and a third pull.
    let config = f.dir.appendingPathComponent("raon.toml")
    try Data(try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "retry_for = \"3s\"", with: "retry_for = \"20s\"").utf8)
      .write(to: config)
    let started = Date()
    let down = try await f.weekly()
    #expect(down.status == 1, "\(down.stdout) \(down.stderr)")
    let errorLines = down.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
    #expect(errorLines.count == 1, "\(down.stderr)")
    #expect(errorLines.first?.contains("failed at pull") == true, "\(down.stderr)")
    #expect(down.stderr.contains("trying again"), "the pull was retried: \(down.stderr)")
    #expect(Date().timeIntervalSince(started) < 120)
    #expect(f.changedSince(before).isEmpty, "the earlier report and site are as they were: \(f.changedSince(before).prefix(5))")
    #expect(try Data(contentsOf: f.published("city", "pdf")) == bytes)
    #expect(try await f.snapshotCount() == 1, "nothing partial recorded")

    let (status, json, stderr) = try await f.runs()
    #expect(status == 1)
    #expect(stderr.contains("failed at pull"), "\(stderr)")
    let run = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(run["outcome"] as? String == "failed")
    #expect(run["failedStep"] as? String == "pull")
    #expect((run["reason"] as? String)?.isEmpty == false)
    // The operator heard of it, in one line; the recipients got nothing new.
    let received = try f.smtp.messages()
    #expect(received.count == mailed + 1)
    let alert = received.last ?? [:]
    #expect((alert["to"] as? [String]) == ["ops@example.go.kr"])
    #expect((alert["subject"] as? String)?.contains("failed at pull") == true)
    // The API key never reached the ledger or the output.
    #expect(!(run["reason"] as? String ?? "").contains(WeeklyFixture.apiKey))
    #expect(!down.stderr.contains(WeeklyFixture.apiKey))
  }

  @Test func aSiteThatCannotBeWrittenDoesNotHoldTheMailBackAndTheErrorSaysSo() async throws {
    let f = try await WeeklyFixture.make("site-fails")
    defer { f.stop() }
    // A file where the site's folder should be: the site cannot be written there.
    let blocker = f.dir.appendingPathComponent("site")
    try Data("not a folder\n".utf8).write(to: blocker)
    let run = try await f.weekly()
    #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
    let errorLines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
    #expect(errorLines.count == 1, "\(run.stderr)")
    let line = String(errorLines.first ?? "")
    #expect(line.contains("failed at site"), "\(line)")
    #expect(line.contains("the report was published and the messages went out all the same"), "\(line)")
    #expect(line.contains("the earlier site was left as it was"), "\(line)")
    #expect(!line.contains("the earlier report and site were left as they were"), "\(line)")
    // As it says: the report is published, everyone got their message, the file is untouched.
    #expect(FileManager.default.fileExists(atPath: f.published("city", "pdf").path))
    let received = try f.smtp.messages()
    #expect(Set(Self.recipients(received).filter { $0 != "ops@example.go.kr" }) == Self.everyone)
    #expect(try String(contentsOf: blocker, encoding: .utf8) == "not a folder\n")
    let (status, json, _) = try await f.runs()
    #expect(status == 1)
    let last = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(last["failedStep"] as? String == "site", "\(last)")
    #expect(f.deliveries(json).allSatisfy { $0["status"] as? String == "sent" }, "\(f.deliveries(json))")
  }

  /// The city's PDF and workbook together over `max_message_bytes` (at 20,000 programs they
  /// are ~14 MB against the default 10.24 MB): the message goes in parts, "(1/2)" and "(2/2)",
  /// each under the cap, the files byte-identical; a server gone between the parts leaves
  /// only the second pending for that recipient, and the next run sends only it.
  @Test func aMessageOverTheSizeCapGoesInPartsAndAPartTakenIsNotSentAgain() async throws {
    let f = try await WeeklyFixture.make("parts")
    defer { f.stop() }
    let first = try await f.weekly()
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    let pdf = try Data(contentsOf: f.published("city", "pdf"))
    let xlsx = try Data(contentsOf: f.published("city", "xlsx"))
    // A cap each file fits under with page 1 (base64: 4 bytes for 3, a line break each 76), the two together not.
    func encoded(_ n: Int) -> Int { (n + 2) / 3 * 4 * 78 / 76 }
    let cap = encoded(max(pdf.count, xlsx.count)) + 60_000
    try #require(cap < encoded(pdf.count + xlsx.count), "the fixture's files are too small to need parts")
    let config = f.dir.appendingPathComponent("raon.toml")
    try Data(
      try String(contentsOf: config, encoding: .utf8)
        .replacingOccurrences(of: "from = \"culture@example.go.kr\"", with: "from = \"culture@example.go.kr\"\nmax_message_bytes = \(cap)")
        .utf8
    ).write(to: config)
    let dry = try await f.weekly(["--dry-run", "--resend"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("sent as 2 messages"), "\(dry.stdout)")
    let before = try f.smtp.messages().count

    // The server takes one message and goes away: city1's part 1, then nothing.
    f.smtp = try f.smtp.restart(options: .init(stopAfter: 1))
    let cut = try await f.weekly(["--resend"])
    #expect(cut.status == 75, "\(cut.stdout) \(cut.stderr)")
    f.smtp.waitUntilGone()
    let (_, json, _) = try await f.runs()
    let city1 = f.deliveries(json).first { $0["recipient"] as? String == "city1@example.go.kr" } ?? [:]
    #expect(city1["status"] as? String == "pending", "\(city1)")
    #expect((city1["messageId"] as? String)?.hasSuffix(".p1of2@example.go.kr") == true, "\(city1)")

    f.smtp = try f.smtp.restart()
    let later = try await f.weekly(["--deliver-pending"])
    #expect(later.status == 0, "\(later.stdout) \(later.stderr)")
    let received = Array(try f.smtp.messages().dropFirst(before))
    let subject = WeeklyFixture.subject("city")
    func got(_ who: String) -> [[String: Any]] { received.filter { Self.recipients([$0]) == [who] } }
    // city1: part 1 before the server went, part 2 after — never part 1 twice.
    #expect(got("city1@example.go.kr").map { $0["subject"] as? String ?? "" } == ["\(subject) (1/2)", "\(subject) (2/2)"])
    #expect(got("city2@example.go.kr").map { $0["subject"] as? String ?? "" } == ["\(subject) (1/2)", "\(subject) (2/2)"])
    for message in got("city1@example.go.kr") + got("city2@example.go.kr") {
      #expect((message["bytes"] as? Int ?? .max) <= cap)
      #expect((message["defects"] as? [String])?.isEmpty == true)
    }
    // The parts carry the published files, in order, byte for byte; each part's text says where each is.
    let parts = got("city2@example.go.kr")
    let files = parts.flatMap { $0["attachments"] as? [[String: Any]] ?? [] }
    #expect(files.compactMap { $0["filename"] as? String } == WeeklyFixture.attachmentNames("city"))
    #expect(files.compactMap { $0["sha256"] as? String } == [try WeeklyFixture.sha256(f.published("city", "pdf")), try WeeklyFixture.sha256(f.published("city", "xlsx"))])
    #expect((parts.first?["text"] as? String)?.contains("2통에 나누어 보냅니다. 이 메일은 1/2입니다.") == true)
    // A district's message fits: whole, as before.
    #expect(got("jongno@example.go.kr").map { $0["subject"] as? String ?? "" } == [WeeklyFixture.subject("종로구")])
    let (status, after, _) = try await f.runs()
    #expect(status == 0)
    #expect(f.deliveries(after).allSatisfy { $0["status"] as? String == "sent" }, "\(f.deliveries(after))")
    // And a scheduled run sends nothing more.
    let again = try await f.weekly()
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try f.smtp.messages().count == before + received.count)
    // --resend sends every part again (two city recipients × 2 parts, three districts × 1).
    let resent = try await f.weekly(["--resend"])
    #expect(resent.status == 0, "\(resent.stderr)")
    #expect(try f.smtp.messages().count == before + received.count + 7)
  }

  @Test func aMessageOverTheSizeCapStopsTheDeliveriesBeforeAnyIsSentAndLeavesThemPending() async throws {
    let f = try await WeeklyFixture.make("size-cap")
    defer { f.stop() }
    // 10,000 bytes (the least the key takes): every message, with its PDF and workbook, is bigger.
    let config = f.dir.appendingPathComponent("raon.toml")
    try Data(
      try String(contentsOf: config, encoding: .utf8)
        .replacingOccurrences(of: "from = \"culture@example.go.kr\"", with: "from = \"culture@example.go.kr\"\nmax_message_bytes = 10000")
        .utf8
    ).write(to: config)
    let run = try await f.weekly()
    #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
    let errorLines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
    #expect(errorLines.count == 1, "\(run.stderr)")
    let line = String(errorLines.first ?? "")
    #expect(line.contains("failed at deliver"), "\(line)")
    #expect(line.contains("over max_message_bytes"), "\(line)")
    #expect(line.contains("the report and site were published; the deliveries stay pending"), "\(line)")
    #expect(!line.contains("the earlier report and site were left as they were"), "\(line)")
    // As it says: published, nothing sent to anyone on the lists, every delivery pending.
    #expect(FileManager.default.fileExists(atPath: f.published("city", "pdf").path))
    #expect(FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("site/index.html").path))
    #expect(Self.recipients(try f.smtp.messages()).filter { $0 != "ops@example.go.kr" }.isEmpty)
    let (_, json, _) = try await f.runs()
    let last = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(last["failedStep"] as? String == "deliver", "\(last)")
    let pending = f.deliveries(json).filter { $0["status"] as? String == "pending" }.compactMap { $0["recipient"] as? String }
    #expect(Set(pending) == Self.everyone, "\(f.deliveries(json))")
  }

  @Test func aSecondRunWhileOneRunsExitsAtOnceAndAKilledRunLeavesNoLock() async throws {
    let f = try await WeeklyFixture.make("lock")
    defer { f.stop() }
    // The first page answers after 4 s: the first run holds the store's lock meanwhile.
    await f.api.inject(.delay(.seconds(4)), forPageStarting: 1, times: 1)
    let slow = try RaonProcess.start(["weekly"], in: f.dir, environment: f.environment)
    #expect(Polling.until(timeout: 10, every: 0.05) { Self.runningPID(f) == Int(slow.processIdentifier) })
    let started = Date()
    let second = try await f.weekly()
    #expect(second.status == 69, "\(second.stdout) \(second.stderr)")
    #expect(second.stderr.contains("another raon weekly is running (run 1, pid \(slow.processIdentifier) on "), "\(second.stderr)")
    #expect(Date().timeIntervalSince(started) < 3, "the second run waited")
    slow.waitUntilExit()
    #expect(slow.terminationStatus == 0)
    #expect(try f.smtp.messages().count == 5)

    // A run killed outright (SIGKILL) while it holds the lock: the next one runs.
    await f.api.inject(.delay(.seconds(30)), forPageStarting: 1, times: 1)
    let killed = try RaonProcess.start(["weekly", "--resend"], in: f.dir, environment: f.environment)
    #expect(Polling.until(timeout: 10, every: 0.05) { Self.runningPID(f) == Int(killed.processIdentifier) })
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()
    let next = try await f.weekly()
    #expect(next.status == 0, "\(next.stdout) \(next.stderr)")
    let (_, json, _) = try await f.runs()
    let outcomes = (json["runs"] as? [[String: Any]] ?? []).map { $0["outcome"] as? String ?? "" }
    #expect(outcomes.prefix(3) == ["succeeded", "interrupted", "succeeded"], "\(outcomes)")
  }

  /// The pid of the run the ledger shows running, read with Python's sqlite3 (the run holds
  /// the store's lock, not a file).
  static func runningPID(_ f: WeeklyFixture) -> Int? {
    let script = "import sqlite3,sys\ntry:\n  r=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro',uri=True).execute(\"select pid from weekly_run where outcome='running' order by id desc\").fetchone()\n  print(r[0] if r else '')\nexcept Exception:\n  print('')"
    let run = try? Python.run(["-c", script, f.dir.appendingPathComponent("raon.sqlite").path])
    return run.flatMap { Int($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  @Test func sigtermMidReportLeavesTheStoreAndThePublishedFoldersWhole() async throws {
    let f = try await WeeklyFixture.make("sigterm")
    defer { f.stop() }
    let first = try await f.weekly()
    #expect(first.status == 0, "\(first.stderr)")
    let before = f.publishedFiles()
    let pdf = try Data(contentsOf: f.published("city", "pdf"))
    // A second week's run (--week of the same week, --resend: the report is written again
    // only if changed; so change the formats) stopped while it writes.
    try f.writeConfig()
    let text = try String(contentsOf: f.dir.appendingPathComponent("raon.toml"), encoding: .utf8)
      .replacingOccurrences(of: "formats = [\"pdf\", \"xlsx\", \"md\"]", with: "formats = [\"pdf\", \"xlsx\", \"md\", \"json\"]")
    try Data(text.utf8).write(to: f.dir.appendingPathComponent("raon.toml"))
    let stopped = try RaonProcess.start(["weekly"], in: f.dir, environment: f.environment)
    let out = f.dir.appendingPathComponent("out")
    // Stop it once it stages the week's folder.
    #expect(Polling.until(timeout: 60, every: 0.02) {
      ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).contains { $0.contains(".raon-partial-") }
    })
    kill(stopped.processIdentifier, SIGTERM)
    stopped.waitUntilExit()
    #expect(stopped.terminationStatus == 143)
    #expect(f.changedSince(before).isEmpty, "the published report and site are as they were: \(f.changedSince(before).prefix(5))")
    #expect(try Data(contentsOf: f.published("city", "pdf")) == pdf)
    let leftovers = (try FileManager.default.contentsOfDirectory(atPath: out.path)).filter { $0.contains(".raon-") }
    #expect(leftovers.isEmpty, "\(leftovers)")
    #expect(try await f.snapshotCount() == 1)
    // The next run finishes the work, and the stopped one shows as interrupted.
    let next = try await f.weekly()
    #expect(next.status == 0, "\(next.stderr)")
    let (_, json, _) = try await f.runs()
    let outcomes = (json["runs"] as? [[String: Any]] ?? []).map { $0["outcome"] as? String ?? "" }
    #expect(outcomes.prefix(3) == ["succeeded", "interrupted", "succeeded"], "\(outcomes)")
  }
}
