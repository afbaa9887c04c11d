import Foundation
import RaonAnalytics
import RaonConcurrency
import RaonCore
import RaonExport
import RaonMail
import RaonStore

/// What `raon report` was asked to do (command-line options merged over the config file).
public struct ReportRequest: Sendable {
  /// Files to record first, each as its own snapshot (`--input`).
  public var inputs: [String] = []
  /// Fetch the catalog from the Open API first (`--api`).
  public var useAPI = false
  public var apiBase: String?
  public var takenAt: Date?
  /// `--snapshot`: an id or `latest`.
  public var snapshot: String?
  /// `--compare-to`: an id, `previous` or `none`.
  public var compareTo: String?
  /// `--week YYYY-Www`.
  public var week: String?
  public var formats: [ReportFormat] = FormatRegistry.standard.defaults(for: .report)
  /// `--trend-weeks N`: the trend's ISO weeks (the latest snapshot of each), 0 = no trend.
  public var trendWeeks = WeeklyTrend.defaultWeeks
  /// `--district NAME` (repeatable) or `--districts all`: a pack per district, besides the
  /// city report, in `districts/<자치구>/`. Checked against the 25 names before anything
  /// is recorded.
  public var districts: [String] = []
  /// `--out`; default `reports/<YYYY-Www>/` under the working directory (or under the
  /// config file's `out` folder).
  public var out: String?
  /// A parent folder for the default `<YYYY-Www>` name (config `out`).
  public var outParent: String?
  public var options = ExportOptions()
  /// A catalog already pulled (by `raon weekly`, after its retries), recorded as `--api`'s is.
  var pulled: PreparedSnapshot?

  public init() {}
}

/// What `raon report` did.
public struct ReportOutcome: Sendable {
  public var directory: URL
  public var snapshot: SnapshotInfo
  public var compareTo: SnapshotInfo?
  public var week: ISOWeek
  public var recorded: [SnapshotInfo]
  public var recordedSample: Bool
  public var files: [String]
  public var warnings: [String]
  public var added: Int?
  public var removed: Int?
  public var changed: Int?
  /// Page 1 of the city report (key `city`) and of each pack (its district), as a weekly
  /// message's body says it.
  public var pageOnes: [String: WeeklySummary] = [:]
  /// The national data's report: `snapshot` is counted in events, and what was recorded
  /// in rows (the store keeps every session).
  public var countsEvents = false
  /// Renames and mergers of regions found in the national data and applied to this
  /// report (ReportJob+Lineage.swift), for `raon weekly`'s operator alert.
  public var lineage: LineageNote?
}

