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
/// packs, ``SiteJob``); this job adds their order, the retries of the pull, a lock (one
/// run at a time) and the record of the run and of each delivery in the store's ledger.
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
  /// Waits between attempts to pull (tests need not wait).
  var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

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
    let lock = try takeLock(settings)
    defer { withExtendedLifetime(lock) {} }
    let ledger = store.ledger
    let runID = try ledger.beginRun(
      kind: request.kind, week: week.start.description, at: environment.now(), host: Self.hostName(),
      pid: Int(ProcessInfo.processInfo.processIdentifier))
    try ledger.closeAbandonedRuns(host: Self.hostName(), except: runID, at: environment.now())

    var outcome = WeeklyOutcome(week: week)
    outcome.runID = runID
    let period = OfficialDates.period(week.start, week.end, options.language).replacingOccurrences(of: "\u{00A0}", with: " ")
    outcome.lines.append("week \(week) (\(period)) — run \(runID)")
    var step = Step.pull
    var siteFailure: (any Error)?
    do {
      if !request.deliverPending {
        try await publishReport(request, settings: settings, week: week, runID: runID, step: &step, into: &outcome)
        if let site = settings.site {
          step = .site
          do {
            try rebuildSite(at: site, runID: runID, version: request.version, into: &outcome)
          } catch let error as WorkflowError where error == .interrupted {
            throw error
          } catch {
            // The messages do not depend on the site: they go out all the same.
            siteFailure = error
          }
        }
      }
      step = .deliver
      if let server, let mail = config.mail {
        let delivery = WeeklyDelivery(
          ledger: ledger, mail: mail, server: server, environment: environment,
          out: environment.url(forPath: settings.out), language: options.language, makeTransport: makeTransport)
        let tally = try delivery.run(week: request.deliverPending ? nil : week, runID: runID, resend: request.resend)
        outcome.sent = tally.sent
        outcome.pending = tally.pending
        outcome.refused = tally.refused
        outcome.lines.append("mail: sent \(tally.sent), pending \(tally.pending), refused \(tally.refused)")
        outcome.warnings += tally.notes
      } else {
        outcome.lines.append("mail: no [mail] section — nothing sent")
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
      alert(server, "[raon weekly] \(week) failed at \(step.rawValue): \(reason)")
      throw WeeklyError.stepFailed(week: week.description, step: step.rawValue, reason: reason)
    }
    let partial = outcome.pending > 0 || outcome.refused > 0
    try ledger.finishRun(
      runID, outcome: partial ? .partial : .succeeded, at: environment.now(), sent: outcome.sent,
      pending: outcome.pending, refused: outcome.refused)
    if partial {
      alert(
        server,
        "[raon weekly] \(week) delivered in part: \(outcome.sent) sent, \(outcome.pending) pending, \(outcome.refused) refused"
          + (outcome.warnings.first.map { " — \($0)" } ?? ""))
    }
    return outcome
  }

  // MARK: - Steps

  /// Pull (this week's run), record and write the week's report and packs; or, when the
  /// store holds the catalog already and the report was published from the same inputs,
  /// leave it as it is. Either way the week's messages (page 1, the files) are in the ledger.
  func publishReport(
    _ request: WeeklyRequest, settings: WeeklySettings, week: ISOWeek, runID: Int64, step: inout Step,
    into outcome: inout WeeklyOutcome
  ) async throws {
    let ledger = store.ledger
    var report = ReportRequest()
    report.formats = settings.formats
    report.districts = settings.districts
    report.outParent = settings.out
    report.week = week.description
    report.options = options
    var catalog: WeeklyPull.Catalog?
    if request.pulls {
      let pull = WeeklyPull(store: store, environment: environment, settings: settings, apiBase: config.apiBase, sleep: sleep)
      let pulled = try await pull.pull()
      switch try pull.decide(pulled, week: week) {
      case .record(let new):
        catalog = new
        switch new.input {
        case .held(let prepared): report.pulled = prepared
        case .file(let path): report.inputs = [path]
        }
        report.takenAt = new.takenAt
      case .unchanged(let latest, let why):
        outcome.lines.append("nothing recorded: \(why)")
        report.snapshot = String(latest.id)
      }
    } else {
      // A rerun pulls nothing: what fails here is choosing the snapshot to report.
      step = .report
      report.snapshot = String(try snapshotOfWeek(week).id)
    }

    let snapshots = try store.snapshots()
    if catalog == nil, let id = report.snapshot.flatMap(Int64.init),
      let chosen = snapshots.first(where: { $0.id == id })
    {
      let key = WeeklyKeys.report(
        week: week, snapshot: chosen, snapshots: snapshots, formats: settings.formats, districts: settings.districts,
        options: options, version: request.version)
      try ledger.note(run: runID, .init(snapshotID: chosen.id, recorded: false))
      if try ledger.lastPublished(week: week.start.description)?.reportKey == key, try reportIsIntact(week, settings) {
        try ledger.note(run: runID, .init(reportKey: key))
        outcome.lines.append("report: \(outFolder(settings, week).path) is unchanged — not written again")
        return
      }
    }

    step = catalog == nil ? .report : .record
    let job = ReportJob(store: store, storePath: storePath, environment: environment)
    let written: ReportOutcome
    do {
      written = try await job.run(report)
    } catch WorkflowError.recordedButNotReported(let ids, let reason) {
      try? ledger.note(run: runID, .init(snapshotID: ids.last, recorded: true, catalogDigest: catalog?.digest))
      step = .report
      throw WorkflowError.recordedButNotReported(ids: ids, reason: reason)
    } catch let error where step == .record && !Self.isRecordingFailure(error) {
      step = .report
      throw error
    }
    step = .report
    let recorded = !written.recorded.isEmpty
    try ledger.note(
      run: runID,
      .init(snapshotID: written.snapshot.id, recorded: recorded, catalogDigest: recorded ? catalog?.digest : nil))
    if recorded {
      outcome.lines.append(
        "recorded snapshot \(written.snapshot.id): \(written.snapshot.programCount.formatted()) programs from \(catalog?.origin ?? written.snapshot.source)")
    }
    try saveMessages(written, settings: settings, week: week)
    let key = WeeklyKeys.report(
      week: week, snapshot: written.snapshot, snapshots: try store.snapshots(), formats: settings.formats,
      districts: settings.districts, options: options, version: request.version)
    try ledger.note(run: runID, .init(reportKey: key))
    let packs = settings.districts.count
    outcome.lines.append(
      "report: \(written.directory.path) — the city and \(packs) district pack\(packs == 1 ? "" : "s") (\(FormatRegistry.standard.ordered(settings.formats).map(\.rawValue).joined(separator: ", ")))")
    outcome.warnings += written.warnings
  }

  /// Keeps each list's message of the week in the ledger: page 1, the files, their hash.
  func saveMessages(_ written: ReportOutcome, settings: WeeklySettings, week: ISOWeek) throws {
    let out = environment.url(forPath: settings.out)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for list in [WeeklyList.city] + settings.districts {
      guard let summary = written.pageOnes[list] else { continue }
      let attachments = WeeklyMail.attachments(week: week, list: list, formats: settings.formats)
      let hash = try WeeklyMail.read(attachments, under: out).hash
      try store.ledger.saveMessage(
        WeeklyMessageRecord(
          week: week.start.description, list: list,
          subject: WeeklyMail.subject(week: week, list: list, language: options.language),
          summary: String(decoding: try encoder.encode(summary), as: UTF8.self),
          attachments: String(decoding: try encoder.encode(attachments), as: UTF8.self), documentHash: hash,
          updatedAt: environment.now()))
    }
  }

  /// Whether the week's published report is still there as the ledger says: its folder,
  /// and every message's files with the hash recorded.
  func reportIsIntact(_ week: ISOWeek, _ settings: WeeklySettings) throws -> Bool {
    guard FileManager.default.fileExists(atPath: outFolder(settings, week).path) else { return false }
    let messages = try store.ledger.messages(week: week.start.description)
    guard messages.count == 1 + settings.districts.count else { return false }
    let out = environment.url(forPath: settings.out)
    for message in messages {
      guard let attachments = try? JSONDecoder().decode([WeeklyMail.Attachment].self, from: Data(message.attachments.utf8)),
        let read = try? WeeklyMail.read(attachments, under: out), read.hash == message.documentHash
      else { return false }
    }
    return true
  }

  /// The site, unless an earlier run published it from the same snapshots.
  func rebuildSite(at path: String, runID: Int64, version: String, into outcome: inout WeeklyOutcome) throws {
    let key = WeeklyKeys.site(snapshots: try store.snapshots(), options: options, version: version)
    let target = environment.url(forPath: path)
    if try store.ledger.lastSiteKey() == key, FileManager.default.fileExists(atPath: target.appendingPathComponent("index.html").path) {
      try store.ledger.note(run: runID, .init(siteKey: key))
      outcome.lines.append("site: \(target.path) is unchanged — not written again")
      return
    }
    var request = SiteJob.Request()
    request.out = path
    request.options = options
    let site = try SiteJob(store: store, storePath: storePath, environment: environment).run(request)
    try store.ledger.note(run: runID, .init(siteKey: key))
    outcome.lines.append("\(site.summary) — \(site.directory.path)")
    outcome.warnings += site.warnings
  }

  /// The snapshot a rerun of `week` reports: the one its last published run reported, else
  /// the latest taken within the week.
  func snapshotOfWeek(_ week: ISOWeek) throws -> SnapshotInfo {
    let snapshots = try store.snapshots()
    if let id = try store.ledger.lastPublished(week: week.start.description)?.snapshotID,
      let known = snapshots.first(where: { $0.id == id })
    {
      return known
    }
    let within = snapshots.filter { ISOWeek(containing: $0.koreaDay) == week }
    guard let chosen = SnapshotSelection.latest(of: within) else {
      let before = SnapshotSelection.latest(of: snapshots.filter { $0.koreaDay < week.start })
      throw WeeklyError.noSnapshotInWeek(
        week: week.description, latestBefore: before.map { "snapshot \($0.id) of \($0.takenAt.koreaDisplay)" })
    }
    return chosen
  }

  // MARK: - Around the steps

  func outFolder(_ settings: WeeklySettings, _ week: ISOWeek) -> URL {
    environment.url(forPath: settings.out).appendingPathComponent(week.description)
  }

  /// The run's lock: `lock`, else `.raon-weekly.lock` in `out` (made if missing).
  func takeLock(_ settings: WeeklySettings) throws -> RunLock {
    let path = Self.lockPath(settings, environment)
    try? FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    let holder = "pid \(ProcessInfo.processInfo.processIdentifier) on \(Self.hostName()) since \(environment.now().koreaDisplay)"
    do {
      return try RunLock.acquire(at: path, holder: holder)
    } catch let held as RunLock.Held {
      throw WeeklyError.busy(lock: path, holder: held.holder)
    } catch let failure as RunLock.Unavailable {
      throw WeeklyError.lockUnavailable(path: failure.path, reason: failure.reason)
    }
  }

  static func lockPath(_ settings: WeeklySettings, _ environment: RaonEnvironment) -> String {
    settings.lock.map { environment.url(forPath: $0).path }
      ?? environment.url(forPath: settings.out).appendingPathComponent(".raon-weekly.lock").path
  }

  /// The one-line alert to the operators; a failure to send it is only a warning (the
  /// ledger and the exit status say it all the same).
  func alert(_ server: SMTPServer?, _ line: String) {
    guard let server, let mail = config.mail, !mail.operators.isEmpty else { return }
    let message = MailMessage(
      from: mail.from, to: mail.operators, subject: line, date: environment.now(),
      messageID: "raon.alert.\(UUID().uuidString.lowercased())@\(mail.from.domain)", text: line + "\n",
      html: "<p>\(WeeklyMailBody.escapeHTML(line))</p>\n", extraHeaders: [("Auto-Submitted", "auto-generated")])
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
  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "localhost" : name
  }
}
