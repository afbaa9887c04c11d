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
  /// The mail channel's settings and server; `nil` when only other channels deliver.
  let mail: MailSettings?
  let server: SMTPServer?
  /// The other channels' recipients (`[webhook.NAME]`, …): each a recipient of its list.
  var others = ConfiguredChannels()
  let environment: RaonEnvironment
  let out: URL
  let language: ReportLanguage
  /// The catalog the messages are about (its words).
  var profile: CatalogProfile = .seoul
  let makeTransport: (SMTPServer) throws -> any MailTransport
  /// How a channel posts over HTTP (tests may count).
  var post: HTTPPost = WebhookChannel.urlSessionPost

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

  /// Each list's recipients on every channel, as the ledger names them: its addresses,
  /// then its other channels' recipients (`webhook:NAME`).
  var recipientLists: [(list: String, recipients: [String])] {
    var lists = (mail?.lists ?? []).map { ($0.list, $0.recipients.map(\.text)) }
    for other in others.recipients {
      if let i = lists.firstIndex(where: { $0.0 == other.list }) {
        lists[i].1.append(other.recipient)
      } else {
        lists.append((other.list, [other.recipient]))
      }
    }
    return lists.map { (list: $0.0, recipients: $0.1) }
  }

  /// The channels, mail's first.
  func channels() -> [any DeliveryChannel] {
    var channels: [any DeliveryChannel] = []
    if let mail, let server {
      channels.append(
        MailChannel(ledger: ledger, mail: mail, server: server, now: environment.now, makeTransport: makeTransport))
    }
    channels += others.channels(ChannelContext(variables: environment.variables, out: out, profile: profile, post: post))
    return channels
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
      for (list, recipients) in recipientLists where !recipients.isEmpty {
        _ = try ledger.plan(week: week.start.description, list: list, recipients: recipients, resend: again, hold: hold, at: now)
      }
    case .notice(let week, let hold, let facts):
      known[week.start.description] = facts
      // A notice is a short mail; the other channels get the week's report only.
      for (list, recipients) in mail?.lists ?? [] where !recipients.isEmpty {
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
    let channels = channels()
    let parcels = try build(pending, channels: channels, runID: runID, resend: resend, notices: known, result: &result)
    try send(parcels, channels: channels, runID: runID, result: &result)
    result.pending = try ledger.pendingDeliveries().count
    result.held = try ledger.deliveries(status: .held).count
    return result
  }

  /// A message for each (week, list, kind) with deliveries pending: a report from the
  /// ledger's page 1 and the published files, a notice from the stale run's snapshot. A
  /// recipient no longer in its list is not sent to (refused, with why); a week whose files
  /// are gone stays pending, with why.
  private func build(
    _ pending: [DeliveryRecord], channels: [any DeliveryChannel], runID: Int64, resend: Bool,
    notices: [String: WeeklyMail.NoticeFacts], result: inout Tally
  ) throws -> [WeeklyParcel] {
    var parcels: [WeeklyParcel] = []
    var messagesByWeek: [String: [String: WeeklyMessageRecord]] = [:]
    let lists = Dictionary(recipientLists.map { ($0.list, $0.recipients) }, uniquingKeysWith: { a, _ in a })
    let groups = Dictionary(grouping: pending) { "\($0.week)\u{1F}\($0.kind.rawValue)\u{1F}\($0.list)" }
    for key in groups.keys.sorted() {
      guard let deliveries = groups[key], let first = deliveries.first else { continue }
      let recipients = lists[first.list] ?? []
      var wanted: [DeliveryRecord] = []
      for delivery in deliveries {
        if recipients.contains(delivery.recipient) {
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
        guard let mail else { continue }  // a notice is mail: it waits for a [mail] section
        let message = WeeklyMail.notice(
          facts, list: first.list, to: recipients.compactMap(MailAddress.init), from: mail.from, date: environment.now(),
          language: language, profile: profile)
        let part = WeeklyMail.Part(message: message, bytes: MIMEWriter.render(message))
        parcels.append(WeeklyParcel(week: first.week, list: first.list, parts: [part], documentHash: "notice", deliveries: wanted))
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
      // Built and measured only when a mail recipient waits for it.
      var parts: [WeeklyMail.Part] = []
      if let mail,
        wanted.contains(where: { d in channels.first(where: { $0.delivers(to: d.recipient) })?.needsMailParts ?? false })
      {
        let id = WeeklyMail.messageID(
          week: week, list: first.list, documentHash: files.hash, resendRun: resend ? runID : nil, from: mail.from)
        parts = try WeeklyMail.parts(
          summary: summary, subject: record.subject, to: recipients.compactMap(MailAddress.init), files: files.files,
          messageID: id, from: mail.from, date: environment.now(), language: language, cap: mail.maxMessageBytes)
      }
      parcels.append(
        WeeklyParcel(
          week: first.week, list: first.list, parts: parts, documentHash: files.hash, deliveries: wanted, summary: summary,
          files: attachments))
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

  /// Hands each parcel to each recipient's channel, one recipient at a time; each outcome —
  /// and each part of a message in parts — is recorded at once, and a signal waits for the
  /// one in hand (so the ledger says what the server took). A channel that cannot go on
  /// (its server out of reach) leaves its other deliveries pending, untried; the other
  /// channels go on.
  private func send(_ parcels: [WeeklyParcel], channels: [any DeliveryChannel], runID: Int64, result: inout Tally) throws {
    guard !parcels.isEmpty else { return }
    let total = parcels.reduce(0) { $0 + $1.deliveries.count }
    var stopped: Set<String> = []
    var done = 0
    for parcel in parcels {
      for delivery in parcel.deliveries {
        done += 1
        guard let channel = channels.first(where: { $0.delivers(to: delivery.recipient) }), !stopped.contains(channel.name) else {
          continue
        }
        environment.progress("\(channel.name): \(done)/\(total) — \(parcel.list) to \(delivery.recipient) …")
        guard try ledger.claim(delivery.id, run: runID) else {
          result.notes.append("\(parcel.list) to \(delivery.recipient): taken by another run — left to it")
          continue
        }
        let outcome: ChannelOutcome
        do {
          outcome = try Interruption.process.unlessInterrupted {
            let outcome = try channel.deliver(parcel, delivery, runID: runID)
            try ledger.record(outcome.attempt, delivery: delivery.id, run: runID, at: environment.now())
            return outcome
          }
        } catch is Interruption.Interrupted {
          throw WorkflowError.interrupted
        }
        guard let failure = outcome.failure else {
          result.sent += 1
          continue
        }
        if outcome.refusedForGood { result.refused += 1 }
        result.notes.append("\(parcel.list) to \(delivery.recipient): \(failure)")
        if outcome.stopsChannel { stopped.insert(channel.name) }
      }
    }
  }
}
