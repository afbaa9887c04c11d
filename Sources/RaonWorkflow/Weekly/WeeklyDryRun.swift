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
    outcome.lines.append("week \(week) (\(period)), lock \(WeeklyJob.lockPath(settings, environment))")
    if store == nil {
      outcome.lines.append(
        storeProblem.map { "store: \(storePath) cannot be read now (\($0)) — the run opens it to write (and upgrades it)" }
          ?? "store: \(storePath) does not exist yet — the first run creates it")
    }

    var unchangedReport = false
    if !request.deliverPending {
      unchangedReport = try await report(request, settings: settings, week: week, into: &outcome)
      if let site = settings.site {
        let target = environment.url(forPath: site).path
        let same = try store.map {
          try $0.ledger.lastSiteKey() == WeeklyKeys.site(snapshots: try $0.snapshots(), options: options, version: request.version)
        } ?? false
        outcome.lines.append(
          same && unchangedReport ? "site: \(target) is unchanged — it would not be written" : "site: would rebuild \(target)")
      }
    }
    guard let server, let mail = config.mail else {
      outcome.lines.append("mail: no [mail] section — nothing would be sent")
      return outcome
    }
    let login = mail.user.map { " as \($0) (password \(mail.passwordFile == nil ? "from \(MailPassword.variable)" : "from the environment or \(mail.passwordFile ?? "")"))" } ?? ""
    outcome.lines.append(
      "mail: through \(server.displayName)\(server.implicitTLS ? " (TLS)" : " (STARTTLS required)")\(login), from \(mail.from)")
    try messages(request, settings: settings, mail: mail, week: week, into: &outcome)
    return outcome
  }

  /// The pull and the report it would write; `true` when the week's report would be left as it is.
  private func report(
    _ request: WeeklyRequest, settings: WeeklySettings, week: ISOWeek, into outcome: inout WeeklyOutcome
  ) async throws -> Bool {
    let folder = environment.url(forPath: settings.out).appendingPathComponent(week.description).path
    let formats = FormatRegistry.standard.ordered(settings.formats).map(\.rawValue).joined(separator: ", ")
    let writes = "report: would write \(folder) — the city and \(settings.districts.count) district packs (\(formats))"
    var reported: SnapshotInfo?
    if request.pulls {
      var once = settings
      once.retryFor = 0
      // Without a store yet, an empty one in memory stands in (the pull itself reads none).
      let pull = WeeklyPull(
        store: try store ?? SnapshotStore.inMemory(), environment: environment, settings: once, apiBase: config.apiBase,
        sleep: { _ in })
      let catalog: WeeklyPull.Catalog
      do {
        catalog = try await pull.pull()
      } catch {
        outcome.problem = "the pull fails now: \(WeeklyJob.oneLine(error))"
        outcome.lines.append("pull: fails now (a run tries again for \(settings.retryFor / 60) min): \(WeeklyJob.oneLine(error))")
        outcome.lines.append(writes)
        return false
      }
      guard store != nil else {
        outcome.lines.append("record: would record the catalog from \(catalog.origin) as the first snapshot")
        outcome.lines.append(writes)
        return false
      }
      switch try pull.decide(catalog, week: week) {
      case .record:
        outcome.lines.append("record: would record a new snapshot from \(catalog.origin), taken \(catalog.takenAt.koreaDisplay)")
        outcome.lines.append(writes)
        return false
      case .unchanged(let latest, let why):
        outcome.lines.append("record: would record nothing — \(why)")
        reported = latest
      }
    } else {
      guard let store else { throw WorkflowError.noStore(path: storePath) }
      let job = WeeklyJob(store: store, storePath: storePath, environment: environment, config: config, options: options)
      reported = try job.snapshotOfWeek(week)
      if let reported { outcome.lines.append("report: of snapshot \(reported.id), taken \(reported.takenAt.koreaDisplay)") }
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
      let subject = WeeklyMail.subject(week: week, list: list, language: options.language)
      guard !to.isEmpty else {
        outcome.lines.append("  \(subject): everyone has it already")
        continue
      }
      lists += 1
      var files: [String] = []
      var sizes: [Int] = []
      for attachment in WeeklyMail.attachments(week: week, list: list, formats: settings.formats) {
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
