import Foundation
import TestSupport
import Testing

/// Issue 49's mail and process items end to end with the real binary: a hung server costs
/// the timeout (item 4), a refused sender keeps every delivery pending (item 2, the
/// transport's side), a wrong port is a config error (item 5), a password file saved with
/// CRLF logs in (item 3), children hold no secret (item 7); and issue 45's `from` with a
/// display name arrives RFC 2047-encoded, the envelope taking the bare address.
@Suite(.serialized) struct MailPromisesEndToEndTests {
  /// The fixture with its report published and every delivery pending: the first run
  /// points at a port nobody listens on.
  static func published(_ label: String) async throws -> WeeklyFixture {
    let fixture = try await WeeklyFixture.make(label)
    fixture.smtp.stop()
    let first = try await fixture.weekly()
    #expect(first.status == 75, "\(first.stderr)")
    return fixture
  }

  /// raon.toml pointed at `server` (port and CA), with `[mail]` lines added.
  static func point(_ fixture: WeeklyFixture, port: Int, ca: String, mail extra: String = "") throws {
    let url = fixture.dir.appendingPathComponent("raon.toml")
    var text = try String(contentsOf: url, encoding: .utf8)
    text = text.replacingOccurrences(of: "smtp://127.0.0.1:\(fixture.smtp.port)", with: "smtp://127.0.0.1:\(port)")
    text = text.replacingOccurrences(of: "ca_file = \"\(fixture.smtp.caFile)\"", with: "ca_file = \"\(ca)\"\n\(extra)")
    try Data(text.utf8).write(to: url)
  }

  static func pending(_ fixture: WeeklyFixture) async throws -> [String: String] {
    let runs = try await fixture.runs()
    var states: [String: String] = [:]
    for delivery in fixture.deliveries(runs.json) {
      states[delivery["recipient"] as? String ?? "?"] = delivery["status"] as? String
    }
    return states
  }

  static let everyone = ["city1@example.go.kr", "city2@example.go.kr", "gangnam@example.go.kr", "jongno@example.go.kr", "junggu@example.go.kr"]

