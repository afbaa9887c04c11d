import Foundation
import RaonConcurrency
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail
import RaonStore

/// The deliver step of `raon weekly`: plans a delivery for each recipient of the week's
/// lists (none for whoever has the message already, unless `--resend`; `held` when a gate
/// or `approve` holds the week), then sends every delivery pending — this week's and any
/// left by an earlier run — one recipient at a time, recording each outcome in the ledger
/// as it happens.
///
/// Every message is built and measured before the first is sent: one over
/// `max_message_bytes` goes in parts that each fit (``WeeklyMail/parts``), and a file too
/// big for any message stops the step with nothing sent. Each delivery is claimed before it
/// is sent (``RunLedger/claim(_:run:)``), so two runs on one store never send it twice; each
/// part of a message in parts is recorded as the server takes it. Only a refused address
/// (a 5xx to `RCPT TO`) is refused for good; a server that cannot be reached, refuses the
/// login or the sender, or goes away leaves the rest pending, untried.
struct WeeklyDelivery {
  let store: any SnapshotStoring
  let mail: MailSettings
  let server: SMTPServer
  let environment: RaonEnvironment
  let out: URL
  let language: ReportLanguage
  let makeTransport: (SMTPServer) throws -> any MailTransport

  var ledger: RunLedger { store.ledger }

  /// What the step plans before it sends.
  enum Plan {
    /// The week's report to every list (`hold`: held until `--release`).
    case report(ISOWeek, hold: Bool, resend: Bool)
    /// A stale week's notice to every list (`stale_notice`), saying `facts`.
    case notice(ISOWeek, hold: Bool, facts: WeeklyMail.NoticeFacts)
    /// Nothing new: only what is pending.
    case pendingOnly
    /// Exactly these deliveries (`--release`).
    case only(Set<Int64>)
  }

  struct Tally: Equatable {
    var sent = 0
    var refused = 0
    /// Pending after the step, every week together.
    var pending = 0
    /// Held after the step, every week together.
    var held = 0
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

  /// Plans as `plan` says, then sends.
  func run(_ plan: Plan, runID: Int64) throws -> Tally {
    let now = environment.now()
    var resend = false
    var only: Set<Int64>?
    var known: [String: WeeklyMail.NoticeFacts] = [:]
    switch plan {
    case .report(let week, let hold, let again):
      resend = again
      for (list, recipients) in mail.lists where !recipients.isEmpty {
        _ = try ledger.plan(
          week: week.start.description, list: list, recipients: recipients.map(\.text), resend: again, hold: hold, at: now)
      }
    case .notice(let week, let hold, let facts):
      known[week.start.description] = facts
      for (list, recipients) in mail.lists where !recipients.isEmpty {
        _ = try ledger.plan(
          week: week.start.description, list: list, recipients: recipients.map(\.text), resend: false, hold: hold,
          kind: .notice, at: now)
      }
    case .pendingOnly:
      break
    case .only(let ids):
      only = ids
    }
    var result = Tally()
    let pending = try ledger.pendingDeliveries().filter { only?.contains($0.id) ?? true }
    let parcels = try build(pending, runID: runID, resend: resend, notices: known, result: &result)
    try send(parcels, runID: runID, result: &result)
    result.pending = try ledger.pendingDeliveries().count
    result.held = try ledger.deliveries(status: .held).count
    return result
  }

