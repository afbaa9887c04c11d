import Foundation
@testable import RaonMail
import TestSupport
import Testing

/// libcurl's SMTP client against a scripted server on 127.0.0.1 (raw sockets, TLS with a
/// CA made for the test) that hangs, refuses or echoes in each phase (issue 49 items 2–4).
@Suite struct CurlTransportTests {
  static let user = "raon"
  static let password = "smtp-Pw-7c6b5a-Echo"

  struct Setup {
    let dir: URL
    let smtp: ScriptedSMTPServer
    func server(timeout: Int, password: String = CurlTransportTests.password) throws -> SMTPServer {
      try SMTPServer(
        url: "smtp://127.0.0.1:\(smtp.port)", user: CurlTransportTests.user, password: MailPassword(password),
        caFile: smtp.caFile, timeout: timeout)
    }
    func finish() {
      smtp.stop()
      try? FileManager.default.removeItem(at: dir)
    }
  }

  static func start(_ label: String, script: String) throws -> Setup {
    let dir = try Fixtures.temporaryDirectory("raon-curl-\(label)")
    return Setup(dir: dir, smtp: try ScriptedSMTPServer.start(in: dir, user: user, password: password, script: script))
  }

  static let message = Data("From: culture@example.go.kr\r\nTo: a@example.go.kr\r\nSubject: t\r\n\r\nbody\r\n".utf8)
  static let to = MailAddress("a@example.go.kr")!
  static let from = Mailbox("서울특별시 문화정책과 <culture@example.go.kr>")!

  /// Sends one message through a transport made for it and ends the transport (its clean-up
  /// says QUIT); the outcome and the seconds it all took.
  static func sendOnce(_ server: SMTPServer) -> (Result<Void, MailSendError>, TimeInterval) {
    let started = Date()
    var outcome: Result<Void, MailSendError> = .success(())
    do {
      let transport = try CurlSMTPTransport(server: server)
      try transport.send(message, from: from, to: to)
    } catch let error as MailSendError {
      outcome = .failure(error)
    } catch {
      outcome = .failure(.unreachable(reason: "\(error)"))
    }
    return (outcome, Date().timeIntervalSince(started))
  }

  /// The checks every case makes: nothing of the login went over the wire outside TLS.
  static func expectNoLoginInClear(_ smtp: ScriptedSMTPServer) {
    let clear = String(decoding: smtp.clearBytes(), as: UTF8.self)
    #expect(!clear.uppercased().contains("AUTH"), "\(clear)")
    #expect(!clear.contains(password))
    #expect(!clear.contains(Data(password.utf8).base64EncodedString()))
    #expect(!clear.contains(Data("\0\(user)\0\(password)".utf8).base64EncodedString()))
  }

