import CCurl
import Foundation
@testable import RaonMail
import TestSupport
import Testing

@Suite struct MailSettingsTests {
  @Test func thePasswordComesFromTheEnvironmentFirstThenAFileOnlyItsOwnerReads() throws {
    let dir = try Fixtures.temporaryDirectory("raon-smtp-password")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("password").path
    try Data("s3cret-from-file\nsecond line\n".utf8).write(to: URL(fileURLWithPath: file))

    #expect(chmod(file, 0o600) == 0)
    #expect(try MailPassword.resolve(environment: [:], passwordFile: file)?.secret == "s3cret-from-file")
    #expect(try MailPassword.resolve(environment: ["RAON_SMTP_PASSWORD": "from-env"], passwordFile: file)?.secret == "from-env")
    #expect(try MailPassword.resolve(environment: ["RAON_SMTP_PASSWORD": "  "], passwordFile: nil) == nil)

    for mode in [0o644, 0o640, 0o604] as [mode_t] {
      #expect(chmod(file, mode) == 0)
      #expect(throws: MailConfigurationError.self) { try MailPassword.resolve(environment: [:], passwordFile: file) }
      do {
        _ = try MailPassword.resolve(environment: [:], passwordFile: file)
      } catch {
        #expect("\(error)".contains("chmod 600"), "\(error)")
        #expect(!"\(error)".contains("s3cret"))
      }
    }
    #expect(throws: MailConfigurationError.self) { try MailPassword.resolve(environment: [:], passwordFile: dir.path) }
    #expect(throws: MailConfigurationError.self) {
      try MailPassword.resolve(environment: [:], passwordFile: dir.appendingPathComponent("none").path)
    }
  }

  @Test func aPasswordNeverShowsInADescription() {
    let password = MailPassword("hunter2-secret")
    #expect("\(password)" == "(hidden)")
    #expect(String(reflecting: password) == "(hidden)")
    let server = try? SMTPServer(url: "smtp://mail.example:587", user: "u", password: password)
    #expect(!"\(String(describing: server))".contains("hunter2"))
  }

  @Test func onlySMTPAndSMTPSURLsWithAHostAndNoLoginInThemAreServers() throws {
    #expect(try SMTPServer(url: "smtp://mail.example:587").implicitTLS == false)
    #expect(try SMTPServer(url: "smtps://mail.example").displayName == "smtps://mail.example:465")
    for bad in ["http://mail.example", "mail.example:587", "smtp://", "smtp://u:p@mail.example", "smtp://mail.example?x=1"] {
      #expect(throws: MailConfigurationError.self, "\(bad)") { try SMTPServer(url: bad) }
    }
  }

  @Test func libcurlsFailuresAreSortedIntoWhatTheyMeanForADelivery() throws {
    let to = try #require(MailAddress("b@example.org"))
    func classify(_ code: CURLcode, _ reply: Int, _ detail: String) -> MailSendError {
      CurlSMTPTransport.classify(code, reply: reply, detail: detail, recipient: to, timeout: 20)
    }
    let refused = classify(CURLE_SEND_ERROR, 550, "RCPT failed: 550")
    #expect(refused == .recipientRefused(to, reply: "reply 550"))
    #expect(refused.isPermanent && !refused.stopsTheSession)
    // Issue 49 item 2: a refusal of the sender is the session's, never the address's.
    let sender = classify(CURLE_SEND_ERROR, 553, "MAIL failed: 553")
    #expect(sender == .senderRefused(reply: "reply 553") && !sender.isPermanent && sender.stopsTheSession)
    let deferred = classify(CURLE_SEND_ERROR, 451, "MAIL failed: 451")
    #expect(deferred == .deferred(reply: "reply 451", phase: .sender) && !deferred.isPermanent && deferred.stopsTheSession)
    let greylisted = classify(CURLE_SEND_ERROR, 450, "RCPT failed: 450")
    #expect(!greylisted.isPermanent && !greylisted.stopsTheSession)
    let down = classify(CURLE_COULDNT_CONNECT, 0, "Couldn't connect")
    #expect(down == .unreachable(reason: "Couldn't connect") && down.stopsTheSession)
    let gone = classify(CURLE_SEND_ERROR, 250, "Failure when sending data to the peer")
    #expect(gone == .unreachable(reason: "Failure when sending data to the peer") && gone.stopsTheSession)
    #expect(classify(CURLE_OPERATION_TIMEDOUT, 250, "Operation timed out") == .timedOut(seconds: 20))
    #expect(classify(CURLE_LOGIN_DENIED, 535, "").phase == .login)
    #expect(classify(CURLE_LOGIN_DENIED, 535, "").stopsTheSession)
    #expect(classify(CURLE_USE_SSL_FAILED, 0, "STARTTLS not supported.").phase == .tls)
    let big = classify(CURLE_WEIRD_SERVER_REPLY, 552, "")
    #expect(big == .messageRefused(reply: "reply 552") && !big.isPermanent && !big.stopsTheSession)
    #expect(classify(CURLE_WEIRD_SERVER_REPLY, 554, "Got unexpected smtp-server response: 554") == .sessionRefused(reply: "reply 554", phase: .greeting))
    #expect(classify(CURLE_REMOTE_ACCESS_DENIED, 550, "Remote access denied: 550") == .sessionRefused(reply: "reply 550", phase: .hello))
  }

  /// Issue 49 item 3: `"\r\n"` is one Character in Swift, so a split on `"\n"` kept the CR.
  @Test func aPasswordFilesFirstLineEndsAtLFCROrCRLFWithoutAByteOrderMark() throws {
    let dir = try Fixtures.temporaryDirectory("raon-smtp-password-lines")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("password").path
    for (bytes, expected) in [
      ("PW-1\r\n", "PW-1"), ("PW-1\r\nsecond\r\n", "PW-1"), ("PW-1\r", "PW-1"), ("PW-1\n", "PW-1"), ("PW-1", "PW-1"),
      ("\u{FEFF}PW-1\r\n", "PW-1"), (" PW 1 \n", " PW 1 "), ("비밀-1\r\n", "비밀-1"), ("PW-1\rsecond", "PW-1"),
    ] {
      try Data(bytes.utf8).write(to: URL(fileURLWithPath: file))
      #expect(chmod(file, 0o600) == 0)
      let secret = try MailPassword.resolve(environment: [:], passwordFile: file)?.secret
      #expect(secret == expected, "\(bytes.debugDescription) gave \(secret.debugDescription)")
    }
    for empty in ["\r\n", "\u{FEFF}\n", ""] {
      try Data(empty.utf8).write(to: URL(fileURLWithPath: file))
      #expect(throws: MailConfigurationError.self, "\(empty.debugDescription)") {
        try MailPassword.resolve(environment: [:], passwordFile: file)
      }
    }
    // An environment file with CRLF line ends leaves a CR on the variable.
    #expect(try MailPassword.resolve(environment: ["RAON_SMTP_PASSWORD": "PW-2\r"], passwordFile: nil)?.secret == "PW-2")
    #expect(try MailPassword.resolve(environment: ["RAON_SMTP_PASSWORD": "PW 2 "], passwordFile: nil)?.secret == "PW 2 ")
  }

  /// Issue 49 item 5: a port libcurl cannot use passed the check and every run failed.
  @Test func aServerURLNeedsAUsablePortAndAHostNameForEHLO() throws {
    for good in [
      "smtp://127.0.0.1:1", "smtp://127.0.0.1:65535", "smtps://mail.example.go.kr", "smtp://[::1]:587",
      "smtp://mail.example:587/raon.example.go.kr", "SMTP://Mail.Example:25/", "smtp://localhost:2525",
    ] {
      #expect(throws: Never.self, "\(good)") { try SMTPServer(url: good) }
    }
    for port in ["smtp://127.0.0.1:99999", "smtp://127.0.0.1:0", "smtp://127.0.0.1:65536", "smtp://127.0.0.1:abc",
                 "smtp://127.0.0.1:", "smtp://127.0.0.1:-1", "smtp://127.0.0.1:5 87", "smtp://[::1]:0", "smtp://h:0587000"] {
      #expect(throws: MailConfigurationError.self, "\(port)") { try SMTPServer(url: port) }
    }
    #expect(throws: MailConfigurationError.badServerPort("smtp://127.0.0.1:99999")) { try SMTPServer(url: "smtp://127.0.0.1:99999") }
    #expect(throws: MailConfigurationError.badServerPort("smtp://127.0.0.1:0")) { try SMTPServer(url: "smtp://127.0.0.1:0") }
    for bad in ["smtp://-x.kr:587", "smtp://x_y.kr", "smtp://mail.example:587/a%0D%0AMAIL%20FROM", "smtp://h/a/b",
                "smtp://mail.example#x", "smtp://mail.example:587/ehlo?x", "smtp:// mail.example", "smtp://mail.example\r\n"] {
      #expect(throws: MailConfigurationError.self, "\(bad.debugDescription)") { try SMTPServer(url: bad) }
    }
    // A login in the URL is refused and never shown.
    do {
      _ = try SMTPServer(url: "smtp://user:hunter2-secret@mail.example:587")
      Issue.record("a login in the URL was taken")
    } catch {
      #expect(!"\(error)".contains("hunter2"), "\(error)")
    }
  }
}