  /// A message for each (week, list, kind) with deliveries pending: a report from the
  /// ledger's page 1 and the published files, a notice from the stale run's snapshot. A
  /// recipient no longer in its list is not sent to (refused, with why); a week whose files
  /// are gone stays pending, with why.
  private func build(
    _ pending: [DeliveryRecord], runID: Int64, resend: Bool, notices: [String: WeeklyMail.NoticeFacts],
    result: inout Tally
  ) throws -> [Parcel] {
    var parcels: [Parcel] = []
    var messagesByWeek: [String: [String: WeeklyMessageRecord]] = [:]
    let lists = Dictionary(mail.lists.map { ($0.list, $0.recipients) }, uniquingKeysWith: { a, _ in a })
    let groups = Dictionary(grouping: pending) { "\($0.week)\u{1F}\($0.kind.rawValue)\u{1F}\($0.list)" }
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
      guard !wanted.isEmpty, let day = CalendarDay(iso: first.week) else { continue }
      let week = ISOWeek(containing: day)
      if first.kind == .notice {
        guard let facts = try notices[first.week] ?? noticeFacts(week) else {
          result.notes.append("the notice to \(first.list) of \(first.week): no stale run of that week is recorded")
          continue
        }
        let message = WeeklyMail.notice(
          facts, list: first.list, to: recipients, from: mail.from, date: environment.now(), language: language)
        let part = WeeklyMail.Part(message: message, bytes: MIMEWriter.render(message))
        parcels.append(Parcel(week: first.week, list: first.list, parts: [part], documentHash: "notice", deliveries: wanted))
        continue
      }
      if messagesByWeek[first.week] == nil {
        messagesByWeek[first.week] = Dictionary(try ledger.messages(week: first.week).map { ($0.list, $0) }, uniquingKeysWith: { a, _ in a })
      }
      guard let record = messagesByWeek[first.week]?[first.list],
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
      let id = WeeklyMail.messageID(
        week: week, list: first.list, documentHash: files.hash, resendRun: resend ? runID : nil, from: mail.from)
      let parts = try WeeklyMail.parts(
        summary: summary, subject: record.subject, to: recipients, files: files.files, messageID: id, from: mail.from,
        date: environment.now(), language: language, cap: mail.maxMessageBytes)
      parcels.append(Parcel(week: first.week, list: first.list, parts: parts, documentHash: files.hash, deliveries: wanted))
    }
    return parcels
  }

  /// What a stale week's notice says, from the ledger's stale run of the week (a notice
  /// left pending by it).
  private func noticeFacts(_ week: ISOWeek) throws -> WeeklyMail.NoticeFacts? {
    guard let run = try ledger.lastRun(week: week.start.description, outcome: .stale), let id = run.snapshotID,
      let snapshot = try store.snapshots().first(where: { $0.id == id })
    else { return nil }
    let earlier = try ledger.reportedEarlier(snapshot: id, before: week.start.description)
    return WeeklyMail.NoticeFacts(
      week: week, collectedAt: snapshot.takenAt,
      reportedWeek: earlier.flatMap { CalendarDay(iso: $0.week) }.map(ISOWeek.init(containing:)))
  }

  /// Hands each parcel to the server, a recipient at a time; each outcome — and each part
  /// of a message in parts — is recorded at once, and a signal waits for the one in hand
  /// (so the ledger says what the server took).
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
        guard try ledger.claim(delivery.id, run: runID) else {
          result.notes.append("\(parcel.list) to \(delivery.recipient): taken by another run — left to it")
          continue
        }
        let outcome: Result<Void, MailSendError>
        do {
          outcome = try Interruption.process.unlessInterrupted {
            try deliver(parcel, delivery, to: recipient, runID: runID, transport: &transport)
          }
        } catch is Interruption.Interrupted {
          throw WorkflowError.interrupted
        }
        switch outcome {
        case .success:
          result.sent += 1
        case .failure(let error):
          if case .recipientRefused = error { result.refused += 1 }
          result.notes.append("\(parcel.list) to \(delivery.recipient): \(error)")
          // The server is out of reach, or refuses the sender: the rest stay pending, untried.
          if error.stopsTheSession { return }
        }
      }
    }
  }

  /// Sends `parcel` to one recipient: the parts an earlier run got through are not sent
  /// again, and each part taken is recorded before the next is sent.
  private func deliver(
    _ parcel: Parcel, _ delivery: DeliveryRecord, to recipient: MailAddress, runID: Int64,
    transport: inout (any MailTransport)?
  ) throws -> Result<Void, MailSendError> {
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
        try ledger.notePartsTaken(ids.filter(sent.contains).joined(separator: " "), delivery: delivery.id, run: runID, at: environment.now())
      }
    }
    let attempt: DeliveryAttempt
    switch failure {
    case nil:
      attempt = .sent(messageID: ids.joined(separator: " "), documentHash: parcel.documentHash)
    case .recipientRefused?:
      // Only the address itself is refused for good: the others go on.
      attempt = .refused(reason: failure?.description ?? "")
    case let error? where !sent.isEmpty:
      attempt = .partlySent(messageIDs: ids.filter(sent.contains).joined(separator: " "), reason: error.description)
    case let error?:
      attempt = .deferred(reason: error.description)
    }
    try ledger.record(attempt, delivery: delivery.id, run: runID, at: environment.now())
    return failure.map { .failure($0) } ?? .success(())
  }
}
