import Foundation
import TestSupport
import Testing

/// `raon weekly`'s second channel (issue 46): `[webhook.NAME]` sections beside `[mail]`, the
/// real binary posting to a real HTTP endpoint on 127.0.0.1 (`raon_testkit.webhook_server`)
/// while the real SMTP server gets the mail. Each webhook is a recipient of its list in the
/// same ledger: page 1 posted once, a refused post pending until the next run, the URL's
/// token written nowhere.
@Suite(.serialized) struct WeeklyWebhookEndToEndTests {
  static let cityToken = "CityHookToken-7f6e5d4c3b2a"
  static let jongnoToken = "JongnoHookToken-1a2b3c4d5e6f"

  static func addHooks(_ f: WeeklyFixture) throws {
    let config = f.dir.appendingPathComponent("raon.toml")
    let text = try String(contentsOf: config, encoding: .utf8) + """

      [webhook.city-team]
      url_env = "RAON_WEBHOOK_CITY"
      list = "city"
      site_url = "https://raon.example.go.kr/seoul"
      timeout = "10s"

      [webhook.jongno]
      url_env = "RAON_WEBHOOK_JONGNO"
      list = "종로구"

      """
    try Data(text.utf8).write(to: config)
  }

  /// Whether any file under `folder` (the store, the reports, the site; not `skipping`)
  /// holds `text`, read as bytes.
  static func anyFile(under folder: URL, contains text: String, skipping: Set<String>) throws -> Bool {
    let needle = Data(text.utf8)
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return false }
    for case let url as URL in walker {
      if skipping.contains(url.lastPathComponent) {
        walker.skipDescendants()
        continue
      }
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
      if let data = try? Data(contentsOf: url), data.range(of: needle) != nil { return true }
    }
    return false
  }

  @Test func eachWebhookGetsPageOneOnceAndARefusedPostWaitsForTheNextRun() async throws {
    let f = try await WeeklyFixture.make("webhook")
    defer { f.stop() }
    let hook = try WebhookTestServer.start(in: f.dir, answers: ["/hook/\(Self.jongnoToken)": [503, 200]])
    defer { hook.stop() }
    try Self.addHooks(f)
    let env = [
      "RAON_WEBHOOK_CITY": hook.url("/hook/\(Self.cityToken)"), "RAON_WEBHOOK_JONGNO": hook.url("/hook/\(Self.jongnoToken)"),
    ]

    // The dry run names each webhook by its variable, never its URL.
    let dry = try await f.weekly(["--dry-run"], environment: env)
    #expect(dry.stdout.contains("webhook city-team: would post page 1 of city"), "\(dry.stdout) \(dry.stderr)")
    #expect(try hook.posts().isEmpty, "a dry run posts nothing")

    // Run 1: the city's hook answers 200, 종로구's 503 — that one stays pending (exit 75).
    let first = try await f.weekly(environment: env)
    #expect(first.status == 75, "\(first.stdout) \(first.stderr)")
    #expect(first.stdout.contains("webhook jongno: the endpoint answered HTTP 503") || first.stderr.contains("webhook jongno: the endpoint answered HTTP 503"), "\(first.stdout) \(first.stderr)")
    var posts = try hook.posts()
    #expect(posts.count == 2, "\(posts.map { $0["path"] ?? "" })")
    let city = try #require(posts.first { $0["path"] as? String == "/hook/\(Self.cityToken)" })
    let body = try #require(city["body"] as? [String: Any])
    #expect((city["headers"] as? [String: String])?["Content-Type"]?.hasPrefix("application/json") == true)

    // Page 1 as the mail says it: the same title, period, sentences; the files the mail
    // carries (names; SHA-256 of the published bytes, by Python).
    let received = try f.smtp.messages()
    let cityMail = try #require(received.first { WeeklyFixture.recipients($0).contains("city1@example.go.kr") })
    let mailText = cityMail["text"] as? String ?? ""
    let sentences = body["sentences"] as? [String] ?? []
    #expect(sentences.count >= 3, "\(body)")
    for sentence in sentences { #expect(mailText.contains(sentence), "\(sentence) — not in the mail: \(mailText)") }
    #expect(mailText.contains(body["title"] as? String ?? "—"), "\(body["title"] ?? "")")
    #expect(body["list"] as? String == "city" && body["week"] as? String == WeeklyFixture.thisWeek().isoWeek, "\(body)")
    let files = body["files"] as? [[String: Any]] ?? []
    let mailFiles = ((cityMail["attachments"] as? [[String: Any]]) ?? []).compactMap { $0["filename"] as? String }
    #expect(files.compactMap { $0["name"] as? String }.sorted() == mailFiles.sorted(), "\(files) vs \(mailFiles)")
    for (name, ext) in zip(WeeklyFixture.attachmentNames("city"), ["pdf", "xlsx"]) {
      let file = files.first { $0["name"] as? String == name }
      #expect(file?["sha256"] as? String == (try WeeklyFixture.sha256(f.published("city", ext))), "\(name)")
    }
    #expect(body["report_url"] as? String == "https://raon.example.go.kr/seoul/weeks/\(WeeklyFixture.thisWeek().isoWeek)/report.html")
    #expect((body["text"] as? String)?.contains(sentences.first ?? "—") == true)

    // The ledger: one delivery per webhook beside the addresses.
    var book = f.deliveries(try await f.runs().json)
    let cityRow = book.first { $0["recipient"] as? String == "webhook:city-team" }
    #expect(cityRow?["status"] as? String == "sent" && cityRow?["sends"] as? Int == 1 && cityRow?["list"] as? String == "city", "\(book)")
    #expect(book.first { $0["recipient"] as? String == "webhook:jongno" }?["status"] as? String == "pending", "\(book)")

    // Run 2, the same Monday: only 종로구's hook is posted again (now 200), nothing else goes.
    let mails = received.count
    let second = try await f.weekly(environment: env)
    #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
    posts = try hook.posts()
    #expect(posts.count == 3, "\(posts.map { $0["path"] ?? "" })")
    #expect(posts.last?["path"] as? String == "/hook/\(Self.jongnoToken)")
    let jongno = try #require(posts.last?["body"] as? [String: Any])
    #expect(jongno["list"] as? String == "종로구" && (jongno["title"] as? String)?.contains("종로구") == true, "\(jongno)")
    #expect(jongno["report_url"] == nil || jongno["report_url"] is NSNull, "no site_url: no links")
    #expect(try f.smtp.messages().count == mails, "the offices got nothing twice")
    book = f.deliveries(try await f.runs().json)
    for recipient in ["webhook:city-team", "webhook:jongno"] {
      let row = book.first { $0["recipient"] as? String == recipient }
      #expect(row?["status"] as? String == "sent" && row?["sends"] as? Int == 1, "\(recipient): \(String(describing: row))")
    }

    // The tokens travel in the URL path only: not in any output, the store or a published file.
    let outputs = [dry, first, second].flatMap { [$0.stdout, $0.stderr] }.joined(separator: "\n")
    for token in [Self.cityToken, Self.jongnoToken] {
      #expect(!outputs.contains(token), "a token in the output")
      #expect(try !Self.anyFile(under: f.dir, contains: token, skipping: ["webhook-posts"]), "a token in a file")
    }
  }

  /// A webhook's mistakes are config errors (exit 78, file and line); its URL variable unset
  /// leaves the delivery pending and says which variable.
  @Test func aWebhooksMistakesAreNamedByLine() async throws {
    let f = try await WeeklyFixture.make("webhook-config")
    defer { f.stop() }
    let config = f.dir.appendingPathComponent("raon.toml")
    let base = try String(contentsOf: config, encoding: .utf8)
    let cases: [(String, String)] = [
      ("[webhook.a]\nurl_env = \"RAON_WEBHOOK_A\"\nlist = \"부산진구\"\n", "list = '부산진구' is neither \"city\""),
      ("[webhook.a]\nurl_env = \"HOOK_URL\"\nlist = \"city\"\n", "url_env = 'HOOK_URL' must name an environment variable RAON_WEBHOOK_"),
      ("[webhook.a]\nurl_env = \"RAON_WEBHOOK_A\"\nlist = \"city\"\nsite_url = \"ftp://x\"\n", "site_url = 'ftp://x' must be an http://"),
      ("[webhook.a]\nurl_env = \"RAON_WEBHOOK_A\"\nlist = \"city\"\nurl = \"https://x\"\n", "unknown key 'url' in [webhook.a]"),
      ("[webhook.a]\nlist = \"city\"\n", "[webhook.a] has no url_env"),
      ("[webhook.a]\nurl_env = \"RAON_WEBHOOK_A\"\nlist = \"서초구\"\n", "'서초구' is a district [weekly] districts leaves out"),
    ]
    let baseLines = base.components(separatedBy: "\n").count
    for (section, message) in cases {
      try Data((base + "\n" + section).utf8).write(to: config)
      let run = try await f.weekly(["--dry-run"])
      #expect(run.status == 78, "\(section): \(run.stderr)")
      #expect(run.stderr.contains(message), "\(section): \(run.stderr)")
      // The line named is in the section's lines.
      let line = run.stderr.range(of: #"raon\.toml:(\d+):"#, options: .regularExpression).map { run.stderr[$0] }
        .flatMap { Int($0.dropFirst("raon.toml:".count).dropLast()) } ?? 0
      #expect(line > baseLines - 1 && line <= baseLines + section.components(separatedBy: "\n").count, "\(line): \(run.stderr)")
    }
    try Data((base + "\n[webhook.a]\nurl_env = \"RAON_WEBHOOK_A\"\nlist = \"city\"\n").utf8).write(to: config)
    let run = try await f.weekly()
    #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
    #expect((run.stdout + run.stderr).contains("RAON_WEBHOOK_A is not set"), "\(run.stdout) \(run.stderr)")
  }
}