  @Test func aServerThatNeverAnswersQUITCostsTheTimeoutNotTwoMinutes() async throws {
    let fixture = try await Self.published("quit-hang")
    defer { fixture.stop() }
    let smtp = try ScriptedSMTPServer.start(
      in: fixture.dir, user: WeeklyFixture.smtpUser, password: WeeklyFixture.smtpPassword,
      script: #"{"on": {"quit": {"hang": true}}}"#)
    defer { smtp.stop() }
    try Self.point(fixture, port: smtp.port, ca: smtp.caFile, mail: "timeout = 2")
    let started = Date()
    let run = try await fixture.weekly(["--deliver-pending"])
    let seconds = Date().timeIntervalSince(started)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(Set(smtp.envelopes().flatMap { $0["rcpt_tos"] as? [String] ?? [] }) == Set(Self.everyone))
    #expect(smtp.events().contains { $0["event"] as? String == "hang" && $0["phase"] as? String == "quit" })
    // libcurl waited 120 s for QUIT's reply whatever the timeout; now the timeout bounds it.
    #expect(seconds < 100, "\(seconds) s")  // libcurl's own wait is 120 s; a loaded machine takes 50
  }

  @Test func aServerThatHangsAfterTheMessageCostsTheTimeoutForTheDeliveryAndTheAlert() async throws {
    let fixture = try await Self.published("end-hang")
    defer { fixture.stop() }
    let smtp = try ScriptedSMTPServer.start(
      in: fixture.dir, user: WeeklyFixture.smtpUser, password: WeeklyFixture.smtpPassword,
      script: #"{"on": {"end": {"hang": true}}}"#)
    defer { smtp.stop() }
    try Self.point(fixture, port: smtp.port, ca: smtp.caFile, mail: "timeout = 2")
    let started = Date()
    let run = try await fixture.weekly(["--deliver-pending"])
    let seconds = Date().timeIntervalSince(started)
    #expect(run.status == 75, "\(run.stderr)")
    #expect(run.stderr.contains("did not answer within 2 s"), "\(run.stderr)")
    #expect(seconds < 100, "\(seconds) s")  // libcurl's own wait is 120 s; a loaded machine takes 50
    // One delivery tried and timed out, then the alert's transport, timed out too.
    #expect(smtp.events().filter { $0["event"] as? String == "hang" }.count == 2)
    #expect(try await Self.pending(fixture).values.allSatisfy { $0 == "pending" })
  }

  /// Issue 49 item 2 (the transport's side): a 553 to MAIL FROM refused every delivery for
  /// good; now the session stops, every delivery stays pending, and once the server takes
  /// the sender the next run sends them all.
  @Test func aRefusedSenderKeepsEveryDeliveryPendingForTheNextRun() async throws {
    let fixture = try await Self.published("sender-refused")
    defer { fixture.stop() }
    let refusing = try ScriptedSMTPServer.start(
      in: fixture.dir, name: "refusing", user: WeeklyFixture.smtpUser, password: WeeklyFixture.smtpPassword,
      script: #"{"on": {"mail": {"reply": "553 5.7.1 Sender address rejected: not owned by user"}}}"#)
    try Self.point(fixture, port: refusing.port, ca: refusing.caFile)
    let refused = try await fixture.weekly(["--deliver-pending"])
    refusing.stop()
    #expect(refused.status == 75, "\(refused.stderr)")
    #expect(refused.stderr.contains("MAIL FROM"), "\(refused.stderr)")
    #expect(try await Self.pending(fixture) == Dictionary(uniqueKeysWithValues: Self.everyone.map { ($0, "pending") }))

    let taking = try ScriptedSMTPServer.start(
      in: fixture.dir, name: "taking", user: WeeklyFixture.smtpUser, password: WeeklyFixture.smtpPassword)
    defer { taking.stop() }
    try Self.repoint(fixture, from: refusing.port, to: taking.port)
    let sent = try await fixture.weekly(["--deliver-pending"])
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(taking.envelopes().flatMap { $0["rcpt_tos"] as? [String] ?? [] }.sorted() == Self.everyone.sorted())
    #expect(try await Self.pending(fixture).values.allSatisfy { $0 == "sent" })
  }

  static func repoint(_ fixture: WeeklyFixture, from old: Int, to new: Int) throws {
    let url = fixture.dir.appendingPathComponent("raon.toml")
    let text = try String(contentsOf: url, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "127.0.0.1:\(old)", with: "127.0.0.1:\(new)").utf8).write(to: url)
  }

  @Test func aSenderWithADisplayNameArrivesEncodedAndTheEnvelopeTakesTheAddress() async throws {
    let fixture = try await WeeklyFixture.make("display-name")
    defer { fixture.stop() }
    let url = fixture.dir.appendingPathComponent("raon.toml")
    let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
      of: "from = \"culture@example.go.kr\"", with: "from = \"서울특별시 문화정책과 <culture@example.go.kr>\"")
    try Data(text.utf8).write(to: url)
    let run = try await fixture.weekly()
    #expect(run.status == 0, "\(run.stderr)")
    let messages = try fixture.smtp.messages()
    #expect(messages.count == Self.everyone.count)
    for message in messages {
      #expect(message["fromName"] as? String == "서울특별시 문화정책과", "\(message["rawHeaders"] ?? "")")
      #expect(message["fromAddress"] as? String == "culture@example.go.kr")
      #expect((message["rawHeaders"] as? String)?.contains("From: =?UTF-8?B?") == true)
      #expect((message["envelope"] as? [String: Any])?["mail_from"] as? String == "culture@example.go.kr")
      #expect((message["defects"] as? [String])?.isEmpty == true)
    }
  }

  /// Issue 49 item 3: a password file saved with CRLF sent the password with a CR.
  @Test func aPasswordFileSavedWithCRLFLogsIn() async throws {
    let fixture = try await WeeklyFixture.make("crlf-password")
    defer { fixture.stop() }
    let file = fixture.dir.appendingPathComponent("smtp-password")
    try Data("\(WeeklyFixture.smtpPassword)\r\n".utf8).write(to: file)
    #expect(chmod(file.path, 0o600) == 0)
    let url = fixture.dir.appendingPathComponent("raon.toml")
    let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
      of: "user = \"\(WeeklyFixture.smtpUser)\"", with: "user = \"\(WeeklyFixture.smtpUser)\"\npassword_file = \"smtp-password\"")
    try Data(text.utf8).write(to: url)
    let run = try await fixture.weekly([], environment: ["RAON_SMTP_PASSWORD": ""])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try fixture.smtp.messages().count == Self.everyone.count)
  }

  /// Issue 49 item 5: `smtp://127.0.0.1:99999` passed the check and every run left every
  /// delivery pending.
  @Test(arguments: ["smtp://127.0.0.1:99999", "smtp://127.0.0.1:0", "smtp://127.0.0.1:smtp"])
  func aWrongPortIsAConfigErrorNamingItsLine(_ server: String) async throws {
    let dir = try Fixtures.temporaryDirectory("raon-wrong-port")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data(
      "[weekly]\nout = \"out\"\n\n[mail]\nfrom = \"culture@example.go.kr\"\nserver = \"\(server)\"\ncity = [\"a@example.go.kr\"]\n"
        .utf8
    ).write(to: dir.appendingPathComponent("raon.toml"))
    let run = try await RaonProcess.runDetached(["weekly", "--db", dir.appendingPathComponent("r.sqlite").path], in: dir)
    #expect(run.status == 78, "\(run.stderr)")
    #expect(run.stderr.contains("raon.toml:6:"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.sqlite").path))
  }

  /// Issue 49 item 7: during a PDF report, the Chromium wrapper, the browser and its
  /// helpers held RAON_SMTP_PASSWORD and SEOUL_API_KEY in their environment.
  @Test func noChildOfAPDFReportHoldsASecret() async throws {
    let chromium = try HTMLReportEndToEndTests.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-child-env")
    defer { try? FileManager.default.removeItem(at: dir) }
    let secrets = [
      "SEOUL_API_KEY": "seoul-KEY-0a1b2c3d4e", "DATA_GO_KR_KEY": "national-KEY-5f6e7d8c9b",
      "RAON_SMTP_PASSWORD": "smtp-PASSWORD-a9b8c7d6", "PGPASSWORD": "pg-PASSWORD-1q2w3e4r",
      "DEPLOY_TOKEN": "deploy-TOKEN-z9y8x7w6",
    ]
    let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts").path
    var arguments = [
      "-c", "import sys; sys.path.insert(0, sys.argv[1]); from raon_testkit.proc_env import main; sys.exit(main(sys.argv[2:]))",
      scripts, "--cwd", dir.path, "--timeout", "300", "--env", "RAON_CHROMIUM=\(chromium)", "--env", "HOME=\(dir.path)",
    ]
    for (name, value) in secrets { arguments += ["--env", "\(name)=\(value)"] }
    arguments += [
      "--", RaonProcess.executable.path, "report", "--input", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09",
      "--db", dir.appendingPathComponent("r.sqlite").path, "--out", dir.appendingPathComponent("out").path,
      "--format", "pdf",
    ]
    let watched = try await Task.detached { try Python.run(arguments) }.value
    let result = try #require(try JSONSerialization.jsonObject(with: Data(watched.stdout.utf8)) as? [String: Any], "\(watched.stderr)")
    #expect(result["status"] as? Int == 0, "\(result["stderr"] ?? "")")
    let processes = result["processes"] as? [[String: Any]] ?? []
    let chromiums = processes.filter { (($0["cmdline"] as? [String]) ?? []).joined(separator: " ").contains("chrom") }
    #expect(chromiums.count >= 2, "the wrapper and the browser at least: \(processes.map { $0["cmdline"] ?? "" })")
    for process in processes {
      let environ = process["environ"] as? [String: String] ?? [:]
      let command = ((process["cmdline"] as? [String]) ?? []).prefix(2).joined(separator: " ")
      for (name, value) in secrets {
        #expect(environ[name] == nil, "\(command) holds \(name)")
        #expect(!environ.values.contains { $0.contains(value) }, "\(command) holds \(name)'s value")
      }
    }
  }
}
