import Foundation
import RaonCore
import RaonDocument
import RaonExport
import RaonMail
import RaonStore

// The pull, record, report and site steps of `raon weekly`.

extension WeeklyJob {
  /// What the report step came to.
  enum Published {
    /// No new data: nothing written (the source, in the run's language, for the alert).
    case stale(WeeklyFreshness, source: String)
    /// The week's report is written (or was already, from the same inputs) about this snapshot.
    case written(SnapshotInfo)
  }

  /// Pull (this week's run), record and write the week's report and packs; or, when the
  /// store holds the catalog already and the report was published from the same inputs,
  /// leave it as it is; or, when the data is not new (``WeeklyFreshness``), write nothing.
  /// Either way the week's messages (page 1, the files) are in the ledger.
  func publishReport(
    _ request: WeeklyRequest, settings: WeeklySettings, week: ISOWeek, runID: Int64, step: inout Step,
    into outcome: inout WeeklyOutcome
  ) async throws -> Published {
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
      let source = Self.sourceLine(pulled, settings: settings, language: options.language)
      switch try pull.decide(pulled, week: week) {
      case .record(let new):
        if environment.now().timeIntervalSince(new.takenAt) > TimeInterval(settings.maxAge) {
          // A new download, but collected too long ago to send as this week's: kept in the
          // history, not reported.
          step = .record
          let recorded = try recordOnly(new)
          try ledger.note(run: runID, .init(snapshotID: recorded.id, recorded: true, catalogDigest: new.digest))
          outcome.lines.append("recorded snapshot \(recorded.id): \(recorded.programCount.formatted()) programs from \(new.origin)")
          return .stale(try freshness(recorded, week: week, settings: settings), source: source)
        }
        catalog = new
        switch new.input {
        case .held(let prepared): report.pulled = prepared
        case .file(let path): report.inputs = [path]
        }
        report.takenAt = new.takenAt
      case .unchanged(let latest, let why):
        outcome.lines.append("nothing recorded: \(why)")
        try ledger.note(run: runID, .init(snapshotID: latest.id, recorded: false))
        let judged = try freshness(latest, week: week, settings: settings)
        if judged.isStale { return .stale(judged, source: source) }
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
        return .written(chosen)
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
    return .written(written.snapshot)
  }

  /// Whether `snapshot` is new data for `week`.
  func freshness(_ snapshot: SnapshotInfo, week: ISOWeek, settings: WeeklySettings) throws -> WeeklyFreshness {
    try WeeklyFreshness.judge(snapshot, week: week, ledger: store.ledger, now: environment.now(), maxAge: settings.maxAge)
  }

  /// Records a catalog without writing a report (a new download that is too old).
  func recordOnly(_ catalog: WeeklyPull.Catalog) throws -> SnapshotInfo {
    switch catalog.input {
    case .held(let prepared):
      return try store.record(prepared.stamped(takenAt: catalog.takenAt))
    case .file(let path):
      guard let recorded = try SnapshotJob(store: store, environment: environment).record([(path, catalog.takenAt)]).first
      else { throw WorkflowError.emptyCatalog(source: path) }
      return recorded.info
    }
  }

  /// Where the data came from, for the operators' alert: the folder's newest file and its
  /// time, or the Open API.
  static func sourceLine(_ catalog: WeeklyPull.Catalog, settings: WeeklySettings, language: ReportLanguage) -> String {
    let ko = language == .ko
    guard catalog.isFile, case .folder(let folder) = settings.source else {
      return ko ? "Open API (지난번과 같은 목록)" : "the Open API (the same catalog as before)"
    }
    let time = OfficialDates.instant(catalog.takenAt, language).replacingOccurrences(of: "\u{00A0}", with: " ")
    return ko
      ? "폴더 \(folder)의 가장 새 파일 \(catalog.origin) (\(time))"
      : "the folder \(folder): newest file \(catalog.origin) (\(time))"
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
}
