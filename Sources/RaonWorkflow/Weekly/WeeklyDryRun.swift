import Foundation
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail
import RaonStore

/// `raon weekly --dry-run`: what a run would record, write and send — recipients, subjects,
/// attachments and their sizes — with nothing recorded, written, locked or sent. The store
/// is only read (it may not exist yet: the first run creates it); the pull is tried once.
///
/// Sizes are those of the week's published files, or, before the week's first run, of the
/// latest week's (marked ≈): a dry run renders nothing.
public struct WeeklyDryRun: Sendable {
  public let store: (any SnapshotStoring)?
  public let storePath: String
  public let environment: RaonEnvironment
  public let config: RaonConfig
  public let options: ExportOptions
  /// Why the store could not be opened for reading, when it exists (an older schema, say).
  public let storeProblem: String?

  public init(
    store: (any SnapshotStoring)?, storePath: String, environment: RaonEnvironment, config: RaonConfig,
    options: ExportOptions, storeProblem: String? = nil
  ) {
    self.storeProblem = storeProblem
    self.store = store
    self.storePath = storePath
    self.environment = environment
    self.config = config
    self.options = options
  }

  public func run(_ request: WeeklyRequest) async throws -> WeeklyOutcome {
    let settings = try WeeklyJob.settings(config)
    let server = try WeeklyJob.mailServer(config, environment: environment)
    let week = ISOWeek(containing: request.week ?? CalendarDay(koreaDateOf: environment.now()))
    var outcome = WeeklyOutcome(week: week)
    let period = OfficialDates.period(week.start, week.end, options.language).replacingOccurrences(of: "\u{00A0}", with: " ")
    outcome.lines.append("dry run — nothing is recorded, written or sent")
    outcome.lines.append(
      "week \(week) (\(period)); run lock: the store's own"
        + (settings.lock.map { ", and the lock file \(environment.url(forPath: $0).path)" } ?? ""))
    if store == nil {
      outcome.lines.append(
        storeProblem.map { "store: \(storePath) cannot be read now (\($0)) — the run opens it to write (and upgrades it)" }
          ?? "store: \(storePath) does not exist yet — the first run creates it")
    }

    var unchangedReport = false
    if request.release {
      let held = try store?.ledger.deliveries(status: .held) ?? []
      let these = held.filter { request.week == nil || $0.week == week.start.description }
      outcome.lines.append(
        these.isEmpty
          ? "release: nothing is held"
          : "release: would send the \(these.count) held deliver\(these.count == 1 ? "y" : "ies"): "
            + these.map { "\($0.list) to \($0.recipient) (\($0.week))" }.joined(separator: ", "))
      return outcome
    } else if request.reports {
      unchangedReport = try await report(request, settings: settings, week: week, into: &outcome)
      if let site = settings.site {
        let target = environment.url(forPath: site).path
        let same = try store.map {
          try $0.ledger.lastSiteKey() == WeeklyKeys.site(snapshots: try $0.snapshots(), options: options, version: request.version)
        } ?? false
        outcome.lines.append(
          outcome.verdict != .sent
            ? "site: would not be rebuilt (the week is not sent)"
            : same && unchangedReport ? "site: \(target) is unchanged — it would not be written" : "site: would rebuild \(target)")
      }
    }
    try channelLines(request, week: week, into: &outcome)
    guard let server, let mail = config.mail else {
      outcome.lines.append("mail: no [mail] section — nothing would be sent")
      return outcome
    }
    let login = mail.user.map { " as \($0) (password \(mail.passwordFile == nil ? "from \(MailPassword.variable)" : "from the environment or \(mail.passwordFile ?? "")"))" } ?? ""
    outcome.lines.append(
      "mail: through \(server.displayName)\(server.implicitTLS ? " (TLS)" : " (STARTTLS required)")\(login), from \(mail.from)")
    switch outcome.verdict {
    case .stale:
      let lists = mail.lists.filter { !$0.recipients.isEmpty }.count
      outcome.lines.append(
        settings.staleNotice
          ? "mail: would send \(lists) list\(lists == 1 ? "" : "s") the notice that the data did not change (stale_notice), and the operators the alert"
          : "mail: would send the offices nothing, and the operators the alert (stale_notice = false)")
    case .held:
      try messages(request, settings: settings, mail: mail, week: week, into: &outcome)
      outcome.lines.append("mail: every delivery of \(week) would be held until 'raon weekly --release'; the operators get the figures")
    case .sent:
      try messages(request, settings: settings, mail: mail, week: week, into: &outcome)
    }
    return outcome
  }