/// `raon report`: optional ingestion, then every table of one snapshot, its comparison and
/// the week's figures, written in each chosen format into one folder.
///
/// ``run(_:)`` is the whole job, one named step per line: check the request (and fix the
/// week when it can be), read the input, record it, select the snapshots, read the
/// programs, then in a hidden folder compute, render, the district packs and print, and
/// publish it. Each step takes the earlier ones' results; nothing is handed down to do an
/// earlier step's work. The overlaps are the recording of an input held in memory: it
/// runs on a thread of its own (a `PendingResult` the selection waits for) while the
/// workbook starts on the input's programs; and that input's comparison with a stored
/// snapshot, worked out meanwhile (``ComparisonAhead``).
public struct ReportJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment
  /// How snapshots are read (in memory or in chunks; tests lower the limits).
  var reading = SnapshotReading.Policy()
  /// The store's catalog: the national data is reported in events and regions
  /// (ReportJob+National.swift).
  public var profile: CatalogProfile = .seoul

  public init(store: any SnapshotStoring, storePath: String, environment: RaonEnvironment) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
  }

  public func run(_ request: ReportRequest) async throws -> ReportOutcome {
    var request = request
    if profile.name == .seoul { request.districts = Self.spelled(request.districts) }
    let plan = try checkBeforeRecording(request)
    // The compared snapshot is decoded while the input is read (``ComparisonAhead``).
    let readAhead = try ComparisonAhead.readAhead(request, plan: plan, job: self)
    defer { readAhead?.finish() }
    let input = try await read(request, takenAt: plan.takenAt)
    defer { input.held?.releaseOffThread() }
    // Started before the recording, so that it chooses among the snapshots stored before it.
    let ahead = try ComparisonAhead.start(request, input, plan: plan, job: self, readAhead: readAhead)
    defer { _ = ahead?.result.wait() }
    let recording = try await record(request, input, takenAt: plan.takenAt)
    // A held input is recorded on a thread of its own: it must be done before the job is.
    defer { _ = recording.wait() }
    return try sayingWhatWasRecorded(recording) {
      let selection = select(request, plan: plan, after: recording)
      defer { _ = selection.wait() }
      let programs = try eventsIfNational(try self.programs(of: input, selection), input, selection)
      let folder = outputFolder(request, week: try plan.week ?? selection.wait().get().week)
      return try relinedIfFound(request, selection: selection, recording: recording, into: folder) {
        try report(
          request, programs: programs, selection: selection, recording: recording, into: folder, ahead: ahead,
          figured: { input.held?.releaseRecords() })
      }
    }
  }

  /// Runs the report's steps after recording; when one fails, its error says which
  /// snapshots were recorded all the same, so a retry reports them instead of recording the
  /// file again (everything that can be checked before recording is: see
  /// ``checkBeforeRecording(_:)``; a full output disk cannot be).
  func sayingWhatWasRecorded<T>(_ recording: PendingResult<Recorded>, _ steps: () throws -> T) throws -> T {
    do {
      return try steps()
    } catch WorkflowError.interrupted {
      throw WorkflowError.interrupted
    } catch {
      let ids = ((try? recording.wait().get())?.yours ?? []).map(\.id)
      guard !ids.isEmpty else { throw error }
      throw WorkflowError.recordedButNotReported(ids: ids, reason: String(describing: error))
    }
  }

  /// The report's steps once its programs are known, in a hidden folder published at
  /// `folder` at the end (on any failure nothing is published): open the sinks on the
  /// programs, compute (once the selection is made), render, the district packs, print.
  ///
  /// - Parameters:
  ///   - programs: The reported snapshot's programs (the workbook starts on them at once).
  ///   - selection: What the report is about; a held input's is still being recorded
  ///     while the workbook starts.
  ///   - ahead: The comparison worked out while recording, used when the selection is the
  ///     one it guessed.
  ///   - figured: Called once the input is recorded and the figures computed, before
  ///     anything is rendered (to let go of what only those needed).
  func report(
    _ request: ReportRequest, programs: ProgramChunks, selection pending: PendingResult<ReportSelection>,
    recording: PendingResult<Recorded>, into folder: URL, ahead: ComparisonAhead? = nil,
    figured: () -> Void = {}
  ) throws -> ReportOutcome {
    // The browser starts now, on a thread of its own, while the other formats are written.
    let browser = request.formats.contains(.pdf)
      ? try ChromiumPrinter.locate(in: environment.variables).session() : nil
    browser?.start()
    defer { browser?.close() }
    let (report, written, target, pageOnes) = try OutputPublisher.publish(folder) { staging in
      let outputs = try ReportOutputs(
        programs: programs, formats: request.formats, into: staging, options: request.options,
        early: ahead?.early, progress: environment.progress)
      let computed: (report: ReportData, trends: [String: [WeeklyTrendPoint]])
      let selection: ReportSelection
      let matched: ComparisonAhead?
      do {
        selection = try pending.wait().get()
        let recorded = try recording.wait().get().snapshots
        matched = ahead.flatMap { $0.matches(selection, recorded: recorded) ? $0 : nil }
        computed = try compute(
          selection, programs: programs, districts: request.districts, ahead: matched, feeding: outputs.consume)
      } catch {
        try outputs.fail(error)
      }
      figured()
      FreedMemory.release()
      var written = try outputs.finish(computed.report)
      var pageOnes = [WeeklyList.city: PageOneSummary.make(computed.report, request.options)]
      written.append(
        try packs(
          request, city: computed.report, programs: programs, selection: selection,
          trends: computed.trends, into: staging) { pageOnes[$0] = PageOneSummary.make($1, request.options) })
      try printPDFs(&written, with: browser, into: staging)
      return (computed.report, written, staging.target, pageOnes)
    }
    let recorded = try recording.wait().get()
    return ReportOutcome(
      directory: target, snapshot: report.snapshot, compareTo: report.compareTo,
      week: report.week, recorded: recorded.yours, recordedSample: recorded.sample,
      files: written.files, warnings: written.warnings,
      added: report.changes?.added.count, removed: report.changes?.removed.count,
      changed: report.changes?.changed.count, pageOnes: pageOnes, countsEvents: profile.name == .national)
  }

  /// The report's figures and trends, from one pass over `programs` that also hands each
  /// chunk to the sinks (`consume`).
  func compute(
    _ selection: ReportSelection, programs: ProgramChunks, districts: [String], ahead: ComparisonAhead? = nil,
    feeding consume: (([Program]) throws -> Void)?
  ) throws -> (report: ReportData, trends: [String: [WeeklyTrendPoint]]) {
    environment.progress("analysing snapshot \(selection.snapshot.id) …")
    // Held programs feed no sink in the pass: the trend, read from the store, is worked out
    // meanwhile on a thread of its own. Otherwise after the pass, so that a workbook fed by
    // it (a catalog read from the store) starts on its programs sheet sooner.
    let trendAhead = programs.held == nil ? nil : PendingResult.start(named: "raon-trend") { [self] in
      try self.trend(selection, districts: districts)
    }
    defer { _ = trendAhead?.wait() }
    // Chunks decoded on one thread and freed on another leave their memory in glibc's
    // heaps: over a million programs the pass and the trend after it left most of the
    // report's peak freed but resident (docs/PERFORMANCE.md). It is given back every
    // 250,000 programs and before the trend is read.
    var sinceReleased = 0
    var report = try ReportAssembler.assemble(
      snapshot: profile.name == .national ? NationalWeek.inEvents(selection.snapshot, programs.count) : selection.snapshot,
      programs: programs,
      compareTo: try comparison(selection, ahead: ahead), week: selection.week,
      each: { chunk in
        try consume?(chunk)
        sinceReleased += chunk.count
        if sinceReleased >= 250_000 {
          FreedMemory.release()
          sinceReleased = 0
        }
      })
    if trendAhead == nil, programs.count >= 250_000 { FreedMemory.release() }
    let trends = try trendAhead?.wait().get() ?? trend(selection, districts: districts)
    report.trend = trends.city
    if profile.name == .national { report.extras = ReportExtras.tables(profile.extras, programs.held ?? []) }
    return (report, trends.byDistrict)
  }

  /// A pack per district asked for (``DistrictPacks``), through the same outputs.
  func packs(
    _ request: ReportRequest, city: ReportData, programs: ProgramChunks, selection: ReportSelection,
    trends: [String: [WeeklyTrendPoint]], into staging: OutputPublisher.Staging,
    pageOne: (_ district: String, _ report: ReportData) -> Void
  ) throws -> ExportResult {
    guard !request.districts.isEmpty else { return ExportResult() }
    if profile.name == .national {
      return try nationalPacks(request, city: city, programs: programs, selection: selection, trends: trends,
        into: staging, pageOne: pageOne)
    }
    return try DistrictPacks.write(
      request.districts, city: city, programs: programs,
      compared: try selection.compareTo.map { try reading.comparedPrograms(of: $0, in: store) },
      trends: trends, formats: request.formats, into: staging, options: request.options,
      progress: environment.progress, pageOne: pageOne)
  }

  /// The PDF post-step: the city report's page and every pack's, printed by one browser.
  func printPDFs(
    _ written: inout ExportResult, with browser: ChromiumSession?, into staging: OutputPublisher.Staging
  ) throws {
    try PDFJob.print(written.printing, with: browser, variables: environment.variables, into: staging)
    written.printing = []
  }

  // MARK: - Steps

  /// The districts in their canonical (NFC) spelling, each once: a decomposed `강남구` is
  /// the same district and must not name a folder or a title of its own. An unknown name
  /// is kept as given, for ``checkBeforeRecording(_:)`` to refuse.
  static func spelled(_ districts: [String]) -> [String] {
    var seen = Set<String>()
    return districts.map { District.named($0) ?? $0 }.filter { seen.insert($0).inserted }
  }

  /// Everything that can be checked before anything is recorded, so a request that would
  /// fail records nothing (a retry must not add another copy of the input): the snapshot
  /// and comparison references, the week, and the output folder.
  ///
  /// - Returns: The instant every check and the recording use, and the report's week
  ///   when it is fixed before recording (it always is when the report is about the input
  ///   it records, so its folder is known before the recording ends).
  func checkBeforeRecording(_ request: ReportRequest) throws -> ReportPlan {
    let week = try SnapshotSelection.parseWeek(request.week)
    let takenAt = request.takenAt ?? environment.now()
    for name in request.districts where profile.name == .seoul && !District.all.contains(name) {
      throw WorkflowError.unknownDistrict(name)
    }
    let snapshots = try store.snapshots()
    let recordsFirst = !request.inputs.isEmpty || request.useAPI || request.pulled != nil
    // The snapshot the report will be about, when it is already known.
    var chosen: SnapshotInfo?
    if request.snapshot != nil || !recordsFirst, !snapshots.isEmpty {
      chosen = try SnapshotSelection.chooseSnapshot(
        request.snapshot, week: week, in: snapshots, store: storePath)
    }
    if let chosen {
      _ = try SnapshotSelection.chooseComparison(
        request.compareTo, for: chosen, in: snapshots, store: storePath)
    } else if let reference = request.compareTo {
      try SnapshotSelection.checkComparisonReference(reference, in: snapshots, store: storePath)
    }
    var plan = ReportPlan(takenAt: takenAt, askedWeek: week, week: week)
    // The week checked: a reference given with an input is resolved again after recording,
    // so its week is the likely one, not yet the report's.
    var checkedWeek = week ?? chosen.map(SnapshotSelection.defaultWeek(for:))
    if !recordsFirst { plan.week = checkedWeek }
    // A snapshot about to be recorded is taken now (or at --taken-at): a week given must
    // contain or follow it, as a week chooses a snapshot taken by its end otherwise.
    if recordsFirst, request.snapshot == nil {
      let stored = SnapshotStore.storedTime(takenAt) ?? takenAt
      let newWeek = ISOWeek(containing: CalendarDay(koreaDateOf: stored))
      if let week, week < newWeek {
        throw WorkflowError.weekBeforeSnapshot(week: week.description, snapshotWeek: newWeek.description)
      }
      plan.week = week ?? newWeek
      checkedWeek = plan.week
    }
    if let checkedWeek { try OutputPublisher.checkReplaceable(outputFolder(request, week: checkedWeek)) }
    // A PDF needs Chromium: say so before anything is recorded.
    if request.formats.contains(.pdf) { _ = try ChromiumPrinter.locate(in: environment.variables) }
    return plan
  }

  /// Reads the request's input, when it is one small file or the Open API's catalog, into
  /// memory before anything is recorded (``ReportInput``); a large file is streamed into
  /// the store by ``record(_:_:takenAt:)`` instead.
  func read(_ request: ReportRequest, takenAt: Date) async throws -> ReportInput {
    let job = SnapshotJob(store: store, environment: environment, profile: profile)
    let prepared: PreparedSnapshot
    if let pulled = request.pulled {
      prepared = pulled
    } else if request.inputs.count == 1, !request.useAPI, let url = try job.smallFile(request.inputs[0]) {
      prepared = try job.readSmallFile(url, path: request.inputs[0])
    } else if request.inputs.isEmpty, request.useAPI {
      prepared = try await job.fetchFromAPI(base: request.apiBase)
    } else {
      return .prepared(nil)
    }
    return ReportInput(
      prepared, takenAt: takenAt, reportsIt: request.snapshot == nil, reading: reading,
      sessions: profile.identity == .naturalKey)
  }

  /// Records the request's input (already read, or the files it names, or the Open API's
  /// catalog), each as a snapshot; on an empty store with nothing to record, the bundled
  /// sample.
  ///
  /// A held input is recorded on a thread of its own, the one overlap of the job: the
  /// report starts on its programs (the workbook's programs sheet) meanwhile, and
  /// ``select(_:plan:after:)`` waits for it. Everything else is recorded before this returns.
  func record(_ request: ReportRequest, _ input: ReportInput, takenAt: Date) async throws
    -> PendingResult<Recorded>
  {
    if let held = input.held {
      environment.progress("recording \(held.prepared.source) …")
      let snapshot = held.prepared.stamped(takenAt: held.takenAt)
      return PendingResult.start { [store] in try Recorded(snapshots: [store.record(snapshot)], sample: false) }
    }
    let ingest = SnapshotJob(store: store, environment: environment, profile: profile)
    var recorded: [SnapshotInfo] = []
    if case .prepared(let prepared?) = input {
      recorded.append(try store.record(prepared.stamped(takenAt: takenAt)))
    } else {
      if !request.inputs.isEmpty {
        recorded += try ingest.recordFiles(request.inputs, takenAt: takenAt)
      }
      if request.useAPI {
        recorded.append(try await ingest.recordFromAPI(base: request.apiBase, takenAt: takenAt))
      }
    }
    if recorded.isEmpty, try store.snapshots().isEmpty {
      // The bundled sample is Seoul's: a national store starts with `raon snapshot`.
      guard profile.name == .seoul else { throw WorkflowError.noSnapshots(store: storePath) }
      environment.progress("empty store: recording the bundled sample (2024-09-09) first …")
      return .done(Recorded(snapshots: [try ingest.recordSample()], sample: true))
    }
    return .done(Recorded(snapshots: recorded, sample: false))
  }

  /// The snapshot the report is about (right after an ingestion, the one recorded), what
  /// it is compared with, and the week it shows (the plan's, when fixed before recording),
  /// chosen once `recording` is done: on a thread of its own, so that the report can start
  /// on a held input's programs meanwhile.
  func select(_ request: ReportRequest, plan: ReportPlan, after recording: PendingResult<Recorded>)
    -> PendingResult<ReportSelection>
  {
    PendingResult.start { [self] in
      let recorded = try recording.wait().get().snapshots
      let snapshots = try store.snapshots()
      let reference = request.snapshot ?? recorded.last.map { String($0.id) }
      let chosen = try SnapshotSelection.chooseSnapshot(
        reference, week: plan.askedWeek, in: snapshots, store: storePath)
      let compare = try SnapshotSelection.chooseComparison(
        request.compareTo, for: chosen, in: snapshots, store: storePath)
      return ReportSelection(
        snapshot: chosen, compareTo: compare, week: plan.week ?? SnapshotSelection.defaultWeek(for: chosen),
        snapshots: snapshots, trendWeeks: request.trendWeeks)
    }
  }

  /// The reported snapshot's programs: a held input's as they are (what the store will
  /// give back), else read from the store once the snapshot is selected.
  func programs(of input: ReportInput, _ selection: PendingResult<ReportSelection>) throws -> ProgramChunks {
    if let held = input.held { return ProgramChunks(held.programs) }
    return try reading.programs(of: selection.wait().get().snapshot, in: store)
  }

  /// What the report is compared with: the compared snapshot's programs (what statistics
  /// read of them) and the changes, which the store finds from the programs that differ.
  func comparison(_ selection: ReportSelection, ahead: ComparisonAhead? = nil) throws
    -> (info: SnapshotInfo, programs: ProgramChunks, changes: SnapshotDiff)?
  {
    if profile.name == .national, ahead == nil { return try nationalComparison(selection) }
    if let ahead, let info = selection.compareTo {
      let (programs, changes) = try ahead.result.wait().get()
      // The national data's compared snapshot is said in events, as its comparison counts.
      return (profile.name == .national ? NationalWeek.inEvents(info, programs.count) : info, programs, changes)
    }
    return try selection.compareTo.map { info in
      (info: info, programs: try reading.comparedStatistics(of: info, in: store),
       changes: try SnapshotReading.diff(from: info, to: selection.snapshot, in: store))
    }
  }

  /// The last weeks up to the reported snapshot, one point per ISO week that has a
  /// snapshot (its latest), each read once, by columns, from the store — for the city and
  /// for each district asked for.
  func trend(_ selection: ReportSelection, districts: [String]) throws
    -> (city: [WeeklyTrendPoint], byDistrict: [String: [WeeklyTrendPoint]])
  {
    guard selection.trendWeeks > 0 else { return ([], [:]) }
    let history = selection.snapshots.filter { $0.takenAt <= selection.snapshot.takenAt }
    let chosen = WeeklyTrend.choosePoints(history, weeks: selection.trendWeeks)
    if profile.name == .national { return try nationalTrend(chosen, regions: districts, day: selection.snapshot.koreaDay) }
    // The city alone: read only what changed between the points (`raon trend`'s way).
    if districts.isEmpty { return (try TrendJob.points(of: chosen, in: store), [:]) }
    var city = WeeklyTrend.Builder()
    var byDistrict = Dictionary(uniqueKeysWithValues: districts.map { ($0, WeeklyTrend.Builder()) })
    for point in chosen {
      city.startPoint(point)
      for d in districts { byDistrict[d]?.startPoint(point) }
      try store.programColumnChunks(inSnapshot: point.id).forEach { chunk in
        city.add(chunk)
        let grouped = Dictionary(grouping: chunk, by: \.district)
        for d in districts { byDistrict[d]?.add(grouped[d] ?? []) }
      }
    }
    return (city.points, byDistrict.mapValues(\.points))
  }

  /// `--out`, else `reports/<YYYY-Www>/` under the working directory (or under the config
  /// file's `out` folder).
  func outputFolder(_ request: ReportRequest, week: ISOWeek) -> URL {
    if let out = request.out { return environment.url(forPath: out) }
    return environment.url(forPath: request.outParent ?? "reports")
      .appendingPathComponent(week.description)
  }
}

