import Foundation
import RaonConcurrency
import TestSupport
import Testing

/// Setting `raon weekly` up: the dry run, the config's mistakes, a folder of downloads as
/// the source, and the systemd units and cron line shipped in `deploy/`.
@Suite(.serialized) struct WeeklySetUpEndToEndTests {
  @Test func aDryRunSaysWhatItWouldSendAndChangesNothing() async throws {
    let f = try await WeeklyFixture.make("dry")
    defer { f.stop() }
    let dry = try await f.weekly(["--dry-run"])
    #expect(dry.status == 0, "\(dry.stdout) \(dry.stderr)")
    #expect(dry.stdout.contains("does not exist yet"), "\(dry.stdout)")
    #expect(dry.stdout.contains("would record the catalog from the Open API"), "\(dry.stdout)")
    #expect(dry.stdout.contains(WeeklyFixture.subject("종로구")), "\(dry.stdout)")
    #expect(dry.stdout.contains("jongno@example.go.kr"))
    #expect(dry.stdout.contains("STARTTLS required"))
    #expect(dry.stdout.contains("size known once written"), "\(dry.stdout)")
    #expect(!FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("raon.sqlite").path), "a dry run created the store")
    #expect(!FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("out").path))
    #expect(try f.smtp.messages().isEmpty)

    // After a real run: sizes of the published files, and who has the message already.
    let run = try await f.weekly()
    #expect(run.status == 0, "\(run.stderr)")
    let before = f.publishedFiles()
    let again = try await f.weekly(["--dry-run", "--resend"])
    #expect(again.status == 0, "\(again.stderr)")
    let pdfSize = try FileManager.default.attributesOfItem(atPath: f.published("종로구", "pdf").path)[.size] as? Int ?? 0
    #expect(pdfSize > 0)
    #expect(again.stdout.contains("would record nothing"), "\(again.stdout)")
    #expect(again.stdout.contains("unchanged — it would not be written again"), "\(again.stdout)")
    #expect(again.stdout.contains(" KB)") || again.stdout.contains(" MB)"), "\(again.stdout)")
    let plain = try await f.weekly(["--dry-run"])
    #expect(plain.stdout.contains("everyone has it already"), "\(plain.stdout)")
    #expect(f.changedSince(before).isEmpty, "\(f.changedSince(before).prefix(5))")
    #expect(try f.smtp.messages().count == 5)
    #expect(try await f.snapshotCount() == 1)
  }

  @Test func mistakesInTheConfigAreOneLineWithTheirLineAndExit78() async throws {
    let f = try await WeeklyFixture.make("config")
    defer { f.stop() }
    let config = f.dir.appendingPathComponent("raon.toml")
    let good = try String(contentsOf: config, encoding: .utf8)
    func line(of text: String, in file: String) -> Int {
      (file.components(separatedBy: "\n").firstIndex { $0.contains(text) } ?? -1) + 1
    }
    for (from, to) in [
      ("source = \"api\"", "source = \"api\"\nsauce = 1"),
      ("retry_for = \"3s\"", "retry_for = \"forever\""),
      ("from = \"culture@example.go.kr\"", "from = \"culture at example\""),
      ("\"중구\" = [", "\"중국\" = ["),
      ("server = \"smtp://127.0.0.1", "server = \"http://127.0.0.1"),
      ("city = [", "city = [\"not an address\", "),
    ] {
      let bad = good.replacingOccurrences(of: from, with: to)
      try Data(bad.utf8).write(to: config)
      let run = try await f.weekly()
      #expect(run.status == 78, "\(to): \(run.stdout) \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(to): \(run.stderr)")
      let expected = line(of: to.components(separatedBy: "\n").last ?? to, in: bad)
      #expect(run.stderr.contains("raon.toml:\(expected):"), "\(to): \(run.stderr)")
    }
    try Data(good.utf8).write(to: config)

    // A password file others may read is refused, and the password is not printed.
    let passwordFile = f.dir.appendingPathComponent("smtp-password")
    try Data((WeeklyFixture.smtpPassword + "\n").utf8).write(to: passwordFile)
    chmod(passwordFile.path, 0o644)
    try Data(good.replacingOccurrences(of: "user = \"raon\"", with: "user = \"raon\"\npassword_file = \"smtp-password\"").utf8)
      .write(to: config)
    let readable = try await f.weekly([], environment: ["RAON_SMTP_PASSWORD": ""])
    #expect(readable.status == 78, "\(readable.stderr)")
    #expect(readable.stderr.contains("chmod 600"), "\(readable.stderr)")
    #expect(!readable.stderr.contains(WeeklyFixture.smtpPassword))
    // Mode 0600: the run logs in with the file's password.
    chmod(passwordFile.path, 0o600)
    let private600 = try await f.weekly([], environment: ["RAON_SMTP_PASSWORD": ""])
    #expect(private600.status == 0, "\(private600.stderr)")
    #expect(try f.smtp.messages().count == 5)
    // No password at all for a user: a config error before anything is done.
    try Data(good.utf8).write(to: config)
    let none = try await f.weekly(["--week", WeeklyFixture.thisWeek().mondayText], environment: ["RAON_SMTP_PASSWORD": ""])
    #expect(none.status == 78, "\(none.stderr)")
    #expect(none.stderr.contains("RAON_SMTP_PASSWORD"))
    // A wrong password: the run is published, the deliveries stay pending (75).
    let wrong = try await f.weekly(["--resend"], environment: ["RAON_SMTP_PASSWORD": "not-the-password"])
    #expect(wrong.status == 75, "\(wrong.stdout) \(wrong.stderr)")
    #expect(wrong.stderr.contains("refused the login"), "\(wrong.stderr)")
    #expect(!wrong.stderr.contains("not-the-password"))
  }

