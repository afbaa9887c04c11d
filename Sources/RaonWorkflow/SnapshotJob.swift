import Foundation
import RaonConcurrency
import RaonCore
import RaonIngest
import RaonStore

/// Records catalogs as snapshots: read → normalise → store, one transaction per snapshot.
public struct SnapshotJob: Sendable {
  public let store: any SnapshotStoring
  public let environment: RaonEnvironment
  /// The catalog recorded (a store holds one).
  public let profile: CatalogProfile

  public init(store: any SnapshotStoring, environment: RaonEnvironment, profile: CatalogProfile = .seoul) {
    self.store = store
    self.environment = environment
    self.profile = profile
  }

  /// Refuses, before anything is read, to record into a store of another catalog (the
  /// recording checks again, in its transaction).
  private func checkCatalog() throws {
    if let held = try store.catalog(), held != profile.name {
      throw StoreError.otherCatalog(path: store.location, stored: held.rawValue, asked: profile.name.rawValue)
    }
  }

  /// Records each file as its own snapshot, in the order given, all at one time.
  ///
  /// Kept for `raon report --input`, which records one file: several files at one instant
  /// are refused (``WorkflowError/sharedTakenAt(count:)``).
  public func recordFiles(_ paths: [String], takenAt: Date?) throws -> [SnapshotInfo] {
    if paths.count > 1 { throw WorkflowError.sharedTakenAt(count: paths.count) }
    return try record(paths.map { ($0, takenAt) }).map(\.info)
  }

  /// A snapshot this job recorded.
  public struct Recorded: Sendable, Equatable {
    public var info: SnapshotInfo
    /// The snapshot before it, when its content is exactly the same (it is recorded all
    /// the same: presence over time is the point).
    public var unchangedSince: Int64?

    public init(info: SnapshotInfo, unchangedSince: Int64?) {
      self.info = info
      self.unchangedSince = unchangedSince
    }
  }

