import Foundation
import RaonConcurrency
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonIngest
import RaonMail
import RaonStore

/// `raon weekly`: the Monday routine from `raon.toml` — pull the catalog, record it, write
/// the city report and the district packs, rebuild the site, deliver by e-mail. Each step
/// is an existing job (the API client and ``SnapshotJob``'s readers, ``ReportJob`` with the
/// packs, ``SiteJob``); this job adds their order, the retries of the pull, the store's run
/// lock (one run per store), the checks before anything is sent — is the data new
/// (``WeeklyFreshness``), does it look like last week's (``WeeklyGates``) — and the record
/// of the run and of each delivery in the store's ledger.
///
/// Idempotent per week: a catalog the store holds already is not recorded again, a report
/// and a site made from the same inputs are not written again, and nobody gets a second
/// copy of a week's message (unless `--resend`).
public struct WeeklyJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment
  public let config: RaonConfig
  public let options: ExportOptions
  /// Makes the mail transport (libcurl's; tests may give their own).
  var makeTransport: @Sendable (SMTPServer) throws -> any MailTransport = { try CurlSMTPTransport(server: $0) }
  /// How a channel posts over HTTP (tests may count what is posted).
  var post: HTTPPost = WebhookChannel.urlSessionPost
  /// Waits between attempts to pull (tests need not wait).
  var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  /// The lock file, when the caller took it before opening the store (``takeLockFile(_:storeFile:environment:)``).
  public var lockFile: RunLock?

  public init(
    store: any SnapshotStoring, storePath: String, environment: RaonEnvironment, config: RaonConfig,
    options: ExportOptions
  ) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
    self.config = config
    self.options = options
  }

  /// The steps of a run, as the ledger names the one that failed.
  enum Step: String {
    case pull, record, report, site, deliver
  }

  public func run(_ request: WeeklyRequest) async throws -> WeeklyOutcome {
    let settings = try Self.settings(config)
    let server = try Self.mailServer(config, environment: environment)
    let week = ISOWeek(containing: request.week ?? CalendarDay(koreaDateOf: environment.now()))
    let locks = try takeLocks(settings)
    defer { withExtendedLifetime((locks, lockFile)) {} }
    let ledger = store.ledger
    let runID = try ledger.beginRun(
      kind: request.kind, week: week.start.description, at: environment.now(), host: Self.hostName(),
      pid: Int(ProcessInfo.processInfo.processIdentifier))
    try ledger.closeAbandonedRuns(except: runID, at: environment.now())

    var outcome = WeeklyOutcome(week: week)
    outcome.runID = runID
    let period = OfficialDates.period(week.start, week.end, options.language).replacingOccurrences(of: "\u{00A0}", with: " ")
    outcome.lines.append("week \(week) (\(period)) — run \(runID)")
    var step = Step.pull
    var siteFailure: (any Error)?
    var plan = WeeklyDelivery.Plan.pendingOnly
    var alert: Alert?
    do {
      if request.release {
        step = .deliver
        let released = try ledger.release(week: request.week.map { ISOWeek(containing: $0).start.description }, at: environment.now())
        outcome.lines.append(
          released.isEmpty
            ? "release: nothing is held"
            : "release: \(released.count) held deliver\(released.count == 1 ? "y" : "ies") of \(Set(released.map(\.week)).sorted().joined(separator: ", ")) — sending them")
        plan = .only(Set(released.map(\.id)))
        // The site waited with the deliveries.
        if let site = settings.site, !released.isEmpty {
          siteFailure = try rebuildSiteKeepingTheMail(site, runID: runID, version: request.version, into: &outcome)
        }
      } else if request.reports {
        switch try await publishReport(request, settings: settings, week: week, runID: runID, step: &step, into: &outcome) {
        case .stale(let freshness, let source):
          outcome.verdict = .stale(freshness.reason(sentNotices: settings.staleNotice))
          outcome.lines.append("stale: \(freshness.reason(sentNotices: settings.staleNotice))")
          plan = settings.staleNotice ? .notice(week, hold: settings.approve, facts: freshness.noticeFacts(week)) : .pendingOnly
          alert = .stale(freshness, source)
        case .written(let snapshot):
          step = .report
          let checked = request.pulls ? try checkGates(snapshot, settings: settings, runID: runID, into: &outcome) : nil
          let tripped = checked?.gates.filter(\.tripped) ?? []
          let hold = settings.approve || !tripped.isEmpty
          if hold {
            let why =
              tripped.isEmpty
              ? "approve = true: every delivery waits for 'raon weekly --release'"
              : "gates tripped: " + tripped.map { "\($0.gate.rawValue) \($0.figure)" }.joined(separator: "; ")
            outcome.verdict = .held(why)
            alert = .held(checked)
          }
          plan = .report(week, hold: hold, resend: request.resend)
          if let site = settings.site {
            if hold {
              outcome.lines.append("site: held with the deliveries — 'raon weekly --release' rebuilds it")
            } else {
              step = .site
              siteFailure = try rebuildSiteKeepingTheMail(site, runID: runID, version: request.version, into: &outcome)
            }
          }
        }
      }
      step = .deliver
      if (server != nil && config.mail != nil) || !config.channels.isEmpty {
        var delivery = WeeklyDelivery(
          store: store, mail: config.mail, server: server, environment: environment,
          out: environment.url(forPath: settings.out), language: options.language, makeTransport: makeTransport)
        delivery.others = config.channels
        delivery.post = post
        delivery.profile = options.profile
        let tally = try delivery.run(plan, runID: runID)
        outcome.sent = tally.sent
        outcome.pending = tally.pending
        outcome.refused = tally.refused
        outcome.held = tally.held
        outcome.lines.append(
          "mail: sent \(tally.sent), pending \(tally.pending), refused \(tally.refused)" + (tally.held > 0 ? ", held \(tally.held)" : ""))
        outcome.warnings += tally.notes
      } else {
        let sections = (["mail"] + ChannelRegistry.shipped.kinds.map { $0.section }).map { "[\($0)]" }
        outcome.lines.append("mail: no \(sections.joined(separator: " or ")) section — nothing sent")
      }
      if let siteFailure {
        step = .site
        throw siteFailure
      }
    } catch {
      let interrupted = (error as? WorkflowError) == .interrupted
      let reason = Self.oneLine(error)
      try? ledger.finishRun(
        runID, outcome: interrupted ? .interrupted : .failed, at: environment.now(), failedStep: step.rawValue,
        reason: reason, sent: outcome.sent, pending: outcome.pending, refused: outcome.refused)
      if interrupted { throw error }
      send(server, OperatorAlert.oneLine("[raon weekly] \(week) failed at \(step.rawValue): \(reason)"))
      throw WeeklyError.stepFailed(week: week.description, step: step.rawValue, reason: reason)
    }
    try finish(runID, outcome: outcome, alert: alert, settings: settings, server: server)
    return outcome
  }

  /// What the operators are told of a run that did not send its week.
  enum Alert {
    case stale(WeeklyFreshness, String)
    case held(CheckedGates?)
  }

  /// Records how the run ended and tells the operators what they must know.
  private func finish(
    _ runID: Int64, outcome: WeeklyOutcome, alert: Alert?, settings: WeeklySettings, server: SMTPServer?
  ) throws {
    let ledger = store.ledger
    let now = environment.now()
    let counts = (sent: outcome.sent, pending: outcome.pending, refused: outcome.refused)
    switch outcome.verdict {
    case .stale(let reason):
      try ledger.finishRun(runID, outcome: .stale, at: now, reason: reason, sent: counts.sent, pending: counts.pending, refused: counts.refused)
    case .held(let reason):
      try ledger.finishRun(runID, outcome: .held, at: now, reason: reason, sent: counts.sent, pending: counts.pending, refused: counts.refused)
    case .sent:
      let partial = outcome.pending > 0 || outcome.refused > 0
      try ledger.finishRun(
        runID, outcome: partial ? .partial : .succeeded, at: now, sent: counts.sent, pending: counts.pending,
        refused: counts.refused)
      if partial {
        send(
          server,
          OperatorAlert.oneLine(
            "[raon weekly] \(outcome.week) delivered in part: \(outcome.sent) sent, \(outcome.pending) pending, \(outcome.refused) refused"
              + (outcome.warnings.first.map { " — \($0)" } ?? "")))
      }
    }
    switch alert {
    case .stale(let freshness, let source)?:
      let notices = try ledger.deliveries(week: outcome.week.start.description).filter { $0.kind == .notice && $0.status == .sent }.count
      send(server, OperatorAlert.stale(freshness, week: outcome.week, runID: runID, source: source, notices: notices, language: options.language))
    case .held(let checked)?:
      let held = try ledger.deliveries(week: outcome.week.start.description).filter { $0.status == .held }.count
      send(
        server,
        OperatorAlert.held(
          gates: checked?.gates ?? [], compared: checked.map { ($0.figures.old, $0.figures.new) }, week: outcome.week,
          runID: runID, held: held, folder: outFolder(settings, outcome.week).path + "/", approve: settings.approve,
          language: options.language))
    case nil:
      break
    }
    if let note = outcome.lineage, !note.findings.isEmpty {
      send(server, OperatorAlert.lineage(note, week: outcome.week, runID: runID, language: options.language))
    }
  }

  /// Rebuilds the site; a failure other than an interruption is returned, not thrown: the
  /// messages do not depend on the site and go out all the same.
  private func rebuildSiteKeepingTheMail(
    _ site: String, runID: Int64, version: String, into outcome: inout WeeklyOutcome
  ) throws -> (any Error)? {
    do {
      try rebuildSite(at: site, runID: runID, version: version, into: &outcome)
      return nil
    } catch let error as WorkflowError where error == .interrupted {
      throw error
    } catch {
      return error
    }
  }

  // MARK: - Around the steps

  func outFolder(_ settings: WeeklySettings, _ week: ISOWeek) -> URL {
    environment.url(forPath: settings.out).appendingPathComponent(week.description)
  }

  /// Mails `alert` to the operators; a failure to send it is only a warning (the ledger and
  /// the exit status say it all the same).
  func send(_ server: SMTPServer?, _ alert: AlertText) {
    guard let server, let mail = config.mail, !mail.operators.isEmpty else { return }
    let message = MailMessage(
      from: mail.from, to: mail.operators, subject: alert.subject, date: environment.now(),
      messageID: "raon.alert.\(UUID().uuidString.lowercased())@\(mail.from.domain)", text: alert.text,
      html: alert.html, extraHeaders: [("Auto-Submitted", "auto-generated")])
    let bytes = MIMEWriter.render(message)
    do {
      let transport = try makeTransport(server)
      for address in mail.operators { try transport.send(bytes, from: mail.from, to: address) }
    } catch {
      environment.warn("the alert to \(mail.operators.map(\.text).joined(separator: ", ")) could not be sent: \(error)")
    }
  }

  /// `[weekly]`, or why there is none.
  static func settings(_ config: RaonConfig) throws -> WeeklySettings {
    guard let settings = config.weekly else { throw WeeklyError.notConfigured(path: config.path) }
    return settings
  }

  /// The mail server with its password, `nil` without `[mail]`.
  static func mailServer(_ config: RaonConfig, environment: RaonEnvironment) throws -> SMTPServer? {
    guard let mail = config.mail else { return nil }
    do {
      let password = try MailPassword.resolve(
        environment: environment.variables, passwordFile: mail.passwordFile.map { environment.url(forPath: $0).path })
      if mail.user != nil, password == nil {
        throw WeeklyError.mail(
          "[mail] user is set but there is no password — set \(MailPassword.variable) (the service's EnvironmentFile) or [mail] password_file")
      }
      return try SMTPServer(
        url: mail.server, user: mail.user, password: password, caFile: mail.caFile.map { environment.url(forPath: $0).path },
        timeout: mail.timeout)
    } catch let error as MailConfigurationError {
      throw WeeklyError.mail(error.description)
    }
  }

  /// Whether a failure of the report job happened while recording (the catalog refused,
  /// the store's write failed) rather than while writing.
  static func isRecordingFailure(_ error: any Error) -> Bool {
    error is ShrinkRefused || error is StoreError || (error as? WorkflowError).map {
      if case .emptyCatalog = $0 { return true }
      return false
    } ?? false
  }

  static func oneLine(_ error: any Error) -> String {
    String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// This machine's name (the ledger tells runs of several machines apart).
  public static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "localhost" : name
  }
}
