import Foundation
import RaonMail
import RaonStore

/// One week's message to some recipients of one list: what every channel delivers from.
/// Built once per (week, list, kind) by ``WeeklyDelivery`` before anything is sent.
struct WeeklyParcel {
  var week: String
  var list: String
  /// The message as mail carries it (one part or several, measured against
  /// `max_message_bytes`); empty when the list has no mail recipient pending.
  var parts: [WeeklyMail.Part]
  /// The SHA-256 of the files the message carries (`notice` for a stale week's notice).
  var documentHash: String
  var deliveries: [DeliveryRecord]
  /// Page 1 as the ledger keeps it; `nil` for a stale week's notice.
  var summary: WeeklySummary?
  /// The published files the message carries, with the names a person sees.
  var files: [WeeklyMail.Attachment] = []
}

/// What became of one delivery on one channel.
struct ChannelOutcome {
  /// What the ledger records.
  var attempt: DeliveryAttempt
  /// Why it did not go, as the run's output says it; `nil` when it went.
  var failure: String?
  /// The recipient itself was refused: refused for good, the others go on.
  var refusedForGood = false
  /// The channel cannot go on in this run (its server is out of reach, refuses the login or
  /// the sender): its other deliveries stay pending, untried.
  var stopsChannel = false

  static func sent(messageID: String, documentHash: String) -> ChannelOutcome {
    ChannelOutcome(attempt: .sent(messageID: messageID, documentHash: documentHash), failure: nil)
  }
}

/// A way a week's message reaches its recipients: e-mail (``MailChannel``) or an HTTP
/// webhook (``WebhookChannel``). The ledger names each recipient by a text of the
/// channel's own (`a@example.go.kr`, `webhook:culture`); ``WeeklyDelivery`` plans, claims
/// and records each delivery the same way whatever the channel, and a new channel is a type
/// that conforms to this and a config section that names its recipients.
protocol DeliveryChannel: AnyObject {
  /// The channel's name in the run's progress line: `mail`, `webhook`.
  var name: String { get }
  /// Whether `recipient` (as the ledger names it) is this channel's.
  func delivers(to recipient: String) -> Bool
  /// Whether this channel's recipients need the message built as mail (its parts).
  var needsMailParts: Bool { get }
  /// Hands `parcel` to one recipient. Parts of a message in parts are recorded as they are
  /// taken (the channel does so itself); the outcome is recorded by the caller.
  func deliver(_ parcel: WeeklyParcel, _ delivery: DeliveryRecord, runID: Int64) throws -> ChannelOutcome
}