  /// Records each file as its own snapshot, in the order given, each at its own time
  /// (`nil`: now), all in one transaction: every file or none — a bad file, a refusal, a
  /// full disk or a kill anywhere records nothing, not even the files before it.
  ///
  /// Each file is streamed into its snapshot chunk by chunk, so a large file is never held
  /// whole.
  ///
  /// - Throws: ``WorkflowError/duplicateTakenAt(first:second:time:)`` when two files get
  ///   one instant; a reader's, the store's or ``ShrinkRefused``, wrapped in
  ///   ``WorkflowError/noneRecorded(count:reason:)`` when there are several files.
  public func record(_ files: [(path: String, takenAt: Date?)]) throws -> [Recorded] {
    let now = environment.now()
    let stamped = files.map { (path: $0.path, time: $0.takenAt ?? now) }
    for (i, a) in stamped.enumerated() {
      for b in stamped[(i + 1)...] where SnapshotStore.storedTime(a.time) == SnapshotStore.storedTime(b.time) {
        throw WorkflowError.duplicateTakenAt(first: a.path, second: b.path, time: a.time.koreaDisplay)
      }
    }
    try checkCatalog()
    var urls: [URL] = []
    for file in stamped {
      let url = environment.url(forPath: file.path)
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw WorkflowError.inputNotFound(path: file.path)
      }
      urls.append(url)
    }
    let infos: [SnapshotInfo]
    do {
      infos = try store.recordingTogether { recorder in
        try zip(stamped, urls).map { file, url in
          try recordFile(url, path: file.path, takenAt: file.time, with: recorder)
        }
      }
    } catch {
      guard files.count > 1 else { throw error }
      throw WorkflowError.noneRecorded(count: files.count, reason: String(describing: error))
    }
    return try infos.map { Recorded(info: $0, unchangedSince: try store.unchangedSince(snapshot: $0.id)) }
  }

  /// Records are read, normalised and stored this many at a time. Three chunks are in
  /// flight at once (one read, one encoded and waiting, one being inserted): small
  /// chunks keep that to ~100 MB.
  static let chunkSize = 10_000

  /// Records one file as a snapshot, reading, normalising and storing it chunk by chunk
  /// inside the recorder's transaction; a bad file (or an empty one) records nothing.
  private func recordFile(
    _ url: URL, path: String, takenAt time: Date, with recorder: any SnapshotRecording
  ) throws -> SnapshotInfo {
    environment.progress("reading and recording \(url.lastPathComponent) …")
    if profile.normalisation == .sessions {
      return try recordWhole(url, path: path, takenAt: time, with: recorder)
    }
    return try recorder.record(takenAt: time, source: url.lastPathComponent, catalog: profile.name) { sink in
      // Reading and normalising run on another thread, a chunk ahead of the store (which
      // encodes and inserts; how it spreads that over the cores is its own business).
      let read = PendingResult<CatalogFileReader.Summary>()
      try HandOver<[NewSnapshot.Entry]>.overlapping(
        make: { push in
          let outcome = Result {
            try CatalogFileReader.forEachChunk(url, chunkSize: Self.chunkSize, profile: profile) { records in
              guard push(ProgramNormalizer.normalizeAll(records, profile: profile)) else {
                throw CancellationError()
              }
            }
          }
          read.fulfil(outcome)
          _ = try outcome.get()
        },
        use: { chunk in
          let before = sink.entryCount
          try sink.append(chunk)
          if sink.entryCount / 100_000 > before / 100_000 {
            environment.progress("recorded \(sink.entryCount) programs …")
          }
          return true
        })
      // `make` has returned, so the summary is there: this does not wait.
      let summary = try read.wait().get()
      // An empty snapshot would make every program look removed: refuse it.
      guard summary.count > 0 else {
        throw WorkflowError.emptyCatalog(source: path)
      }
      for warning in summary.warnings { environment.warn(warning) }
      sink.inputSHA256 = summary.inputSHA256
      return summary.sourceTotal
    }
  }

  /// Records one file of a catalog whose rows are grouped into events (the national
  /// data): the file is read whole (its sessions may lie anywhere in it), normalised, then
  /// stored chunk by chunk inside the recorder's transaction.
  private func recordWhole(
    _ url: URL, path: String, takenAt time: Date, with recorder: any SnapshotRecording
  ) throws -> SnapshotInfo {
    try recorder.record(takenAt: time, source: url.lastPathComponent, catalog: profile.name) { sink in
      let batch = try CatalogFileReader.read(url, profile: profile)
      guard !batch.records.isEmpty else { throw WorkflowError.emptyCatalog(source: path) }
      for warning in batch.warnings { environment.warn(warning) }
      let entries = profile.entries(batch.records)
      for start in stride(from: 0, to: entries.count, by: Self.chunkSize) {
        try sink.append(Array(entries[start..<min(start + Self.chunkSize, entries.count)]))
      }
      sink.inputSHA256 = batch.inputSHA256
      return batch.sourceTotal
    }
  }

  /// Files up to this size are read whole by ``readSmallFile(_:path:)`` (the real catalog is
  /// 3 MB; 32 MB is about 50,000 programs).
  static let smallFileBytes = 32 << 20

  /// The file at `path` when it is at most ``smallFileBytes`` long, to be read whole with
  /// ``readSmallFile(_:path:)``; `nil` for a larger one (record it with
  /// ``recordFiles(_:takenAt:)``, which streams it).
  func smallFile(_ path: String) throws -> URL? {
    let url = environment.url(forPath: path)
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw WorkflowError.inputNotFound(path: path)
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    guard let size, size <= Self.smallFileBytes else { return nil }
    return url
  }

  /// Reads and normalises a small file (``smallFile(_:)``); `path` is how the user named it.
  func readSmallFile(_ url: URL, path: String) throws -> PreparedSnapshot {
    environment.progress("reading \(url.lastPathComponent) …")
    let batch = try CatalogFileReader.read(url, profile: profile)
    // An empty snapshot would make every program look removed: refuse it.
    guard !batch.records.isEmpty else { throw WorkflowError.emptyCatalog(source: path) }
    for warning in batch.warnings { environment.warn(warning) }
    return Self.prepare(batch, profile: profile)
  }

  /// Fetches the whole catalog from the Open API and records it as one snapshot.
  public func recordFromAPI(base: String?, takenAt: Date?) async throws -> SnapshotInfo {
    try checkCatalog()
    let prepared = try await fetchFromAPI(base: base)
    return try store.record(prepared.stamped(takenAt: takenAt ?? environment.now()))
  }

  /// Fetches the whole catalog from the Open API and normalises it (nothing recorded).
  func fetchFromAPI(base: String?) async throws -> PreparedSnapshot {
    let api = profile.api
    guard let key = environment.apiKey(variable: api.keyVariable) else {
      throw CatalogError.missingKey(variable: api.keyVariable, portal: api.keyPortal)
    }
    var configuration = OpenAPIConfiguration(key: key, api: api)
    if let base {
      guard let url = URL(string: base), url.scheme == "http" || url.scheme == "https" else {
        // The base is quoted back, so the key must not be in it (it may be, by mistake).
        throw WorkflowError.invalidAPIBase(KeyRedactor(key: key).redact(base))
      }
      configuration.baseURL = url
    }
    let client = OpenAPIClient(
      configuration: configuration,
      progress: { [environment] event in environment.progress(event.description) })
    return Self.prepare(try await client.fetchAll(), profile: profile)
  }

  /// Records the bundled sample at its real date (2024-09-09), for a first offline run.
  public func recordSample() throws -> SnapshotInfo {
    guard let url = SampleCatalog.url, FileManager.default.fileExists(atPath: url.path) else {
      throw WorkflowError.sampleMissing
    }
    let batch = try CatalogFileReader.read(url)
    return try store.record(Self.prepare(batch).stamped(takenAt: SampleCatalog.takenAt))
  }

  /// Normalises a batch into the store's input (pure).
  static func prepare(_ batch: CatalogBatch, profile: CatalogProfile = .seoul) -> PreparedSnapshot {
    PreparedSnapshot(
      source: batch.source, sourceTotal: batch.sourceTotal, entries: profile.entries(batch.records),
      inputSHA256: batch.inputSHA256, catalog: profile.name)
  }
}