  /// The pull, the report it would write, and whether the week would go out (its
  /// freshness, its gates, `approve`); `true` when the week's report would be left as it is.
  private func report(
    _ request: WeeklyRequest, settings: WeeklySettings, week: ISOWeek, into outcome: inout WeeklyOutcome
  ) async throws -> Bool {
    let folder = environment.url(forPath: settings.out).appendingPathComponent(week.description).path
    let formats = FormatRegistry.standard.ordered(settings.formats).map(\.rawValue).joined(separator: ", ")
    let writes = "report: would write \(folder) — the city and \(settings.districts.count) district packs (\(formats))"
    var reported: SnapshotInfo?
    var checked: CheckedGates?
    var largeFile = false
    if request.pulls {
      var once = settings
      once.retryFor = 0
      // Without a store yet, an empty one in memory stands in (the pull itself reads none).
      let pull = WeeklyPull(
        store: try store ?? SnapshotStore.inMemory(), environment: environment, settings: once, apiBase: config.apiBase,
        profile: options.profile, sleep: { _ in })
      let catalog: WeeklyPull.Catalog
      do {
        catalog = try await pull.pull()
      } catch {
        outcome.problem = "the pull fails now: \(WeeklyJob.oneLine(error))"
        outcome.lines.append("pull: fails now (a run tries again for \(settings.retryFor / 60) min): \(WeeklyJob.oneLine(error))")
        outcome.lines.append(writes)
        return false
      }
      guard let store else {
        outcome.lines.append("record: would record the catalog from \(catalog.origin) as the first snapshot")
        outcome.lines.append("freshness: new (the first snapshot); gates: nothing to compare with yet")
        outcome.lines.append(writes)
        approval(settings, into: &outcome)
        return false
      }
      switch try pull.decide(catalog, week: week) {
      case .record:
        outcome.lines.append("record: would record a new snapshot from \(catalog.origin), taken \(catalog.takenAt.koreaDisplay)")
        let age = environment.now().timeIntervalSince(catalog.takenAt)
        if age > TimeInterval(settings.maxAge) {
          let reason = "the new data was collected \(WeeklyFreshness.days(age)) ago, over max_age \(WeeklyFreshness.days(TimeInterval(settings.maxAge)))"
          outcome.verdict = .stale(reason)
          outcome.lines.append("freshness: STALE — \(reason); no report would be written")
          return false
        }
        outcome.lines.append("freshness: new data")
        checked = try dryGates(catalog, store: store, settings: settings)
        if case .file = catalog.input { largeFile = true }
        outcome.lines.append(writes)
      case .unchanged(let latest, let why):
        outcome.lines.append("record: would record nothing — \(why)")
        let freshness = try WeeklyFreshness.judge(
          latest, week: week, ledger: store.ledger, now: environment.now(), maxAge: settings.maxAge)
        if freshness.isStale {
          outcome.verdict = .stale(freshness.reason(sentNotices: settings.staleNotice))
          outcome.lines.append("freshness: STALE — \(freshness.reason(sentNotices: settings.staleNotice)); no report would be written")
          return false
        }
        outcome.lines.append("freshness: new data (snapshot \(latest.id), taken \(latest.takenAt.koreaDisplay))")
        reported = latest
        if let old = SnapshotSelection.previous(of: latest, in: try store.snapshots()) {
          let figures = try GateFigures.fromStore(store, old: old, new: latest)
          checked = CheckedGates(
            figures: figures,
            gates: WeeklyGates.check(figures, settings: settings.gates, language: options.language, region: options.profile.words.region, unplaced: options.profile.unplacedRegions))
        }
      }
      if let checked {
        outcome.lines += WeeklyJob.gateLines(checked)
        let tripped = checked.gates.filter(\.tripped)
        if !tripped.isEmpty {
          outcome.verdict = .held("gates tripped: " + tripped.map(\.gate.rawValue).joined(separator: ", "))
        }
      } else if largeFile {
        outcome.lines.append("gates: the figures are known once the (large) file is recorded")
      } else {
        outcome.lines.append("gates: nothing to compare with yet (the first week)")
      }
      approval(settings, into: &outcome)
      if reported == nil { return false }
    } else {
      guard let store else { throw WorkflowError.noStore(path: storePath) }
      let job = WeeklyJob(store: store, storePath: storePath, environment: environment, config: config, options: options)
      reported = try job.snapshotOfWeek(week)
      if let reported { outcome.lines.append("report: of snapshot \(reported.id), taken \(reported.takenAt.koreaDisplay)") }
      approval(settings, into: &outcome)
    }
    guard let store, let reported else {
      outcome.lines.append(writes)
      return false
    }
    let key = WeeklyKeys.report(
      week: week, snapshot: reported, snapshots: try store.snapshots(), formats: settings.formats,
      districts: settings.districts, options: options, version: request.version)
    let job = WeeklyJob(store: store, storePath: storePath, environment: environment, config: config, options: options)
    if try store.ledger.lastPublished(week: week.start.description)?.reportKey == key, try job.reportIsIntact(week, settings) {
      outcome.lines.append("report: \(folder) is unchanged — it would not be written again")
      return true
    }
    outcome.lines.append(writes)
    return false
  }

