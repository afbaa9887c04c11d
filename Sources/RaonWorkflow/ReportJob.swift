import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
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
  public var formats: [ReportFormat] = ReportFormat.allCases
  /// `--out`; default `reports/<YYYY-Www>/` under the working directory (or under the
  /// config file's `out` folder).
  public var out: String?
  /// A parent folder for the default `<YYYY-Www>` name (config `out`).
  public var outParent: String?
  public var options = ExportOptions()

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
}

/// `raon report`: optional ingestion, then every table of one snapshot, its comparison and
/// the week's headline figures, written in each chosen format into one folder.
public struct ReportJob: Sendable {
  public let store: SnapshotStore
  public let storePath: String
  public let environment: RaonEnvironment
  /// Snapshots up to this many programs are held in memory, larger ones read from the
  /// store on each pass in chunks of `chunkSize` (``SnapshotReading``; tests lower both).
  var inMemoryLimit = SnapshotReading.inMemoryLimit
  var chunkSize = SnapshotReading.chunkSize
  /// Runs inside a small file's recording once its report has started (tests make the
  /// recording fail there).
  var recordingHook: (@Sendable () throws -> Void)?

  public init(store: SnapshotStore, storePath: String, environment: RaonEnvironment) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
  }

  public func run(_ request: ReportRequest) async throws -> ReportOutcome {
    let week = try SnapshotSelection.parseWeek(request.week)
    let ingest = SnapshotJob(store: store, environment: environment)
    var recorded: [SnapshotInfo] = []
    var prefetch: ComparisonPrefetch?
    if request.inputs.count == 1, !request.useAPI, let file = try ingest.smallFile(request.inputs[0]) {
      let time = request.takenAt ?? environment.now()
      let before = try store.snapshots()
      if request.snapshot == nil {
        prefetch = ComparisonPrefetch.start(
          reference: request.compareTo, takenAt: time, after: before, store: store,
          limit: inMemoryLimit)
      }
      let prepared = try ingest.readSmallFile(file, path: request.inputs[0])
      if request.snapshot == nil,
        let programs = SnapshotReading.inStoreOrder(prepared.entries.map(\.program))
      {
        return try recordWhileReporting(
          prepared, programs: programs, takenAt: time, after: before, prefetch: prefetch, request,
          week: week)
      }
      recorded.append(try store.record(prepared.stamped(takenAt: time)))
    } else if !request.inputs.isEmpty {
      recorded += try ingest.recordFiles(request.inputs, takenAt: request.takenAt)
    }
    if request.useAPI {
      recorded.append(try await ingest.recordFromAPI(base: request.apiBase, takenAt: request.takenAt))
    }
    var snapshots = try store.snapshots()
    var recordedSample = false
    if snapshots.isEmpty && recorded.isEmpty {
      environment.progress("empty store: recording the bundled sample (2024-09-09) first …")
      recorded.append(try ingest.recordSample())
      recordedSample = true
      snapshots = try store.snapshots()
    }
    // A report right after an ingestion is about that snapshot.
    let reference = request.snapshot ?? (recorded.last.map { String($0.id) })
    let chosen = try SnapshotSelection.chooseSnapshot(
      reference, week: week, in: snapshots, store: storePath)
    let programs = try SnapshotReading.programs(
      of: chosen, in: store, limit: inMemoryLimit, chunkSize: chunkSize)
    let staged = try analyseAndWrite(
      chosen, programs: programs, snapshots: snapshots, prefetch: prefetch, request, week: week)
    try OutputPublisher.commit(staged.staging)
    return staged.outcome(recorded: recorded, recordedSample: recordedSample)
  }

  /// Records a small file and writes its report at the same time: the report starts from
  /// the normalised programs as soon as the snapshot's id is known, on another thread,
  /// while the entries are stored. It is published only once the snapshot is committed;
  /// a failed recording publishes nothing and records nothing.
  ///
  /// - Parameters:
  ///   - programs: The file's programs in the store's order (no id repeats).
  ///   - snapshots: The store's snapshots before this one.
  ///   - prefetch: The comparison's programs, being read.
  private func recordWhileReporting(
    _ prepared: PreparedSnapshot, programs: [Program], takenAt time: Date,
    after snapshots: [SnapshotInfo], prefetch: ComparisonPrefetch?, _ request: ReportRequest,
    week: ISOWeek?
  ) throws -> ReportOutcome {
    var report: PendingResult<StagedReport>?
    var announced: SnapshotInfo?
    let info: SnapshotInfo
    do {
      environment.progress("recording \(prepared.source) …")
      info = try store.record(takenAt: time, source: prepared.source) { sink in
        // What the store will return once the snapshot commits.
        if let takenAt = SnapshotStore.storedTime(time) {
          let snapshot = SnapshotInfo(
            id: sink.snapshotID, takenAt: takenAt, source: prepared.source,
            programCount: prepared.entries.count, sourceTotal: prepared.sourceTotal)
          announced = snapshot
          report = PendingResult.start {
            try self.analyseAndWrite(
              snapshot, programs: ProgramChunks(programs), snapshots: snapshots + [snapshot],
              prefetch: prefetch, request, week: week, committed: false)
          }
        }
        try recordingHook?()
        try sink.append(prepared.entries)
        return prepared.sourceTotal
      }
    } catch {
      if case .success(let staged)? = report?.wait() { OutputPublisher.discard(staged.staging) }
      throw error
    }
    // The report stands if it was about exactly what is now in the store: the snapshot as
    // announced, after the same earlier snapshots (another process could have recorded
    // one before this recording took the write lock).
    let all = try store.snapshots()
    guard let outcome = report?.wait(), announced == info,
      all.filter({ $0.id <= info.id }) == snapshots + [info]
    else {
      if case .success(let staged)? = report?.wait() { OutputPublisher.discard(staged.staging) }
      let programs = try SnapshotReading.programs(
        of: info, in: store, limit: inMemoryLimit, chunkSize: chunkSize)
      let staged = try analyseAndWrite(
        info, programs: programs, snapshots: all, prefetch: prefetch, request, week: week)
      try OutputPublisher.commit(staged.staging)
      return staged.outcome(recorded: [info], recordedSample: false)
    }
    let staged = try outcome.get()
    try OutputPublisher.commit(staged.staging)
    return staged.outcome(recorded: [info], recordedSample: false)
  }

  /// Chooses the comparison, computes the report's data and writes every format into a
  /// staged (hidden) folder; the caller publishes it.
  ///
  /// - Parameters:
  ///   - prefetch: The programs of a snapshot read ahead, used if it is the comparison.
  ///   - committed: Whether `chosen` is in the store yet (else it is being recorded, and
  ///     its programs are held).
  private func analyseAndWrite(
    _ chosen: SnapshotInfo, programs: ProgramChunks, snapshots: [SnapshotInfo],
    prefetch: ComparisonPrefetch? = nil, _ request: ReportRequest, week: ISOWeek?,
    committed: Bool = true
  ) throws -> StagedReport {
    let compare = try SnapshotSelection.chooseComparison(
      request.compareTo, for: chosen, in: snapshots, store: storePath)
    let reportWeek = week ?? SnapshotSelection.defaultWeek(for: chosen)
    let target: URL
    if let out = request.out {
      target = environment.url(forPath: out)
    } else {
      let parent = environment.url(forPath: request.outParent ?? "reports")
      target = parent.appendingPathComponent(reportWeek.description)
    }
    let staging = try OutputPublisher.stage(target)
    environment.progress("analysing snapshot \(chosen.id) …")
    let (analysed, written) = Self.write(
      programs: programs, formats: request.formats, into: staging.folder,
      options: request.options, progress: environment.progress
    ) {
      let compared = try compare.map { info in
        let older =
          try prefetch?.programs(of: info)
          ?? SnapshotReading.comparedPrograms(of: info, in: store, limit: inMemoryLimit)
        let diff = try changes(from: info, older, to: chosen, programs, committed: committed)
        return (info: info, programs: older, changes: diff)
      }
      return try ReportAssembler.assemble(
        snapshot: chosen, programs: programs,
        statistics: try SnapshotReading.statistics(of: chosen, programs: programs, in: store),
        compareTo: compared, week: reportWeek)
    }
    do {
      let report = try analysed.get()
      do {
        return StagedReport(staging: staging, report: report, compare: compare, result: try written.get())
      } catch {
        throw Self.writeFailure(error, writing: staging.folder, for: target)
      }
    } catch {
      OutputPublisher.discard(staging)
      throw error
    }
  }

  /// `diff(old, new)`: from the store's programs that differ, or in memory while the new
  /// snapshot is still being recorded (its programs are then held).
  private func changes(
    from old: SnapshotInfo, _ oldPrograms: ProgramChunks, to new: SnapshotInfo,
    _ newPrograms: ProgramChunks, committed: Bool
  ) throws -> SnapshotDiff {
    if !committed, let held = newPrograms.held {
      let older = try oldPrograms.held ?? store.programs(inSnapshot: old.id)
      return SnapshotComparison.diff(old: older, new: held)
    }
    return try SnapshotReading.diff(from: old, to: new, in: store)
  }

  /// A writer's error as the report's: it names the folder the user asked for rather than
  /// the hidden one being written (`.NAME.raon-partial-PID`), and says that earlier
  /// reports were kept.
  static func writeFailure(_ error: any Error, writing directory: URL, for target: URL) -> WorkflowError {
    let text = String(describing: error).replacingOccurrences(of: directory.path, with: target.path)
    return WorkflowError.outputNotWritable(path: target.path, reason: text)
  }

  /// Computes a report's data with `analysis` and writes each chosen format into
  /// `directory` (pure apart from the files it writes).
  ///
  /// The workbook is the slowest format and needs a core to itself, so it starts at once,
  /// on a thread of its own, with its programs sheet (most of its work), which needs no
  /// figures; meanwhile this thread runs `analysis`, hands its data over to the workbook
  /// and writes the other formats. Results are combined in the fixed format order, so the
  /// outcome does not depend on which finishes first.
  ///
  /// - Parameter programs: The programs `analysis` puts in the report.
  /// - Returns: The analysis (its error as it was thrown; nothing is written then) and
  ///   the writing (the first writer's error, in format order).
  static func write(
    programs: ProgramChunks, formats: [ReportFormat], into directory: URL, options: ExportOptions,
    progress: @Sendable (String) -> Void = { _ in },
    analysis: () throws -> ReportData
  ) -> (analysed: Result<ReportData, Error>, written: Result<ExportResult, Error>) {
    let chosen = ReportFormat.allCases.filter { formats.contains($0) }
    // Before the workbook starts: it briefly captures standard error while libxlsxwriter
    // saves, so nothing else should print while it runs.
    progress("writing \(chosen.map(\.rawValue).joined(separator: ", ")) …")
    let figures = PendingResult<ReportData>()
    let workbook = chosen.contains(.xlsx) ? PendingResult.start {
      try XLSXReportWriter().write(
        programs: programs, report: { try figures.wait().get() }, into: directory,
        options: options)
    } : nil
    let analysed = Result { try analysis() }
    figures.fulfil(analysed)
    guard case .success(let report) = analysed else {
      _ = workbook?.wait()  // it stops at the missing figures; then its files can go
      return (analysed, .failure(CancellationError()))
    }
    let text = Result {
      var combined = ExportResult()
      for format in chosen where format != .xlsx {
        let result = try format.writer.write(report, into: directory, options: options)
        combined.files += result.files
        combined.warnings += result.warnings
      }
      return combined
    }
    let written = Result {
      // Workbook first: the formats' order.
      var combined = try workbook?.wait().get() ?? ExportResult()
      let others = try text.get()
      combined.files += others.files
      combined.warnings += others.warnings
      combined.files.sort()
      return combined
    }
    return (analysed, written)
  }
}

