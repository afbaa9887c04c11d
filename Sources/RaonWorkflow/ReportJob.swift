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
/// ``run(_:)`` is the whole job, one step after another, each a function named for it:
///
/// ```
/// check    everything that can be checked before anything is recorded (ReportPlan)
/// read     one small file or the Open API's catalog into memory (ReportInput)
/// record   it (or the files, streamed; or the bundled sample on an empty store)
/// select   the snapshot, its comparison, the week
/// compute  the figures: one pass over the programs, the comparison, the trend
/// render   the document composed once, every format rendered from it, side by side
/// packs    each pack asked for, the same way
/// print    the PDFs of the run, by one browser
/// publish  the staged folder swapped into place, whole or not at all
/// ```
///
/// Each step takes the earlier ones' results. Concurrency is only where a step fans out:
/// the formats are rendered side by side (``ReportRendering``), and normalising, encoding
/// and decoding spread rows over the cores (``ParallelWork``).
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
    request.districts = Self.spelled(request.districts, in: profile)
    let plan = try checkBeforeRecording(request)
    let input = try await read(request, plan: plan)
    if let held = input.held, let week = plan.week, case .some(let compareTo) = plan.comparison,
      compareTo?.id == held.compared?.info.id
    {
      return try report(request, held: held, plan: plan, into: outputFolder(request, week: week))
    }
    let recorded = try await record(request, input, takenAt: plan.takenAt)
    return try sayingWhatWasRecorded(recorded) {
      let selection = try select(request, plan: plan, recorded: recorded)
      let programs = try eventsIfNational(try reading.programs(of: selection.snapshot, in: store), selection)
      let folder = outputFolder(request, week: selection.week)
      return try relinedIfFound(request, selection: selection, recorded: recorded, into: folder) {
        try report(request, programs: programs, selection: selection, recorded: recorded, into: folder)
      }
    }
  }

  /// The report of a stored snapshot, once selected: compute, render, the packs, print,
  /// publish.
  func report(
    _ request: ReportRequest, programs: ProgramChunks, selection: ReportSelection, recorded: Recorded, into folder: URL
  ) throws -> ReportOutcome {
    try publishing(request, into: folder) { staging in
      let figures = try compute(selection, programs: programs, districts: request.districts)
      return try write(request, figures, programs: programs, selection: selection, recorded: recorded, into: staging)
    }
  }

  /// The report of an input held in memory (``HeldInput``), which is the snapshot it
  /// records. Its recording goes on a thread of its own while its comparison with the
  /// stored snapshot read beside it (``HeldInput/compared``; nothing of the input is read
  /// back from the store) is worked out and the formats that can begin with its programs
  /// and changes are begun (the workbook's largest sheets): neither side reads what the
  /// other writes. Then the same steps as any report.
  ///
  /// When the comparison finds a lineage the keys were not recorded under (``LineageFound``),
  /// nothing begun is kept: once recorded, the report is made from the store under it
  /// (ReportJob+Lineage.swift).
  func report(_ request: ReportRequest, held: HeldInput, plan: ReportPlan, into folder: URL) throws -> ReportOutcome {
    let programs = ProgramChunks(try itemsIfEvents(held.programs, on: held.day))
    // Set once the input is recorded: an error after that says so.
    var recorded: Recorded?
    do {
      return try publishing(request, into: folder) { staging in
        let (store, snapshot) = (store, held.prepared.stamped(takenAt: plan.takenAt))
        environment.progress("recording \(held.prepared.source) …")
        let compareAndBegin = { () throws -> (Compared?, [ReportFormat: FormatEntry.Begun]) in
          // Let go once compared: it is the largest thing the report would otherwise hold.
          let compared = try held.takeCompared().map {
            try comparison(held: held.programs, entries: held.prepared.entries, on: held.day, with: $0)
          }
          let begun = try ReportFormat.begin(
            request.formats, programs: programs, changes: compared?.changes, day: held.day, into: staging.folder,
            options: request.options)
          return (compared, begun)
        }
        // Once recorded, the selection and the trend (read from the store, the input's
        // point too) on the recording's lane, while the comparison and the workbook's begin
        // may still run on the other (it was the national job's longest step alone on a
        // core: 176 ms of 1.6 s). A failure of either side waits for the recording, so that
        // it can say what was recorded.
        let (compareResult, (info, selected)) = try ParallelWork.both(
          { Result { try compareAndBegin() } },
          { () throws -> (SnapshotInfo, Result<(ReportSelection, Trends), any Error>) in
            let info = try store.record(snapshot)
            return (info, Result {
              let selection = try select(request, plan: plan, recorded: Recorded(snapshots: [info], sample: false))
              return (selection, try trend(selection, districts: request.districts))
            })
          })
        let done = Recorded(snapshots: [info], sample: false)
        recorded = done
        let (selection, trends) = try selected.get()
        if case .failure(let error) = compareResult, let found = error as? LineageFound {
          throw ReportAgainUnderLineage(found: found, selection: selection)
        }
        let (compared, begun) = try compareResult.get()
        let figures = try compute(
          selection, programs: programs, compared: compared, districts: request.districts, trends: trends)
        held.releaseRecords()
        return try write(
          request, figures, programs: programs, selection: selection, recorded: done, begun: begun, into: staging)
      }
    } catch let again as ReportAgainUnderLineage {
      held.releaseRecords()
      let done = recorded ?? Recorded(snapshots: [], sample: false)
      return try sayingWhatWasRecorded(done) {
        try reportRelined(again.found, request, selection: again.selection, recorded: done, into: folder)
      }
    } catch {
      throw recorded?.saying(error) ?? error
    }
  }

  /// Runs the report's steps after recording; when one fails, its error says which
  /// snapshots were recorded all the same, so a retry reports them instead of recording the
  /// file again (everything that can be checked before recording is: see
  /// ``checkBeforeRecording(_:)``; a full output disk cannot be).
  func sayingWhatWasRecorded<T>(_ recorded: Recorded, _ steps: () throws -> T) throws -> T {
    do {
      return try steps()
    } catch {
      throw recorded.saying(error)
    }
  }

  /// The browser started (when a PDF is asked for), `write` run in a hidden folder
  /// published at `folder` at the end (on any failure nothing is published), and what it
  /// did.
  func publishing(
    _ request: ReportRequest, into folder: URL,
    _ write: (OutputPublisher.Staging) throws -> (ReportData, ExportResult, Recorded, [String: WeeklySummary])
  ) throws -> ReportOutcome {
    // The browser starts now, on a thread of its own, while the formats are written.
    let browser = request.formats.contains(.pdf)
      ? try ChromiumPrinter.locate(in: environment.variables).session() : nil
    browser?.start()
    defer { browser?.close() }
    let (report, written, recorded, pageOnes, target) = try OutputPublisher.publish(folder) { staging in
      var (report, written, recorded, pageOnes) = try write(staging)
      try printPDFs(&written, with: browser, into: staging)
      return (report, written, recorded, pageOnes, staging.target)
    }
    return ReportOutcome(
      directory: target, snapshot: report.snapshot, compareTo: report.compareTo,
      week: report.week, recorded: recorded.yours, recordedSample: recorded.sample,
      files: written.files, warnings: written.warnings,
      added: report.changes?.added.count, removed: report.changes?.removed.count,
      changed: report.changes?.changed.count, pageOnes: pageOnes, countsEvents: profile.countsEvents)
  }

  /// The render step and the packs: the report in every format asked for (``ReportRendering``),
  /// then each pack the same way; page 1 of each as a weekly message says it. PDFs are
  /// queued for ``printPDFs(_:with:into:)``.
  ///
  /// - Parameter begun: The formats begun with the programs already (``ReportFormat/begin``).
  func write(
    _ request: ReportRequest, _ figures: (report: ReportData, trends: [String: [WeeklyTrendPoint]]),
    programs: ProgramChunks, selection: ReportSelection, recorded: Recorded,
    begun: [ReportFormat: FormatEntry.Begun] = [:], into staging: OutputPublisher.Staging
  ) throws -> (ReportData, ExportResult, Recorded, [String: WeeklySummary]) {
    environment.progress("writing \(FormatRegistry.standard.ordered(request.formats).map(\.rawValue).joined(separator: ", ")) …")
    var written = try ReportRendering.write(
      figures.report, programs: programs, begun: begun, formats: request.formats, into: staging, options: request.options)
    var pageOnes = [WeeklyList.city: PageOneSummary.make(figures.report, request.options)]
    written.append(
      try packs(
        request, city: figures.report, programs: programs, selection: selection,
        trends: figures.trends, into: staging) { pageOnes[$0] = PageOneSummary.make($1, request.options) })
    return (figures.report, written, recorded, pageOnes)
  }

  /// The report's figures and trends: the comparison (unless `compared` is it already),
  /// one pass over `programs`, and the trend read from the store (unless `trends` are it).
  func compute(
    _ selection: ReportSelection, programs: ProgramChunks, compared: Compared? = nil, districts: [String],
    trends known: Trends? = nil
  ) throws -> (report: ReportData, trends: [String: [WeeklyTrendPoint]]) {
    environment.progress("analysing snapshot \(selection.snapshot.id) …")
    let compared = try compared ?? comparison(selection)
    var report = try ReportAssembler.assemble(
      snapshot: profile.countsEvents ? NationalWeek.inEvents(selection.snapshot, programs.count) : selection.snapshot,
      programs: programs, compareTo: compared?.figures, week: selection.week)
    let trends = try known ?? trend(selection, districts: districts)
    report.trend = trends.city
    if !profile.extras.isEmpty { report.extras = ReportExtras.tables(profile.extras, programs.held ?? []) }
    return (report, trends.byDistrict)
  }

  /// A pack per district asked for (``DistrictPacks``), rendered the same way.
  func packs(
    _ request: ReportRequest, city: ReportData, programs: ProgramChunks, selection: ReportSelection,
    trends: [String: [WeeklyTrendPoint]], into staging: OutputPublisher.Staging,
    pageOne: (_ district: String, _ report: ReportData) -> Void
  ) throws -> ExportResult {
    guard !request.districts.isEmpty else { return ExportResult() }
    if profile.fixedRegions == nil {
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
  static func spelled(_ districts: [String], in profile: CatalogProfile) -> [String] {
    var seen = Set<String>()
    return districts.map { profile.region(named: $0) ?? $0 }.filter { seen.insert($0).inserted }
  }

  /// Everything that can be checked before anything is recorded, so a request that would
  /// fail records nothing (a retry must not add another copy of the input): the snapshot
  /// and comparison references, the week, and the output folder.
  ///
  /// - Returns: The instant every check and the recording use, and the report's week
  ///   when it is fixed before recording (it always is when the report is about the input
  ///   it records).
  func checkBeforeRecording(_ request: ReportRequest) throws -> ReportPlan {
    let week = try SnapshotSelection.parseWeek(request.week)
    let takenAt = request.takenAt ?? environment.now()
    for name in request.districts where !(profile.fixedRegions?.contains(name) ?? true) {
      let regions = profile.regions.names
      throw WorkflowError.unknownDistrict(
        name, regions: regions, phrase: profile.words.fixedRegionsPhrase(count: regions.count),
        example: regions.lazy.compactMap { profile.words.englishNames[$0] }.first)
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
    if recordsFirst, request.snapshot == nil {
      // The report is about the snapshot about to be recorded (taken at the plan's time,
      // its id above every other): what it is compared with is among those stored now.
      let new = SnapshotInfo(id: .max, takenAt: SnapshotStore.storedTime(takenAt) ?? takenAt, source: "", programCount: 0)
      plan.comparison = .some(
        try SnapshotSelection.chooseComparison(request.compareTo, for: new, in: snapshots, store: storePath))
    }
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
  ///
  /// When the report will be about a held input, the stored snapshot it is compared with
  /// (chosen before recording, ``ReportPlan/comparison``) is read whole beside it
  /// (``HeldInput/compared``): the input's reading and normalising leave a core to spare.
  func read(_ request: ReportRequest, plan: ReportPlan) async throws -> ReportInput {
    let job = SnapshotJob(store: store, environment: environment, profile: profile)
    var compared: SnapshotInfo?
    if case .some(let chosen?) = plan.comparison, chosen.programCount <= reading.inMemoryLimit { compared = chosen }
    let prepared: PreparedSnapshot
    var stored: StoredSnapshot?
    if let pulled = request.pulled {
      prepared = pulled
    } else if request.inputs.count == 1, !request.useAPI, let url = try job.smallFile(request.inputs[0]) {
      let path = request.inputs[0]
      if let compared {
        let me = self
        (prepared, stored) = try ParallelWork.both(
          { try job.readSmallFile(url, path: path) }, { try me.readCompared(compared) })
      } else {
        prepared = try job.readSmallFile(url, path: path)
      }
    } else if request.inputs.isEmpty, request.useAPI {
      prepared = try await job.fetchFromAPI(base: request.apiBase)
    } else {
      return .prepared(nil)
    }
    let input = ReportInput(
      prepared, takenAt: plan.takenAt, reportsIt: request.snapshot == nil, reading: reading,
      sessions: profile.identity == .naturalKey)
    if let held = input.held, let compared { held.compared = try stored ?? readCompared(compared) }
    return input
  }

  /// Records the request's input (already read, or the files it names, or the Open API's
  /// catalog), each as a snapshot; on an empty store with nothing to record, the bundled
  /// sample.
  func record(_ request: ReportRequest, _ input: ReportInput, takenAt: Date) async throws -> Recorded {
    let ingest = SnapshotJob(store: store, environment: environment, profile: profile)
    var recorded: [SnapshotInfo] = []
    if let prepared = input.prepared {
      environment.progress("recording \(prepared.source) …")
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
      guard profile.bundledSample == SampleCatalog.fileName else { throw WorkflowError.noSnapshots(store: storePath) }
      environment.progress("empty store: recording the bundled sample (2024-09-09) first …")
      return Recorded(snapshots: [try ingest.recordSample()], sample: true)
    }
    return Recorded(snapshots: recorded, sample: false)
  }

  /// The snapshot the report is about (right after an ingestion, the one recorded), what
  /// it is compared with, and the week it shows (the plan's, when fixed before recording).
  func select(_ request: ReportRequest, plan: ReportPlan, recorded: Recorded) throws -> ReportSelection {
    let snapshots = try store.snapshots()
    let reference = request.snapshot ?? recorded.snapshots.last.map { String($0.id) }
    let chosen = try SnapshotSelection.chooseSnapshot(reference, week: plan.askedWeek, in: snapshots, store: storePath)
    let compare = try plan.comparison
      ?? SnapshotSelection.chooseComparison(request.compareTo, for: chosen, in: snapshots, store: storePath)
    return ReportSelection(
      snapshot: chosen, compareTo: compare, week: plan.week ?? SnapshotSelection.defaultWeek(for: chosen),
      snapshots: snapshots, trendWeeks: request.trendWeeks)
  }

  /// The city's trend and each pack's.
  typealias Trends = (city: [WeeklyTrendPoint], byDistrict: [String: [WeeklyTrendPoint]])

  /// The last weeks up to the reported snapshot, one point per ISO week that has a
  /// snapshot (its latest), each read once, by columns, from the store — for the city and
  /// for each district asked for.
  func trend(_ selection: ReportSelection, districts: [String]) throws -> Trends {
    guard selection.trendWeeks > 0 else { return ([], [:]) }
    let history = selection.snapshots.filter { $0.takenAt <= selection.snapshot.takenAt }
    let chosen = WeeklyTrend.choosePoints(history, weeks: selection.trendWeeks)
    if profile.tracesLineage { return try nationalTrend(chosen, regions: districts, day: selection.snapshot.koreaDay) }
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