/// What the checks before recording decided (``ReportJob/checkBeforeRecording(_:)``).
struct ReportPlan: Sendable {
  /// The time of every check and of the snapshots recorded (`--taken-at`, else now).
  var takenAt: Date
  /// `--week`.
  var askedWeek: ISOWeek?
  /// The report's week, when it is fixed before recording: `--week`, the week of the
  /// snapshot being recorded and reported, or of the one chosen among those already stored.
  var week: ISOWeek?
}

/// What the recording step recorded.
struct Recorded: Sendable {
  var snapshots: [SnapshotInfo]
  /// `snapshots` is the bundled sample, recorded on an empty store with nothing to record.
  var sample: Bool

  /// The snapshots recorded from the user's input (the sample is none of theirs).
  var yours: [SnapshotInfo] { sample ? [] : snapshots }
}

extension PendingResult {
  /// A result known already.
  static func done(_ value: T) -> PendingResult<T> {
    let result = PendingResult<T>()
    result.fulfil(.success(value))
    return result
  }
}

/// What a report is about: chosen by ``ReportJob/select(_:plan:after:)``.
struct ReportSelection: Sendable {
  var snapshot: SnapshotInfo
  var compareTo: SnapshotInfo?
  var week: ISOWeek
  /// Every snapshot of the store, oldest first (for the trend).
  var snapshots: [SnapshotInfo]
  /// How many ISO weeks the trend shows (0: none).
  var trendWeeks: Int
}

extension FormatRegistry {
  /// Parses `md,xlsx,csv,json,html,pdf` as `job` reads it: any order, any case, a format's
  /// aliases (`markdown`, `excel`) accepted, `all` meaning every format of the job that needs
  /// nothing outside Raon (``all(for:)``); nothing listed means the job's defaults.
  ///
  /// - Throws: ``WorkflowError/unknownFormat(_:known:)`` for a name no entry has.
  public func parse(_ texts: [String], for job: FormatJob) throws -> [ReportFormat] {
    var formats: [ReportFormat] = []
    for text in texts.flatMap({ $0.split(separator: ",") }) {
      if text.trimmingCharacters(in: .whitespaces).lowercased() == "all" {
        for format in all(for: job) where !formats.contains(format) { formats.append(format) }
        continue
      }
      guard let format = format(named: String(text)) else {
        throw WorkflowError.unknownFormat(String(text), known: self.formats.map(\.rawValue))
      }
      if !formats.contains(format) { formats.append(format) }
    }
    return formats.isEmpty ? defaults(for: job) : formats
  }
}
