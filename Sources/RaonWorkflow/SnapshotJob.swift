import Foundation
import RaonConcurrency
import RaonCore
import RaonIngest
import RaonStore

/// Records catalogs as snapshots: read → normalise → store, one transaction per snapshot.
public struct SnapshotJob: Sendable {
  public let store: SnapshotStore
  public let environment: RaonEnvironment

  public init(store: SnapshotStore, environment: RaonEnvironment) {
    self.store = store
    self.environment = environment
  }

  /// Records each file as its own snapshot, in the order given.
  ///
  /// Every file is read and normalised before anything is stored, so a bad file records
  /// nothing at all — not even the good files before it.
  public func recordFiles(_ paths: [String], takenAt: Date?) throws -> [SnapshotInfo] {
    // One file is streamed into its snapshot chunk by chunk: a large file is never held
    // whole, and its one transaction still records all of it or nothing.
    if paths.count == 1 { return [try recordFile(paths[0], takenAt: takenAt)] }
    var batches: [CatalogBatch] = []
    for path in paths {
      let url = environment.url(forPath: path)
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw WorkflowError.inputNotFound(path: path)
      }
      environment.progress("reading \(url.lastPathComponent) …")
      let batch = try CatalogFileReader.read(url)
      // An empty snapshot would make every program look removed: refuse it.
      guard !batch.records.isEmpty else { throw WorkflowError.emptyCatalog(source: path) }
      batches.append(batch)
    }
    let time = takenAt ?? environment.now()
    var recorded: [SnapshotInfo] = []
    for batch in batches {
      environment.progress("normalising \(batch.records.count) programs from \(batch.source) …")
      let prepared = Self.prepare(batch)
      environment.progress("recording \(batch.source) …")
      recorded.append(try store.record(prepared.stamped(takenAt: time)))
    }
    return recorded
  }

  /// Records are read, normalised and stored this many at a time. Three chunks are in
  /// flight at once (one read, one encoded and waiting, one being inserted): small
  /// chunks keep that to ~100 MB.
  static let chunkSize = 10_000

  /// Records one file as a snapshot, reading, normalising and storing it chunk by chunk
  /// inside the snapshot's transaction; a bad file (or an empty one) records nothing.
  func recordFile(_ path: String, takenAt: Date?) throws -> SnapshotInfo {
    let url = environment.url(forPath: path)
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw WorkflowError.inputNotFound(path: path)
    }
    let time = takenAt ?? environment.now()
    environment.progress("reading and recording \(url.lastPathComponent) …")
    return try store.record(takenAt: time, source: url.lastPathComponent) { sink in
      // Reading, normalising and encoding run on another thread, a chunk ahead of the
      // inserts into the store.
      let read = ReadOutcome()
      let hashAll = sink.hashesUpFront
      try HandOver<SnapshotSink.EncodedChunk>.overlapping(
        make: { push in
          read.value = try CatalogFileReader.forEachChunk(url, chunkSize: Self.chunkSize) { records in
            let entries = ProgramNormalizer.normalizeAll(records)
            guard push(SnapshotSink.encode(entries, hashingAll: hashAll)) else {
              throw CancellationError()
            }
          }
        },
        use: { chunk in
          let before = sink.entryCount
          try sink.append(chunk)
          if sink.entryCount / 100_000 > before / 100_000 {
            environment.progress("recorded \(sink.entryCount) programs …")
          }
          return true
        })
      // An empty snapshot would make every program look removed: refuse it.
      guard let total = read.value, total.count > 0 else {
        throw WorkflowError.emptyCatalog(source: path)
      }
      return total.sourceTotal
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
    let batch = try CatalogFileReader.read(url)
    // An empty snapshot would make every program look removed: refuse it.
    guard !batch.records.isEmpty else { throw WorkflowError.emptyCatalog(source: path) }
    return Self.prepare(batch)
  }

  /// Fetches the whole catalog from the Open API and records it as one snapshot.
  public func recordFromAPI(base: String?, takenAt: Date?) async throws -> SnapshotInfo {
    guard let key = environment.apiKey else { throw WorkflowError.missingAPIKey }
    var configuration = OpenAPIConfiguration(key: key)
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
    let batch = try await client.fetchAll()
    let time = takenAt ?? environment.now()
    return try store.record(Self.prepare(batch).stamped(takenAt: time))
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
  static func prepare(_ batch: CatalogBatch) -> PreparedSnapshot {
    let entries = ProgramNormalizer.normalizeAll(batch.records)
    return PreparedSnapshot(source: batch.source, sourceTotal: batch.sourceTotal, entries: entries)
  }
}

/// A normalised batch waiting for its time stamp.
struct PreparedSnapshot {
  var source: String
  var sourceTotal: Int?
  var entries: [NewSnapshot.Entry]

  func stamped(takenAt: Date) -> NewSnapshot {
    NewSnapshot(takenAt: takenAt, source: source, sourceTotal: sourceTotal, entries: entries)
  }
}

extension ProgramNormalizer {
  /// Normalises records on every core: normalisation is pure, so order is all that matters.
  static func normalizeAll(_ records: [RawRecord]) -> [NewSnapshot.Entry] {
    let count = records.count
    guard count > 20_000 else {
      return records.map { NewSnapshot.Entry(program: normalize($0), raw: $0) }
    }
    let chunks = ProcessInfo.processInfo.activeProcessorCount * 4
    let chunkSize = (count + chunks - 1) / chunks
    var programs = [Program?](repeating: nil, count: count)
    programs.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let out = buffer
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        let lower = chunk * chunkSize
        let upper = min(count, lower + chunkSize)
        guard lower < upper else { return }
        for i in lower..<upper { out[i] = normalize(records[i]) }
      }
    }
    return zip(programs, records).map { program, raw in
      NewSnapshot.Entry(program: program ?? normalize(raw), raw: raw)
    }
  }
}

/// What the reading thread of ``SnapshotJob/recordFile(_:takenAt:)`` found, read once it
/// has finished.
private final class ReadOutcome: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: (source: String, sourceTotal: Int?, count: Int)?
  var value: (source: String, sourceTotal: Int?, count: Int)? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