/// A normalised batch waiting for its time stamp.
struct PreparedSnapshot {
  var source: String
  var sourceTotal: Int?
  var entries: [NewSnapshot.Entry]
  var inputSHA256: String?
  var catalog: CatalogProfile.Name = .seoul

  func stamped(takenAt: Date) -> NewSnapshot {
    NewSnapshot(
      takenAt: takenAt, source: source, sourceTotal: sourceTotal, entries: entries,
      inputSHA256: inputSHA256, catalog: catalog)
  }
}

extension ProgramNormalizer {
  /// Below this many records normalising on one core is as fast: the threads cost what they
  /// save. At 20,000 it left the sample (4,998 rows) and a 19,984-row catalog on one core
  /// while the other waited for the workbook to start; at 4,000 their weekly jobs took
  /// 2.4 % and 1.6 % less time (farm-bench, 15 and 12 pairs, 2026-11-25).
  static let parallelFrom = 4_000

  /// Normalises records on every core: normalisation is pure, so order is all that matters.
  static func normalizeAll(_ records: [RawRecord], profile: CatalogProfile = .seoul) -> [NewSnapshot.Entry] {
    // Entries made where the programs are: pairing them afterwards copied every program
    // (a retain and a release of each of its strings).
    ParallelWork.map(records.count, minimumCount: parallelFrom) {
      NewSnapshot.Entry(program: normalize(records[$0], profile: profile), raw: records[$0])
    }
  }
}
