import Foundation
import RaonConcurrency
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail
import RaonStore

/// The deliver step of `raon weekly`: plans a delivery for each recipient of the week's
/// lists (none for whoever has the message already, unless `--resend`), then sends every
/// delivery pending — this week's and any left by an earlier run — one recipient at a time,
/// recording each outcome in the ledger as it happens.
///
/// Every message is built and measured before the first is sent: one over
/// `max_message_bytes` goes in parts that each fit (``WeeklyMail/parts``), and a file too
/// big for any message stops the step with nothing sent. A refused address fails alone; a
/// server that cannot be reached (or goes away) leaves the rest pending, untried — and of a
/// message in parts, only the parts the server did not take.
struct WeeklyDelivery {
  let ledger: RunLedger
  let mail: MailSettings
  let server: SMTPServer
  let environment: RaonEnvironment
  let out: URL
  let language: ReportLanguage
  let makeTransport: (SMTPServer) throws -> any MailTransport

  struct Tally: Equatable {
    var sent = 0
    var refused = 0
    /// Pending after the step, every week together.
    var pending = 0
    /// One line per refusal or deferral, for the run's output.
    var notes: [String] = []
  }

  /// One message (in one part or several) to build and send to some of its list.
  private struct Parcel {
    var week: String
    var list: String
    var parts: [WeeklyMail.Part]
    var documentHash: String
    var deliveries: [DeliveryRecord]
  }

  /// Plans `week`'s deliveries (unless `week` is `nil`: pending ones only), then sends.
  func run(week: ISOWeek?, runID: Int64, resend: Bool) throws -> Tally {
    let now = environment.now()
    if let week {
      for (list, recipients) in mail.lists where !recipients.isEmpty {
        _ = try ledger.plan(week: week.start.description, list: list, recipients: recipients.map(\.text), resend: resend, at: now)
      }
    }
    var result = Tally()
    let parcels = try build(try ledger.pendingDeliveries(), runID: runID, resend: resend, result: &result)
    try send(parcels, runID: runID, result: &result)
    result.pending = try ledger.pendingDeliveries().count
    return result
  }

  /// A message for each (week, list) with deliveries pending, from the ledger's page 1 and
  /// the published files. A recipient no longer in its list is not sent to (refused, with
  /// why); a week whose files are gone stays pending, with why.
  private func build(_ pending: [DeliveryRecord], runID: Int64, resend: Bool, result: inout Tally) throws -> [Parcel] {
    var parcels: [Parcel] = []
    var messagesByWeek: [String: [String: WeeklyMessageRecord]] = [:]
    let lists = Dictionary(mail.lists.map { ($0.list, $0.recipients) }, uniquingKeysWith: { a, _ in a })
    let groups = Dictionary(grouping: pending) { "\($0.week)\u{1F}\($0.list)" }
    for key in groups.keys.sorted() {
      guard let deliveries = groups[key], let first = deliveries.first else { continue }
      let recipients = lists[first.list] ?? []
      var wanted: [DeliveryRecord] = []
      for delivery in deliveries {
        if recipients.contains(where: { $0.text == delivery.recipient }) {
          wanted.append(delivery)
        } else {
          try ledger.record(.refused(reason: "no longer in raon.toml's [mail] lists"), delivery: delivery.id, run: runID, at: environment.now())
          result.refused += 1
        }
      }
      guard !wanted.isEmpty else { continue }
      if messagesByWeek[first.week] == nil {
        messagesByWeek[first.week] = Dictionary(try ledger.messages(week: first.week).map { ($0.list, $0) }, uniquingKeysWith: { a, _ in a })
      }
      guard let record = messagesByWeek[first.week]?[first.list], let day = CalendarDay(iso: first.week),
        let summary = try? JSONDecoder().decode(WeeklySummary.self, from: Data(record.summary.utf8)),
        let attachments = try? JSONDecoder().decode([WeeklyMail.Attachment].self, from: Data(record.attachments.utf8))
      else {
        result.notes.append("\(first.list) of \(first.week): no report of that week is recorded to send — run 'raon weekly --week \(first.week)'")
        continue
      }
      let files: (files: [MailAttachment], hash: String)
      do {
        files = try WeeklyMail.read(attachments, under: out)
      } catch {
        result.notes.append("\(first.list) of \(first.week): \(error) — run 'raon weekly --week \(first.week)' to write it again")
        continue
      }
      let week = ISOWeek(containing: day)
      let id = WeeklyMail.messageID(
        week: week, list: first.list, documentHash: files.hash, resendRun: resend ? runID : nil, from: mail.from)
      let parts = try WeeklyMail.parts(
        summary: summary, subject: record.subject, to: recipients, files: files.files, messageID: id, from: mail.from,
        date: environment.now(), language: language, cap: mail.maxMessageBytes)
      parcels.append(Parcel(week: first.week, list: first.list, parts: parts, documentHash: files.hash, deliveries: wanted))
    }
    return parcels
  }

  /// Hands each parcel to the server, a recipient at a time; each outcome is recorded at
  /// once, and a signal waits for the one in hand (so the ledger says what the server took).
  private func send(_ parcels: [Parcel], runID: Int64, result: inout Tally) throws {
    guard !parcels.isEmpty else { return }
    let total = parcels.reduce(0) { $0 + $1.deliveries.count }
    var transport: (any MailTransport)?
    var done = 0
    for parcel in parcels {
      for delivery in parcel.deliveries {
        done += 1
        environment.progress("mail: \(done)/\(total) — \(parcel.list) to \(delivery.recipient) …")
        guard let recipient = MailAddress(delivery.recipient) else { continue }
        // Of a message in parts, the parts an earlier run got through are not sent again.
        let taken = Set((delivery.messageID ?? "").split(separator: " ").map { WeeklyMail.content(ofID: String($0)) })
        let ids = parcel.parts.map(\.message.messageID)
        let outcome: Result<Void, MailSendError>
        do {
          outcome = try Interruption.process.unlessInterrupted {
            var outcome: Result<Void, MailSendError> = .success(())
            var sent = ids.filter { taken.contains(WeeklyMail.content(ofID: $0)) }
            for part in parcel.parts where !taken.contains(WeeklyMail.content(ofID: part.message.messageID)) {
              do {
                if transport == nil { transport = try makeTransport(server) }
                try transport?.send(part.bytes, from: mail.from, to: recipient)
                sent.append(part.message.messageID)
              } catch let error as MailSendError {
                outcome = .failure(error)
                break
              }
            }
            let attempt: DeliveryAttempt =
              switch outcome {
              case .success: .sent(messageID: ids.joined(separator: " "), documentHash: parcel.documentHash)
              case .failure(let error) where error.isPermanent: .refused(reason: error.description)
              case .failure(let error) where !sent.isEmpty:
                .partlySent(messageIDs: ids.filter(sent.contains).joined(separator: " "), reason: error.description)
              case .failure(let error): .deferred(reason: error.description)
              }
            try ledger.record(attempt, delivery: delivery.id, run: runID, at: environment.now())
            return outcome
          }
        } catch is Interruption.Interrupted {
          throw WorkflowError.interrupted
        }
        switch outcome {
        case .success:
          result.sent += 1
        case .failure(let error):
          if error.isPermanent { result.refused += 1 }
          result.notes.append("\(parcel.list) to \(delivery.recipient): \(error)")
          // The server is out of reach: the rest stay pending, untried, for the next run.
          if error.stopsTheSession { return }
        }
      }
    }
  }
}
