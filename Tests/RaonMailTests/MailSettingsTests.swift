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
    let refused = CurlSMTPTransport.classify(CURLE_SEND_ERROR, reply: 550, detail: "RCPT failed: 550", recipient: to)
    #expect(refused == .recipientRefused(to, reply: "550 RCPT failed: 550"))
    #expect(refused.isPermanent && !refused.stopsTheSession)
    let deferred = CurlSMTPTransport.classify(CURLE_SEND_ERROR, reply: 421, detail: "MAIL failed: 421", recipient: to)
    #expect(!deferred.isPermanent && !deferred.stopsTheSession)
    let down = CurlSMTPTransport.classify(CURLE_COULDNT_CONNECT, reply: 0, detail: "Couldn't connect", recipient: to)
    #expect(down == .unreachable(reason: "Couldn't connect") && down.stopsTheSession)
    #expect(CurlSMTPTransport.classify(CURLE_LOGIN_DENIED, reply: 535, detail: "Login denied", recipient: to).stopsTheSession)
    if case .tls = CurlSMTPTransport.classify(CURLE_USE_SSL_FAILED, reply: 0, detail: "", recipient: to) {} else {
      Issue.record("no STARTTLS is a TLS failure")
    }
    let big = CurlSMTPTransport.classify(CURLE_WEIRD_SERVER_REPLY, reply: 552, detail: "message too big", recipient: to)
    #expect(big == .messageRefused(reply: "552 message too big"))
  }
}
