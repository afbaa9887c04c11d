import Foundation
import TestSupport
import Testing

/// `raon weekly` end to end: the real binary, the fake Open API and a real SMTP server on
/// 127.0.0.1 (STARTTLS, AUTH, a CA made for the test), on SQLite and on PostgreSQL. Every
/// received message is read back with Python's standard MIME parser.
@Suite(.serialized) struct WeeklyServiceEndToEndTests {
  @Test func aMondayDeliversEachListItsReportAndARerunSendsNothing() async throws {
    try await Self.mondayThenRerun(.sqlite, label: "sqlite")
  }

  @Test func aMondayOnPostgreSQLDeliversEachListItsReportAndARerunSendsNothing() async throws {
    guard let server = PostgresTestServer.available() else { return }
    try await Self.mondayThenRerun(.postgres(server), label: "pg")
  }

  static func mondayThenRerun(_ backend: WeeklyFixture.Backend, label: String) async throws {
    let f = try await WeeklyFixture.make("monday-\(label)", backend: backend, recordLastWeek: true)
    defer { f.stop() }
    let first = try await f.weekly()
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    #expect(first.stdout.contains("recorded snapshot 2"), "\(first.stdout)")
    #expect(first.stdout.contains("mail: sent 5, pending 0, refused 0"), "\(first.stdout)")

    // Every recipient got its list's message once, over TLS, after logging in.
    let received = try f.smtp.messages()
    #expect(received.count == 5)
    var byRecipient: [String: [String: Any]] = [:]
    for message in received {
      let envelope = message["envelope"] as? [String: Any] ?? [:]
      let rcpts = envelope["rcpt_tos"] as? [String] ?? []
      #expect(rcpts.count == 1)
      #expect(envelope["tls"] as? Bool == true)
      #expect(envelope["login"] as? String == WeeklyFixture.smtpUser)
      #expect(envelope["mail_from"] as? String == "culture@example.go.kr")
      if let rcpt = rcpts.first { byRecipient[rcpt] = message }
    }
    for (list, recipients) in WeeklyFixture.lists {
      for recipient in recipients {
        let message = try #require(byRecipient[recipient], "\(recipient) got nothing")
        #expect(message["subject"] as? String == WeeklyFixture.subject(list))
        #expect(message["to"] as? [String] == recipients, "the To: header names the list")
        #expect((message["defects"] as? [String])?.isEmpty == true)
        #expect((message["messageId"] as? String)?.hasSuffix("@example.go.kr>") == true)
        #expect(message["dateParsed"] as? String != nil)
        let attachments = message["attachments"] as? [[String: Any]] ?? []
        #expect(attachments.map { $0["filename"] as? String ?? "" } == WeeklyFixture.attachmentNames(list))
        #expect(attachments.map { $0["sha256"] as? String ?? "" }
          == [try WeeklyFixture.sha256(f.published(list, "pdf")), try WeeklyFixture.sha256(f.published(list, "xlsx"))],
          "\(list): the attachments are the published files, byte for byte")
        #expect(attachments.first?["contentType"] as? String == "application/pdf")
      }
    }
    // The two city recipients got one message (one Message-ID); the lists, four.
    let ids = Set(received.compactMap { $0["messageId"] as? String })
    #expect(ids.count == 4)
    try Self.bodiesMatchPageOne(received, f)

    let (status, json, _) = try await f.runs()
    #expect(status == 0, "\(json)")
    #expect(json["healthy"] as? Bool == true)
    let deliveries = f.deliveries(json)
    #expect(deliveries.count == 5)
    #expect(deliveries.allSatisfy { $0["status"] as? String == "sent" && ($0["messageId"] as? String)?.isEmpty == false })
    let run = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(run["outcome"] as? String == "succeeded")
    #expect(run["kind"] as? String == "scheduled")
    #expect(run["week"] as? String == WeeklyFixture.thisWeek().mondayText)
    #expect(run["snapshotId"] as? Int == 2)

    // The same Monday again: nothing recorded, written or sent twice.
    let before = f.publishedFiles()
    let second = try await f.weekly()
    #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
    #expect(second.stdout.contains("nothing recorded"), "\(second.stdout)")
    #expect(second.stdout.contains("unchanged — not written again"), "\(second.stdout)")
    #expect(second.stdout.contains("mail: sent 0, pending 0, refused 0"), "\(second.stdout)")
    #expect(try f.smtp.messages().count == 5, "a rerun sent a second copy")
    #expect(try await f.snapshotCount() == 2, "a rerun recorded a second identical snapshot")
    #expect(f.changedSince(before).isEmpty, "a rerun rewrote files that had not changed: \(f.changedSince(before).prefix(5))")