extension ReportFormat {
  /// The writer of this format.
  public var writer: any ReportWriter {
    switch self {
    case .md: return MarkdownReportWriter()
    case .xlsx: return XLSXReportWriter()
    case .csv: return CSVReportWriter()
    case .json: return JSONReportWriter()
    }
  }

  /// Parses `md,xlsx,csv,json` (any order, any case, `markdown`/`excel` accepted).
  public static func parseList(_ texts: [String]) throws -> [ReportFormat] {
    var formats: [ReportFormat] = []
    for text in texts.flatMap({ $0.split(separator: ",") }) {
      let t = text.trimmingCharacters(in: .whitespaces).lowercased()
      let format: ReportFormat?
      switch t {
      case "markdown": format = .md
      case "excel": format = .xlsx
      case "all": formats = ReportFormat.allCases; continue
      default: format = ReportFormat(rawValue: t)
      }
      guard let format else { throw WorkflowError.unknownFormat(String(text)) }
      if !formats.contains(format) { formats.append(format) }
    }
    return formats.isEmpty ? ReportFormat.allCases : formats
  }
}

/// A report written into its staged folder, waiting to be published.
private struct StagedReport: Sendable {
  let staging: OutputPublisher.Staging
  let report: ReportData
  let compare: SnapshotInfo?
  let result: ExportResult

  func outcome(recorded: [SnapshotInfo], recordedSample: Bool) -> ReportOutcome {
    ReportOutcome(
      directory: staging.target, snapshot: report.snapshot, compareTo: compare, week: report.week,
      recorded: recorded, recordedSample: recordedSample, files: result.files,
      warnings: result.warnings, added: report.changes?.added.count,
      removed: report.changes?.removed.count, changed: report.changes?.changed.count)
  }
}