  @Test func aFolderOfDownloadsGivesItsNewestFileOnceRecorded() async throws {
    let f = try await WeeklyFixture.make("folder")
    defer { f.stop() }
    let inbox = f.dir.appendingPathComponent("inbox")
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    let old = inbox.appendingPathComponent("older.csv")
    let newest = inbox.appendingPathComponent("서울시 문화행사 정보.csv")
    try FileManager.default.copyItem(at: Fixtures.sampleCSV, to: old)
    try FileManager.default.copyItem(at: Fixtures.sampleCSV, to: newest)
    try Data("not,a,catalog\n".utf8).write(to: inbox.appendingPathComponent(".hidden.csv"))
    try Data("ignored".utf8).write(to: inbox.appendingPathComponent("notes.txt"))
    // Downloaded an hour and a day ago (a file newer than 10 s may still be being copied).
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-86_400)], ofItemAtPath: old.path)
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3_600)], ofItemAtPath: newest.path)
    let text = try String(contentsOf: f.dir.appendingPathComponent("raon.toml"), encoding: .utf8)
      .replacingOccurrences(of: "source = \"api\"", with: "source = \"inbox\"")
    try Data(text.utf8).write(to: f.dir.appendingPathComponent("raon.toml"))
    let run = try await f.weekly([], environment: ["SEOUL_API_KEY": ""])
    #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
    #expect(run.stdout.contains("서울시 문화행사 정보.csv"), "\(run.stdout)")
    let list = try await RaonProcess.runDetached(["snapshots", "--json", "--db", f.db], in: f.dir)
    let snapshots = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(snapshots.count == 1)
    #expect(snapshots.first?["programCount"] as? Int == 4998)
    #expect(snapshots.first?["source"] as? String == "서울시 문화행사 정보.csv")
    let again = try await f.weekly([], environment: ["SEOUL_API_KEY": ""])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("was recorded already") || again.stdout.contains("not newer"), "\(again.stdout)")
    #expect(try await f.snapshotCount() == 1)
  }

  @Test func theSystemdUnitsVerifyAndTheTimerFiresOnMondaysAt7InSeoul() throws {
    let deploy = Fixtures.repositoryRoot.appendingPathComponent("deploy")
    let scratch = try Fixtures.temporaryDirectory("raon-units")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // The unit names /usr/local/bin/raon; verify checks that it exists, so point it at the build.
    let service = try String(contentsOf: deploy.appendingPathComponent("raon-weekly.service"), encoding: .utf8)
    #expect(service.contains("ExecStart=/usr/local/bin/raon weekly --config /etc/raon/raon.toml"))
    #expect(service.contains("User=raon"))
    #expect(service.contains("EnvironmentFile=/etc/raon/raon.env"))
    try Data(service.replacingOccurrences(of: "/usr/local/bin/raon", with: RaonProcess.executable.path).utf8)
      .write(to: scratch.appendingPathComponent("raon-weekly.service"))
    let timer = try String(contentsOf: deploy.appendingPathComponent("raon-weekly.timer"), encoding: .utf8)
    #expect(timer.contains("Persistent=true"))
    try Data(timer.utf8).write(to: scratch.appendingPathComponent("raon-weekly.timer"))
    let verify = try Self.run(
      "/usr/bin/systemd-analyze",
      ["verify", scratch.appendingPathComponent("raon-weekly.service").path, scratch.appendingPathComponent("raon-weekly.timer").path])
    #expect(verify.status == 0, "\(verify.output)")
    #expect(verify.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "warnings: \(verify.output)")

    // When it fires: the next 5 elapses are Mondays at 07:00 in Seoul.
    let spec = timer.split(separator: "\n").first { $0.hasPrefix("OnCalendar=") }.map { String($0.dropFirst("OnCalendar=".count)) } ?? ""
    let calendar = try Self.run("/usr/bin/systemd-analyze", ["calendar", "--iterations=5", spec], environment: ["TZ": "Asia/Seoul", "LC_ALL": "C"])
    #expect(calendar.status == 0, "\(calendar.output)")
    let elapses = calendar.output.split(separator: "\n").filter { $0.contains("Next elapse:") || $0.contains("Iter.") || $0.contains("…") }
    let stamps = calendar.output.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: #"[A-Z][a-z]{2} \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST"#, options: .regularExpression) else { return nil }
      return String(line[range])
    }
    #expect(stamps.count == 5, "\(calendar.output) \(elapses)")
    #expect(stamps.allSatisfy { $0.hasPrefix("Mon ") && $0.hasSuffix(" 07:00:00 KST") }, "\(stamps)")

    // The cron line: Monday 07:00, as the raon user, the same command.
    let cron = try String(contentsOf: deploy.appendingPathComponent("raon-weekly.cron"), encoding: .utf8)
    let line = cron.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    #expect(fields.prefix(6).map(String.init) == ["0", "7", "*", "*", "1", "raon"], "\(line)")
    #expect(line.contains("raon weekly --config /etc/raon/raon.toml"))

    // The example config is one raon reads (its source turned into an empty local folder:
    // tests never reach the real Open API, so the dry run's pull fails, with 1, not 78).
    let inbox = scratch.appendingPathComponent("inbox")
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    let exampleText = try String(contentsOf: deploy.appendingPathComponent("raon.toml.example"), encoding: .utf8)
      .replacingOccurrences(of: "source = \"api\"", with: "source = \"\(inbox.path)\"")
    try Data(exampleText.utf8).write(to: scratch.appendingPathComponent("raon.toml"))
    let example = try RaonProcess.run(
      ["weekly", "--dry-run", "--db", scratch.appendingPathComponent("db.sqlite").path], in: scratch,
      environment: ["RAON_SMTP_PASSWORD": "x"])
    #expect(example.status == 1, "\(example.stdout) \(example.stderr)")
    #expect(example.stdout.contains("culture@jongno.example.go.kr"), "\(example.stdout)")
    #expect(example.stderr.contains("holds no catalog file"), "\(example.stderr)")
  }

  /// README's and docs/WEEKLY.md's set-up, line by line as written, on a scratch root with a
  /// throwaway service user (``operator_page.py``): the secrets file the dry run sources as
  /// that user, the service run as systemd runs it (its EnvironmentFile, User,
  /// WorkingDirectory), cron's line, the password file, `retry_for = "0"`, the lock in
  /// /run/raon, and every path written inside what the unit lets it write. Only `systemctl`
  /// is skipped (printed with why); without root, all of it is (printed).
  @Test func theOperatorsPageRunsAsWrittenFromAFreshServer() async throws {
    let scratch = try Fixtures.temporaryDirectory("raon-operator-smtp")
    defer { try? FileManager.default.removeItem(at: scratch) }
    chmod(scratch.path, 0o755)
    let smtp = try SMTPTestServer.start(in: scratch, user: WeeklyFixture.smtpUser, password: WeeklyFixture.smtpPassword)
    defer { smtp.stop() }
    let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/operator_page.py").path
    let run = try Python.run([
      script, Fixtures.repositoryRoot.path, RaonProcess.executable.path, String(smtp.port), smtp.caFile,
      WeeklyFixture.smtpUser, WeeklyFixture.smtpPassword, Fixtures.sampleCSV.path,
    ])
    #expect(run.status == 0, "\(run.stdout.suffix(4000)) \(run.stderr.suffix(2000))")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout.suffix(3000))")
    if let skipped = report["skipped"] as? String {
      print("SKIPPED theOperatorsPageRunsAsWrittenFromAFreshServer: \(skipped)")
      return
    }
    let pages = report["pages"] as? [String: [String: Any]] ?? [:]
    #expect(Set(pages.keys) == ["README", "WEEKLY"], "\(run.stdout.suffix(3000))")
    for (name, page) in pages {
      let steps = page["steps"] as? [[String: Any]] ?? []
      #expect(steps.allSatisfy { $0["status"] as? Int == 0 }, "\(name): \(steps)")
      let dry = steps.first { ($0["line"] as? String)?.contains("--dry-run") == true }
      #expect((dry?["stdout"] as? String)?.contains("mail: would send 3 messages") == true, "\(name): \(dry ?? [:])")
      #expect(page["envMode"] as? String == "0o640", "\(name): the secrets file is root's, readable by the group")
      let runs = page["runs"] as? [[String: Any]] ?? []
      #expect(runs.count == (name == "WEEKLY" ? 3 : 2), "\(name): \(runs)")
      for r in runs {
        #expect(r["status"] as? Int == 0, "\(name) as \(r["as"] ?? ""): \(r["stdout"] ?? "") \(r["stderr"] ?? "")")
      }
      #expect((page["outside"] as? [String])?.isEmpty == true, "\(name): written outside what the unit allows: \(page["outside"] ?? "")")
      #expect((page["lockFile"] as? String)?.hasPrefix("raon weekly lock") == true, "\(name): \(page["lockFile"] ?? "none")")
      for skipped in page["skipped"] as? [[String: Any]] ?? [] {
        print("SKIPPED (\(name)) \(skipped["line"] ?? ""): \(skipped["why"] ?? "")")
      }
    }
    // Every run delivered the three lists (city, 종로구, 중구), logged in over TLS.
    let received = try smtp.messages()
    #expect(received.count == 15, "\(received.map { $0["subject"] ?? "" })")
    #expect(received.allSatisfy { ($0["envelope"] as? [String: Any])?["login"] as? String == WeeklyFixture.smtpUser })
  }

  static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