    // --resend sends again on purpose, as new messages.
    let resend = try await f.weekly(["--resend"])
    #expect(resend.status == 0, "\(resend.stderr)")
    let all = try f.smtp.messages()
    #expect(all.count == 10)
    let newIDs = Set(all.dropFirst(5).compactMap { $0["messageId"] as? String })
    #expect(newIDs.count == 4 && newIDs.isDisjoint(with: ids))

    // The SMTP password is in no output, file, store or header.
    try Self.expectNoPassword(f, outputs: [first, second, resend])
  }

  @Test func aPastWeekIsReportedFromItsOwnSnapshotWithNothingPulled() async throws {
    let f = try await WeeklyFixture.make("past-week", recordLastWeek: true)
    defer { f.stop() }
    let lastWeekDay = Date().addingTimeInterval(-7 * 86_400)
    let lastWeek = WeeklyFixture.thisWeek(lastWeekDay)
    let run = try await f.weekly(["--week", lastWeek.mondayText])
    #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
    #expect(!run.stdout.contains("recorded snapshot"), "\(run.stdout)")
    #expect(try await f.snapshotCount() == 1, "a past week's run pulled and recorded a catalog")
    // Last week's folder, from last week's snapshot; this week's is not written.
    let folder = f.dir.appendingPathComponent("out").appendingPathComponent(lastWeek.isoWeek)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report.pdf").path))
    #expect(!FileManager.default.fileExists(atPath: f.published("city", "pdf").path))
    // Each list got last week's message, its files the ones just published.
    let received = try f.smtp.messages()
    #expect(received.count == 5)
    let city = received.first { ($0["subject"] as? String) == WeeklyFixture.subject("city", now: lastWeekDay) }
    #expect(city != nil, "\(received.map { $0["subject"] as? String ?? "" })")
    let pdf = (city?["attachments"] as? [[String: Any]])?.first
    #expect(pdf?["filename"] as? String == "서울시_문화행사_주간현황_\(lastWeek.mondayText).pdf")
    #expect(pdf?["sha256"] as? String == (try WeeklyFixture.sha256(folder.appendingPathComponent("report.pdf"))))
    let (_, json, _) = try await f.runs()
    let last = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(last["kind"] as? String == "rerun")
    #expect(last["week"] as? String == lastWeek.mondayText)
    #expect(last["snapshotId"] as? Int == 1)

    // A week with no snapshot: the run fails in one line saying so; the lists get nothing,
    // the operators the one-line alert of a failed run.
    let empty = WeeklyFixture.thisWeek(Date().addingTimeInterval(-21 * 86_400)).mondayText
    let none = try await f.weekly(["--week", empty])
    #expect(none.status == 1, "\(none.stdout) \(none.stderr)")
    #expect(none.stderr.contains("no snapshot was taken in it"), "\(none.stderr)")
    // Nothing was pulled: the run failed at choosing what to report.
    #expect(none.stderr.contains("failed at report"), "\(none.stderr)")
    let after = try f.smtp.messages()
    #expect(after.count == 6)
    #expect((after.last?["to"] as? [String]) == ["ops@example.go.kr"], "\(after.last ?? [:])")
  }

  @Test func smtpsWithTLSFromTheFirstByteDeliversToo() async throws {
    let f = try await WeeklyFixture.make("smtps", smtpOptions: .init(implicitTLS: true))
    defer { f.stop() }
    let config = f.dir.appendingPathComponent("raon.toml")
    try Data(try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "smtp://", with: "smtps://").utf8)
      .write(to: config)
    let run = try await f.weekly()
    #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
    let received = try f.smtp.messages()
    let recipients: [String] = received.flatMap { ($0["envelope"] as? [String: Any])?["rcpt_tos"] as? [String] ?? [] }
    #expect(Set(recipients) == Set(WeeklyFixture.lists.values.flatMap { $0 }))
    // The listener speaks only TLS (aiosmtpd's session does not flag it as it does after
    // STARTTLS): that the messages arrived is the proof that the client spoke TLS at once.
    #expect(received.allSatisfy { ($0["envelope"] as? [String: Any])?["login"] as? String == WeeklyFixture.smtpUser })
  }

  /// Both bodies carry page 1 of the list's report: its sentences and its headline table,
  /// as report.md has them (read by Python from the Markdown and from the mail's HTML).
  static func bodiesMatchPageOne(_ received: [[String: Any]], _ f: WeeklyFixture) throws {
    let script = """
      import html.parser, json, re, sys
      md = open(sys.argv[1], encoding='utf-8').read()
      def section(title):
          start = md.index('**' + title + '**')
          rest = md[start + len(title) + 4:]
          return rest[:rest.index('**')]
      unescape = lambda s: re.sub(r'\\\\(.)', r'\\1', s).strip()
      sentences = [unescape(l[2:]) for l in section('□ 주간 요약').splitlines() if l.startswith('- ')]
      rows = [[unescape(c) for c in l.strip().strip('|').split('|')] for l in section('□ 주요 지표').splitlines() if l.startswith('|')]
      rows = [r for r in rows if not all(set(c) <= set('-: ') for c in r)]
      class P(html.parser.HTMLParser):
          def __init__(self):
              super().__init__(); self.items = []; self.cells = []; self.row = None; self.cell = None
          def handle_starttag(self, tag, a):
              if tag in ('li', 'td', 'th'): self.cell = ''
              if tag == 'tr': self.row = []
          def handle_endtag(self, tag):
              if tag == 'li' and self.cell is not None: self.items.append(self.cell); self.cell = None
              if tag in ('td', 'th'): self.row.append(self.cell); self.cell = None
              if tag == 'tr': self.cells.append(self.row)
          def handle_data(self, d):
              if self.cell is not None: self.cell += d
      p = P(); p.feed(open(sys.argv[2], encoding='utf-8').read())
      text = open(sys.argv[3], encoding='utf-8').read()
      ok = p.items[:len(sentences)] == sentences and p.cells == rows and all(s.replace('\\u00a0', ' ') in text for s in sentences)
      print(json.dumps({'ok': ok, 'sentences': sentences, 'items': p.items, 'rows': rows, 'cells': p.cells}, ensure_ascii=False))
      """
    let scratch = try Fixtures.temporaryDirectory("raon-weekly-bodies")
    defer { try? FileManager.default.removeItem(at: scratch) }
    var seen = Set<String>()
    for message in received {
      let list = WeeklyFixture.list(ofSubject: message["subject"] as? String ?? "")
      guard seen.insert(list).inserted else { continue }
      let html = scratch.appendingPathComponent("\(seen.count).html")
      let text = scratch.appendingPathComponent("\(seen.count).txt")
      try Data((message["html"] as? String ?? "").utf8).write(to: html)
      try Data((message["text"] as? String ?? "").utf8).write(to: text)
      let run = try Python.run(["-c", script, f.published(list, "md").path, html.path, text.path])
      let result = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
      #expect(result["ok"] as? Bool == true, "\(list): \(run.stdout) \(run.stderr)")
      #expect((result["sentences"] as? [Any])?.count ?? 0 >= 3, "\(list): \(run.stdout)")
      // This week beside last week: four columns, with ▲/▼ where the figures moved.
      #expect((result["rows"] as? [[String]])?.first?.count == 4, "\(list): \(run.stdout)")
    }
    #expect(seen.count == 4)
  }

  /// Scans every output, published file, the store and every received message for the SMTP
  /// password (and the API key).
  static func expectNoPassword(_ f: WeeklyFixture, outputs: [RaonProcess.Result]) throws {
    var haystacks: [String: Data] = [:]
    for (i, o) in outputs.enumerated() {
      haystacks["stdout \(i)"] = Data(o.stdout.utf8)
      haystacks["stderr \(i)"] = Data(o.stderr.utf8)
    }
    for file in TestInspection.files(under: f.dir) where !file.path.contains("/certs/") {
      haystacks[file.path] = try Data(contentsOf: file)
    }
    if case .postgres(let server) = f.backend, let schema = f.db.split(separator: "=").last {
      haystacks["postgres"] = Data(
        try server.psql(
          "SELECT r::text FROM \(schema).weekly_run r UNION ALL SELECT d::text FROM \(schema).weekly_delivery d UNION ALL SELECT m::text FROM \(schema).weekly_message m"
        ).utf8)
      #expect((haystacks["postgres"]?.count ?? 0) > 100)
    }
    #expect(try f.smtp.rawMessages().count > 0)
    for secret in [WeeklyFixture.smtpPassword, WeeklyFixture.apiKey] {
      for (name, bytes) in haystacks {
        #expect(bytes.range(of: Data(secret.utf8)) == nil, "a secret leaked into \(name)")
      }
    }
  }
}
