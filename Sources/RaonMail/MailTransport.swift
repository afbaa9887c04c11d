import Foundation

/// Hands a rendered message to a mail server for one recipient. The weekly job sends
/// through it (``CurlSMTPTransport`` in use; tests may give their own) and records each
/// outcome in the ledger.
///
/// One recipient per call, so that every address's delivery is known: a refused address
/// fails alone, and a server that goes away leaves exactly the messages not yet handed over.
public protocol MailTransport: AnyObject {
  /// - Parameter sender: The envelope's sender (`MAIL FROM`): a bare address.
  /// - Throws: ``MailSendError``.
  func send(_ message: Data, from sender: MailAddress, to recipient: MailAddress) throws
}

extension MailTransport {
  /// Sends with `sender`'s address in the envelope (its name is only in the `From:` header).
  ///
  /// - Throws: ``MailSendError``.
  public func send(_ message: Data, from sender: Mailbox, to recipient: MailAddress) throws {
    try send(message, from: sender.address, to: recipient)
  }
}