  /// `approve = true` holds the week whatever its gates say.
  private func approval(_ settings: WeeklySettings, into outcome: inout WeeklyOutcome) {
    guard settings.approve, outcome.verdict == .sent else { return }
    outcome.verdict = .held("approve = true")
    outcome.lines.append("approve = true: every delivery would wait for 'raon weekly --release'")
  }

  /// The gates of a catalog not recorded yet; `nil` when there is nothing to compare with,
  /// or the file is too large to read whole here.
  private func dryGates(_ catalog: WeeklyPull.Catalog, store: any SnapshotStoring, settings: WeeklySettings) throws -> CheckedGates? {
    let pseudo = SnapshotInfo(id: 0, takenAt: catalog.takenAt, source: catalog.origin, programCount: 0)
    guard let old = SnapshotSelection.previous(of: pseudo, in: try store.snapshots()) else { return nil }
    guard case .held(let prepared) = catalog.input else { return nil }
    let figures = try GateFigures.fromCatalog(store, old: old, entries: prepared.entries, takenAt: catalog.takenAt)
    return CheckedGates(
      figures: figures,
      gates: WeeklyGates.check(figures, settings: settings.gates, language: options.language, region: options.profile.words.region, unplaced: options.profile.unplacedRegions))
  }

  /// What each recipient of a channel other than mail (`[webhook.NAME]`, …) would get, in
  /// the channel's own words.
  private func channelLines(_ request: WeeklyRequest, week: ISOWeek, into outcome: inout WeeklyOutcome) throws {
    guard !config.channels.isEmpty else { return }
    let sent = Set(try store?.ledger.deliveries(week: week.start.description).filter { $0.status == .sent }.map(\.recipient) ?? [])
    var stale = false
    if case .stale = outcome.verdict { stale = true }
    for recipient in config.channels.recipients {
      let facts = ChannelDryRun(
        week: week, stale: stale, hasWeek: sent.contains(recipient.recipient) && !request.resend,
        sendsNow: outcome.verdict == .sent, variables: environment.variables)
      outcome.lines.append(recipient.dryRunLine(facts))
    }
  }

