import Foundation
import RaonErrors

/// Hands a rendered message to a mail server for one recipient. The weekly job sends
/// through it (``CurlSMTPTransport`` in use; tests may give their own) and records each
/// outcome in the ledger.
///
/// One recipient per call, so that every address's delivery is known: a refused address
/// fails alone, and a server that goes away leaves exactly the messages not yet handed over.
public protocol MailTransport: AnyObject {
  /// - Throws: ``MailSendError``.
  func send(_ message: Data, from sender: MailAddress, to recipient: MailAddress) throws
}

/// Why a message did not reach the server for a recipient.
public enum MailSendError: RaonError, Equatable, CustomStringConvertible {
  public var exitStatus: ExitStatus { .failure }
  /// The server refused this address for good (a 5xx reply to `RCPT TO`): the others go on.
  case recipientRefused(MailAddress, reply: String)
  /// The server refused this message for good (a 5xx reply to the data).
  case messageRefused(reply: String)
  /// The server refused the sender or the session (a 5xx reply to `MAIL FROM`: 553 sender
  /// not allowed, 530 login required): no recipient can be sent to until the settings change.
  case senderRefused(reply: String)
  /// A refusal for now (a 4xx reply): try again later.
  case deferred(reply: String)
  /// No conversation with the server: it could not be reached, it went away, it timed out.
  case unreachable(reason: String)
  /// The TLS connection failed or could not be made (STARTTLS not offered, a certificate
  /// not trusted).
  case tls(reason: String)
  /// The server refused the user name and password.
  case authentication(reason: String)

  /// Whether the server is out of reach for every recipient, so the rest need not be tried
  /// now (they stay pending).
  public var stopsTheSession: Bool {
    switch self {
    case .unreachable, .tls, .authentication, .senderRefused: true
    case .recipientRefused, .messageRefused, .deferred: false
    }
  }

  /// Whether trying again later may succeed (the delivery stays pending) or not (it is
  /// refused until someone changes the address or the message).
  public var isPermanent: Bool {
    switch self {
    case .recipientRefused, .messageRefused: true
    case .deferred, .unreachable, .tls, .authentication, .senderRefused: false
    }
  }

  public var description: String {
    switch self {
    case .recipientRefused(let address, let reply): "the server refused \(address): \(reply)"
    case .messageRefused(let reply): "the server refused the message: \(reply)"
    case .senderRefused(let reply): "the server refused the sender (MAIL FROM): \(reply) — check [mail] from and user"
    case .deferred(let reply): "the server deferred it: \(reply)"
    case .unreachable(let reason): "the mail server could not be reached: \(reason)"
    case .tls(let reason): "no secure connection to the mail server: \(reason)"
    case .authentication(let reason): "the mail server refused the login: \(reason)"
    }
  }
}
