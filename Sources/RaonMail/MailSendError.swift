import RaonErrors

/// The step of an SMTP conversation in which something went wrong.
public enum SMTPPhase: String, Sendable, Equatable {
  /// Reaching the server: the connection, or an answer that never came.
  case connection
  /// The server's first line (`220`), before anything is said.
  case greeting
  /// `EHLO`.
  case hello
  /// `STARTTLS` and the TLS handshake (or TLS from the start).
  case tls
  /// `AUTH`: the login.
  case login
  /// `MAIL FROM`: the sender.
  case sender
  /// `RCPT TO`: the recipient.
  case recipient
  /// `DATA`, or the server's reply once the message was handed over.
  case message
}

/// Why a message did not reach the server for a recipient, and what that means for the
/// delivery: only a refusal of the address itself (a 5xx reply to `RCPT TO`) is final for
/// it; a refusal of the sender, the login, the session or the message keeps it pending
/// (someone fixes the config or the server, and the next run sends it).
///
/// | case | phase | ``isPermanent`` | ``stopsTheSession`` |
/// |---|---|---|---|
/// | ``recipientRefused(_:reply:)`` | recipient | yes | no |
/// | ``messageRefused(reply:)`` | message | no | no |
/// | ``deferred(reply:phase:)`` at `RCPT TO` or the message | recipient, message | no | only for 421 |
/// | ``deferred(reply:phase:)`` earlier | greeting … sender | no | yes |
/// | ``senderRefused(reply:)``, ``sessionRefused(reply:phase:)`` | sender; greeting, hello | no | yes |
/// | ``authentication(reason:)``, ``tls(reason:)`` | login, tls | no | yes |
/// | ``unreachable(reason:)``, ``timedOut(seconds:)`` | connection | no | yes |
public enum MailSendError: RaonError, Equatable, CustomStringConvertible {
  public var exitStatus: ExitStatus { .failure }
  /// The server refused this address for good (a 5xx reply to `RCPT TO`): the others go on.
  case recipientRefused(MailAddress, reply: String)
  /// The server refused the sender (a 5xx reply to `MAIL FROM`: 530 "authentication
  /// required", 553 "sender not allowed"): no message can go in this session.
  case senderRefused(reply: String)
  /// The server refused the session itself (a 5xx greeting, or 5xx to `EHLO`).
  case sessionRefused(reply: String, phase: SMTPPhase)
  /// The server refused this message (a 5xx reply to `DATA` or to the message's end):
  /// another message may go.
  case messageRefused(reply: String)
  /// A refusal for now (a 4xx reply) in `phase`: try again later.
  case deferred(reply: String, phase: SMTPPhase)
  /// No conversation with the server: it could not be reached or it went away.
  case unreachable(reason: String)
  /// The server did not answer within the time allowed (`[mail] timeout`).
  case timedOut(seconds: Int)
  /// The TLS connection failed or could not be made (STARTTLS not offered, a certificate
  /// not trusted).
  case tls(reason: String)
  /// The server refused the user name and password.
  case authentication(reason: String)

  /// Where the conversation failed.
  public var phase: SMTPPhase {
    switch self {
    case .recipientRefused: .recipient
    case .senderRefused: .sender
    case .sessionRefused(_, let phase), .deferred(_, let phase): phase
    case .messageRefused: .message
    case .unreachable, .timedOut: .connection
    case .tls: .tls
    case .authentication: .login
    }
  }

  /// Whether the refusal is of the recipient's address alone (and for good).
  public var refusesTheAddress: Bool {
    if case .recipientRefused = self { return true }
    return false
  }

  /// Whether the server is out of reach or will take nothing from this sender now, so
  /// the rest need not be tried (they stay pending).
  public var stopsTheSession: Bool {
    switch self {
    case .recipientRefused, .messageRefused: false
    case .deferred(let reply, let phase):
      // 421: the server is closing the connection, whatever the command was.
      Self.code(of: reply) == 421 || !(phase == .recipient || phase == .message)
    case .senderRefused, .sessionRefused, .unreachable, .timedOut, .tls, .authentication: true
    }
  }

  /// The reply code in `reply` (`"reply 421"`, `"421 4.3.2 …"`), if any.
  static func code(of reply: String) -> Int? {
    reply.split(whereSeparator: { !$0.isNumber }).lazy.compactMap { Int($0) }.first { (200..<600).contains($0) }
  }

  /// Whether trying again later cannot succeed for this recipient (the delivery is refused
  /// until someone changes the address); else it stays pending. Only ``recipientRefused(_:reply:)``.
  public var isPermanent: Bool { refusesTheAddress }

  public var description: String {
    switch self {
    case .recipientRefused(let address, let reply): "the server refused \(address) at RCPT TO: \(reply)"
    case .senderRefused(let reply):
      "the server refused the sender at MAIL FROM: \(reply) — check [mail] from and user; the deliveries stay pending"
    case .sessionRefused(let reply, let phase):
      "the server refused the session at \(phase.command): \(reply); the deliveries stay pending"
    case .messageRefused(let reply): "the server refused the message: \(reply); the delivery stays pending"
    case .deferred(let reply, let phase): "the server deferred it at \(phase.command): \(reply)"
    case .unreachable(let reason): "the mail server could not be reached: \(reason)"
    case .timedOut(let seconds):
      "the mail server did not answer within \(seconds) s ([mail] timeout); the deliveries stay pending"
    case .tls(let reason): "no secure connection to the mail server: \(reason)"
    case .authentication(let reason): "the mail server refused the login: \(reason)"
    }
  }
}

extension SMTPPhase {
  /// The command (or moment) as an operator reads it in a message.
  var command: String {
    switch self {
    case .connection: "the connection"
    case .greeting: "its greeting"
    case .hello: "EHLO"
    case .tls: "STARTTLS"
    case .login: "AUTH"
    case .sender: "MAIL FROM"
    case .recipient: "RCPT TO"
    case .message: "DATA"
    }
  }
}