  @Test func aServerThatNeverAnswersQUITCostsAtMostTheTimeout() throws {
    let setup = try Self.start("quit", script: #"{"on": {"quit": {"hang": true}}}"#)
    defer { setup.finish() }
    let (outcome, seconds) = Self.sendOnce(try setup.server(timeout: 2))
    #expect(throws: Never.self) { try outcome.get() }
    #expect(setup.smtp.envelopes().count == 1)
    #expect(setup.smtp.events().contains { $0["event"] as? String == "hang" && $0["phase"] as? String == "quit" })
    // libcurl's own wait for QUIT's reply is 120 s; with the timeout, 2 s (and some slack).
    #expect(seconds < 20, "\(seconds) s")
  }

  static let hangs = ["connect", "tls", "ehlo", "starttls", "auth", "login", "mail", "rcpt", "data", "body", "end"]

  @Test(arguments: hangs)
  func aHangInAnyPhaseEndsWithinTheTimeoutAndLeavesTheDeliveryPending(_ phase: String) throws {
    let setup = try Self.start("hang-\(phase)", script: #"{"on": {"\#(phase)": {"hang": true}}}"#)
    defer { setup.finish() }
    let (outcome, seconds) = Self.sendOnce(try setup.server(timeout: 2))
    guard case .failure(let error) = outcome else {
      Issue.record("a server hanging at \(phase) took the message")
      return
    }
    #expect(error == .timedOut(seconds: 2), "\(phase): \(error)")
    #expect(error.stopsTheSession && !error.isPermanent)
    #expect(seconds < 20, "\(phase): \(seconds) s")
    #expect(setup.smtp.envelopes().isEmpty)
    Self.expectNoLoginInClear(setup.smtp)
  }

  /// Each refusal as the weekly job must read it: only a 5xx to RCPT TO refuses the
  /// address for good; a refusal of the sender or the session stops the session and keeps
  /// every delivery pending.
  static let refusals: [(phase: String, reply: String, expected: MailSendError, stops: Bool, permanent: Bool)] = [
    ("mail", "553 5.7.1 Sender address rejected: not owned by user", .senderRefused(reply: "reply 553"), true, false),
    ("mail", "530 5.7.0 Authentication required", .senderRefused(reply: "reply 530"), true, false),
    ("mail", "451 4.3.0 Try again later", .deferred(reply: "reply 451", phase: .sender), true, false),
    ("mail", "421 4.3.2 Shutting down", .deferred(reply: "reply 421", phase: .sender), true, false),
    ("rcpt", "550 5.1.1 User unknown", .recipientRefused(to, reply: "reply 550"), false, true),
    ("rcpt", "553 5.1.3 Bad recipient address syntax", .recipientRefused(to, reply: "reply 553"), false, true),
    ("rcpt", "452 4.2.2 Mailbox full", .deferred(reply: "reply 452", phase: .recipient), false, false),
    ("rcpt", "421 4.7.0 Too many errors", .deferred(reply: "reply 421", phase: .recipient), true, false),
    ("data", "554 5.5.1 No valid recipients", .messageRefused(reply: "reply 554"), false, false),
    ("end", "552 5.3.4 Message size exceeds fixed limit", .messageRefused(reply: "reply 552"), false, false),
    ("end", "451 4.7.1 Greylisted", .deferred(reply: "reply 451", phase: .message), false, false),
    ("connect", "554 5.7.1 No SMTP service here", .sessionRefused(reply: "reply 554", phase: .greeting), true, false),
    ("connect", "421 4.3.2 Too busy", .deferred(reply: "reply 421", phase: .greeting), true, false),
    ("ehlo", "550 5.7.1 Go away", .sessionRefused(reply: "reply 550", phase: .hello), true, false),
  ]

  @Test(arguments: refusals.indices)
  func eachRefusalSaysItsPhaseAndWhetherTheRestMayGo(_ index: Int) throws {
    let (phase, reply, expected, stops, permanent) = Self.refusals[index]
    let setup = try Self.start("refuse-\(index)", script: #"{"on": {"\#(phase)": {"reply": "\#(reply)"}}}"#)
    defer { setup.finish() }
    let (outcome, _) = Self.sendOnce(try setup.server(timeout: 10))
    guard case .failure(let error) = outcome else {
      Issue.record("\(phase) \(reply): the message went")
      return
    }
    #expect(error == expected, "\(phase) \(reply): \(error)")
    #expect(error.stopsTheSession == stops, "\(phase) \(reply)")
    #expect(error.isPermanent == permanent, "\(phase) \(reply)")
    #expect(error.refusesTheAddress == permanent)
    Self.expectNoLoginInClear(setup.smtp)
  }

  @Test func theLoginAndTLSRefusalsStopTheSession() throws {
    for (script, phase) in [
      (#"{"on": {"login": {"reply": "535 5.7.8 Authentication credentials invalid"}}}"#, SMTPPhase.login),
      (#"{"on": {"starttls": {"reply": "454 4.7.0 TLS not available"}}}"#, .tls),
      (#"{"offer_starttls": false}"#, .tls),
      (#"{"cert": "self"}"#, .tls),
      (#"{"cert": "wronghost"}"#, .tls),
      (#"{"cert": "expired"}"#, .tls),
    ] {
      let setup = try Self.start("login", script: script)
      defer { setup.finish() }
      let (outcome, _) = Self.sendOnce(try setup.server(timeout: 10))
      guard case .failure(let error) = outcome else {
        Issue.record("\(script): the message went")
        continue
      }
      #expect(error.phase == phase, "\(script): \(error)")
      #expect(error.stopsTheSession && !error.isPermanent, "\(script)")
      #expect(setup.smtp.envelopes().isEmpty)
      Self.expectNoLoginInClear(setup.smtp)
    }
  }

  @Test func aServerThatEchoesTheLoginNeverGetsItIntoAnError() throws {
    for phase in ["login", "mail", "rcpt", "end"] {
      let code = phase == "login" ? "535 5.7.8 bad" : phase == "rcpt" ? "550 5.1.1 no" : "554 5.7.1 no"
      let setup = try Self.start("echo-\(phase)", script: #"{"on": {"\#(phase)": {"reply": "\#(code)", "echo": true}}}"#)
      defer { setup.finish() }
      let (outcome, _) = Self.sendOnce(try setup.server(timeout: 10))
      guard case .failure(let error) = outcome else {
        Issue.record("\(phase): the message went")
        continue
      }
      let said = "\(error) \(String(reflecting: error))"
      #expect(!said.contains(Self.password), "\(said)")
      #expect(!said.contains(Data(Self.password.utf8).base64EncodedString()))
    }
  }

  /// Found by the hostile set: a server that closes the connection after each message
  /// (250, then gone) left every message after the first pending — over TLS libcurl took
  /// the closed connection for a live one. Nothing of the next message had reached the
  /// server, so it goes again on a new connection.
  @Test(arguments: ["starttls", "implicit"])
  func aServerThatClosesAfterEachMessageStillGetsEveryMessageOnce(_ mode: String) throws {
    let setup = try Self.start(
      "close-\(mode)", script: #"{"tls": "\#(mode)", "on": {"end": {"reply": "250 2.0.0 Ok", "then": "drop"}}}"#)
    defer { setup.finish() }
    let scheme = mode == "implicit" ? "smtps" : "smtp"
    let server = try SMTPServer(
      url: "\(scheme)://127.0.0.1:\(setup.smtp.port)", user: Self.user, password: MailPassword(Self.password),
      caFile: setup.smtp.caFile, timeout: 10)
    let transport = try CurlSMTPTransport(server: server)
    for n in 1...4 {
      #expect(throws: Never.self, "message \(n)") {
        try transport.send(Self.message, from: Self.from, to: try #require(MailAddress("r\(n)@example.go.kr")))
      }
    }
    #expect(setup.smtp.envelopes().compactMap { ($0["rcpt_tos"] as? [String])?.first }
      == ["r1@example.go.kr", "r2@example.go.kr", "r3@example.go.kr", "r4@example.go.kr"])
  }

  /// Once a message went, a connection lost before the reply (here the server stored it,
  /// then closed without a word) is not a reason to send it again on a new connection:
  /// that would be a second copy. The delivery stays pending (the server's answer is unknown).
  @Test func aMessageThatWentIsNotSentAgainWhenTheConnectionDiesBeforeItsReply() throws {
    let setup = try Self.start(
      "unreadable", script: #"{"on": {"end": {"drop": true, "keep": true, "after": 1}}}"#)
    defer { setup.finish() }
    let transport = try CurlSMTPTransport(server: try setup.server(timeout: 10))
    try transport.send(Self.message, from: Self.from, to: try #require(MailAddress("r1@example.go.kr")))
    #expect(throws: MailSendError.self) {
      try transport.send(Self.message, from: Self.from, to: try #require(MailAddress("r2@example.go.kr")))
    }
    #expect(setup.smtp.envelopes().compactMap { ($0["rcpt_tos"] as? [String])?.first } == ["r1@example.go.kr", "r2@example.go.kr"])
  }

  @Test func theEnvelopeTakesTheBareAddressOfASenderWithAName() throws {
    let setup = try Self.start("envelope", script: "{}")
    defer { setup.finish() }
    let (outcome, _) = Self.sendOnce(try setup.server(timeout: 10))
    #expect(throws: Never.self) { try outcome.get() }
    let envelope = try #require(setup.smtp.envelopes().first)
    #expect(envelope["mail_from"] as? String == "culture@example.go.kr")
    #expect(envelope["rcpt_tos"] as? [String] == ["a@example.go.kr"])
    #expect(envelope["tls"] as? Bool == true)
  }

  /// Issue 49 item 3: a password file saved with CRLF sent `PW\r` and the login was denied.
  @Test func aPasswordFileWithCRLFLogsIn() throws {
    let setup = try Self.start("crlf", script: "{}")
    defer { setup.finish() }
    let file = setup.dir.appendingPathComponent("smtp-password")
    try Data("\u{FEFF}\(Self.password)\r\n".utf8).write(to: file)
    #expect(chmod(file.path, 0o600) == 0)
    let password = try #require(try MailPassword.resolve(environment: [:], passwordFile: file.path))
    let (outcome, _) = Self.sendOnce(try setup.server(timeout: 10, password: password.secret))
    #expect(throws: Never.self) { try outcome.get() }
    #expect(setup.smtp.events().contains { $0["event"] as? String == "login" && $0["ok"] as? Bool == true })
  }
}
