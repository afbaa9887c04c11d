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

  public init(store: SnapshotStore, storePath: String, environment: RaonEnvironment) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
  }

  public func run(_ request: ReportRequest) async throws -> ReportOutcome {
    let week = try SnapshotSelection.parseWeek(request.week)
    let ingest = SnapshotJob(store: store, environment: environment)
    var recorded: [SnapshotInfo] = []
    var recordedSample = false
    // The programs of a single small input, as normalised: the report of that snapshot
    // uses them rather than reading them back.
    var justRecorded: (id: Int64, programs: [Program])?
    if request.inputs.count == 1 {
      let (info, programs) = try ingest.recordFile(
        request.inputs[0], takenAt: request.takenAt, keepingUpTo: inMemoryLimit)
      recorded.append(info)
      if let programs { justRecorded = (info.id, programs) }
    } else if !request.inputs.isEmpty {
      recorded += try ingest.recordFiles(request.inputs, takenAt: request.takenAt)
    }
    if request.useAPI {
      recorded.append(try await ingest.recordFromAPI(base: request.apiBase, takenAt: request.takenAt))
    }
    var snapshots = try store.snapshots()
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
    let compare = try SnapshotSelection.chooseComparison(
      request.compareTo, for: chosen, in: snapshots, store: storePath)
    let reportWeek = week ?? SnapshotSelection.defaultWeek(for: chosen)

    environment.progress("analysing snapshot \(chosen.id) …")
    // The compared snapshot is read while the chosen one is.
    async let comparedRead = compare.map { [store, inMemoryLimit, chunkSize] info in
      (info: info,
       programs: try SnapshotReading.programs(
         of: info, in: store, limit: inMemoryLimit, chunkSize: chunkSize),
       changes: try SnapshotReading.diff(from: info, to: chosen, in: store))
    }
    let programs: ProgramChunks
    if let justRecorded, justRecorded.id == chosen.id,
      let sorted = SnapshotReading.inStoreOrder(justRecorded.programs)
    {
      programs = ProgramChunks(sorted)
    } else {
      programs = try SnapshotReading.programs(
        of: chosen, in: store, limit: inMemoryLimit, chunkSize: chunkSize)
    }
    let report = try ReportAssembler.assemble(
      snapshot: chosen, programs: programs, compareTo: try await comparedRead, week: reportWeek)

    let target: URL
    if let out = request.out {
      target = environment.url(forPath: out)
    } else {
      let parent = environment.url(forPath: request.outParent ?? "reports")
      target = parent.appendingPathComponent(reportWeek.description)
    }
    let result = try OutputPublisher.publish(to: target) { directory in
      do {
        return try Self.write(
          report, formats: request.formats, into: directory, options: request.options,
          progress: environment.progress)
      } catch {
        throw Self.writeFailure(error, writing: directory, for: target)
      }
    }
    return ReportOutcome(
      directory: target, snapshot: chosen, compareTo: compare, week: reportWeek,
      recorded: recorded, recordedSample: recordedSample, files: result.files,
      warnings: result.warnings, added: report.changes?.added.count,
      removed: report.changes?.removed.count, changed: report.changes?.changed.count)
  }

  /// A writer's error as the report's: it names the folder the user asked for rather than
  /// the hidden one being written (`.NAME.raon-partial-PID`), and says that earlier
  /// reports were kept.
  static func writeFailure(_ error: any Error, writing directory: URL, for target: URL) -> WorkflowError {
    let text = String(describing: error).replacingOccurrences(of: directory.path, with: target.path)
    return WorkflowError.outputNotWritable(path: target.path, reason: text)
  }

  /// Runs each chosen writer into `directory` (pure apart from the files it writes).
  ///
  /// The workbook is the slowest format and needs one core to itself, so it is written
  /// concurrently with the others; results are combined in the fixed format order, so the
  /// outcome does not depend on which finishes first.
  static func write(
    _ report: ReportData, formats: [ReportFormat], into directory: URL, options: ExportOptions,
    progress: @Sendable (String) -> Void = { _ in }
  ) throws -> ExportResult {
    let chosen = ReportFormat.allCases.filter { formats.contains($0) }
    let lanes = [chosen.filter { $0 == .xlsx }, chosen.filter { $0 != .xlsx }].filter { !$0.isEmpty }
    let results = LaneResults(count: lanes.count)
    // One line before the lanes start: the workbook briefly captures standard error while
    // libxlsxwriter saves, so nothing else should print while the lanes run.
    progress("writing \(chosen.map(\.rawValue).joined(separator: ", ")) …")
    DispatchQueue.concurrentPerform(iterations: lanes.count) { lane in
      results.set(lane) {
        var combined = ExportResult()
        for format in lanes[lane] {
          let result = try format.writer.write(report, into: directory, options: options)
          combined.files += result.files
          combined.warnings += result.warnings
        }
        return combined
      }
    }
    var combined = ExportResult()
    for result in try results.all() {
      combined.files += result.files
      combined.warnings += result.warnings
    }
    combined.files.sort()
    return combined
  }
}

/// The outcome of each concurrent writing lane; the first error (in lane order) wins.
private final class LaneResults: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<ExportResult, Error>?]

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func set(_ lane: Int, _ body: () throws -> ExportResult) {
    let result = Result { try body() }
    lock.withLock { results[lane] = result }
  }

  func all() throws -> [ExportResult] {
    try lock.withLock { results }.map { try ($0 ?? .failure(CancellationError())).get() }
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