  /// What each list would be sent, with the files' sizes.
  private func messages(
    _ request: WeeklyRequest, settings: WeeklySettings, mail: MailSettings, week: ISOWeek, into outcome: inout WeeklyOutcome
  ) throws {
    let out = environment.url(forPath: settings.out)
    let deliveries = try store?.ledger.deliveries(week: week.start.description) ?? []
    let pendingElsewhere = try store?.ledger.pendingDeliveries().filter { $0.week != week.start.description }.count ?? 0
    let estimate = Self.sizeSource(week: week, under: out)
    var lists = 0
    for (list, recipients) in mail.lists where !recipients.isEmpty && !request.deliverPending {
      let have = Set(deliveries.filter { $0.list == list && $0.status == .sent }.map(\.recipient))
      let to = recipients.filter { request.resend || !have.contains($0.text) }
      let subject = WeeklyMail.subject(week: week, list: list, language: options.language, profile: options.profile)
      guard !to.isEmpty else {
        outcome.lines.append("  \(subject): everyone has it already")
        continue
      }
      lists += 1
      var files: [String] = []
      var sizes: [Int] = []
      for attachment in WeeklyMail.attachments(week: week, list: list, formats: settings.formats, profile: options.profile) {
        let path = estimate.map { attachment.path.replacingOccurrences(of: week.description, with: $0.description) }
        let size = path.flatMap { Self.size(out.appendingPathComponent($0)) }
        sizes.append(size ?? 0)
        let shown = size.map { (estimate == week ? "" : "≈ ") + WeeklyMailBody.size($0) } ?? "size known once written"
        files.append("\(attachment.name) (\(shown))")
      }
      outcome.lines.append("  \(subject) → \(to.map(\.text).joined(separator: ", ")); \(files.joined(separator: ", "))")
      let cap = WeeklyMailBody.size(mail.maxMessageBytes)
      switch Self.partsEstimate(sizes, cap: mail.maxMessageBytes) {
      case nil:
        outcome.problem = "a file for \(list) alone would make a message over max_message_bytes (\(cap))"
        outcome.lines.append("    a file alone is over max_message_bytes (\(cap)): nothing would be sent")
      case let parts? where parts > 1:
        outcome.lines.append("    over max_message_bytes (\(cap)) together: sent as \(parts) messages, (1/\(parts)) …")
      default:
        break
      }
    }
    outcome.lines.append(
      "mail: would send \(lists) message\(lists == 1 ? "" : "s") of \(week)"
        + (pendingElsewhere > 0 ? " and \(pendingElsewhere) deliver\(pendingElsewhere == 1 ? "y" : "ies") pending from earlier weeks" : ""))
  }

  /// How many messages files of `sizes` (in order) take under `cap`, as ``WeeklyMail/parts``
  /// packs them; nil when one file alone is over. Base64 takes 4 bytes for 3 (and a line
  /// break each 76), page 1's bodies and the headers `overhead` (at most about 40 KB).
  static func partsEstimate(_ sizes: [Int], cap: Int, overhead: Int = 40_000) -> Int? {
    func message(_ bytes: Int) -> Int { bytes * 4 / 3 * 78 / 76 + overhead }
    if message(sizes.reduce(0, +)) <= cap { return 1 }
    var parts = 0
    var current = 0
    for size in sizes {
      if message(size) > cap { return nil }
      if current > 0, message(current + size) <= cap {
        current += size
      } else {
        if current > 0 || parts == 0 { parts += 1 }
        current = size
      }
    }
    return max(parts, 1)
  }

  /// The week whose files give the sizes: this one when written, else the latest written.
  static func sizeSource(week: ISOWeek, under out: URL) -> ISOWeek? {
    if FileManager.default.fileExists(atPath: out.appendingPathComponent(week.description).path) { return week }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
    return names.compactMap { ISOWeek($0) }.filter { $0 < week }.max()
  }

  static func size(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
  }
}
