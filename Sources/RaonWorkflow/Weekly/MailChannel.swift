import Foundation
import RaonMail
import RaonStore

/// E-mail as a ``DeliveryChannel``: one SMTP session for the run (opened at the first
/// message), each part of a message in parts recorded as the server takes it, so a run
/// cut off between parts sends only the rest next time.
final class MailChannel: DeliveryChannel {
  let name = "mail"
  let needsMailParts = true
  private let ledger: RunLedger
  private let mail: MailSettings
  private let server: SMTPServer
  private let now: () -> Date
  private let makeTransport: (SMTPServer) throws -> any MailTransport
  private var transport: (any MailTransport)?

  init(
    ledger: RunLedger, mail: MailSettings, server: SMTPServer, now: @escaping () -> Date,
    makeTransport: @escaping (SMTPServer) throws -> any MailTransport
  ) {
    self.ledger = ledger
    self.mail = mail
    self.server = server
    self.now = now
    self.makeTransport = makeTransport
  }

  func delivers(to recipient: String) -> Bool { MailAddress(recipient) != nil }

  func deliver(_ parcel: WeeklyParcel, _ delivery: DeliveryRecord, runID: Int64) throws -> ChannelOutcome {
    guard let recipient = MailAddress(delivery.recipient) else {
      return ChannelOutcome(attempt: .refused(reason: "not an e-mail address"), failure: "not an e-mail address", refusedForGood: true)
    }
    // The parts an earlier run got through are not sent again.
    let taken = Set((delivery.messageID ?? "").split(separator: " ").map { WeeklyMail.content(ofID: String($0)) })
    let ids = parcel.parts.map(\.message.messageID)
    var sent = ids.filter { taken.contains(WeeklyMail.content(ofID: $0)) }
    var failure: MailSendError?
    for part in parcel.parts where !taken.contains(WeeklyMail.content(ofID: part.message.messageID)) {
      do {
        if transport == nil { transport = try makeTransport(server) }
        try transport?.send(part.bytes, from: mail.from, to: recipient)
      } catch let error as MailSendError {
        failure = error
        break
      }
      sent.append(part.message.messageID)
      if sent.count < ids.count {
        try ledger.notePartsTaken(ids.filter(sent.contains).joined(separator: " "), delivery: delivery.id, run: runID, at: now())
      }
    }
    guard let failure else {
      return .sent(messageID: ids.joined(separator: " "), documentHash: parcel.documentHash)
    }
    var outcome = ChannelOutcome(attempt: .deferred(reason: failure.description), failure: failure.description)
    outcome.stopsChannel = failure.stopsTheSession
    if case .recipientRefused = failure {
      // Only the address itself is refused for good: the others go on.
      outcome.attempt = .refused(reason: failure.description)
      outcome.refusedForGood = true
    } else if !sent.isEmpty {
      outcome.attempt = .partlySent(messageIDs: ids.filter(sent.contains).joined(separator: " "), reason: failure.description)
    }
    return outcome
  }
}
