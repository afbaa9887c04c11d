import Foundation
import RaonConcurrency
import RaonCore
import RaonDocument
import RaonErrors
import RaonIngest
import RaonStore

/// The pull step of `raon weekly`: the catalog from the Open API, or the newest file of a
/// folder, tried again with growing waits while the failure may pass (the service down at
/// 07:00, the share not mounted yet), for `retry_for`; then, whether it is new.
struct WeeklyPull {
  let store: any SnapshotStoring
  let environment: RaonEnvironment
  let settings: WeeklySettings
  let apiBase: String?
  let sleep: @Sendable (Duration) async throws -> Void

  /// What was pulled: held in memory (the API's catalog, a small file) or a large file to
  /// stream into the store.
  struct Catalog {
    enum Input {
      case held(PreparedSnapshot)
      case file(path: String)
    }
    var input: Input
    var takenAt: Date
    /// The file's SHA-256, or a digest of the API's records (``CatalogDigest``).
    var digest: String
    /// `the Open API` or the file's name, for messages.
    var origin: String
    /// A download from the folder (else the Open API's catalog).
    var isFile: Bool
  }

  /// What the run records: the catalog, or nothing because the store holds it already.
  enum Decision {
    case record(Catalog)
    case unchanged(SnapshotInfo, why: String)
  }

  /// A file newer than this many seconds may still be being copied in: it is waited for.
  static let settleSeconds: TimeInterval = 10

  /// Pulls the catalog, trying again while the failure may pass.
  func pull() async throws -> Catalog {
    let first = Duration.seconds(settings.retryWait)
    return try await Retrying.run(
      for: .seconds(settings.retryFor), first: first, maximum: .seconds(max(WeeklySettings.maximumWait, settings.retryWait)),
      isRetryable: Self.mayPass,
      onRetry: { error, attempt, wait in
        environment.warn("pull attempt \(attempt) failed (\(Self.oneLine(error))); trying again in \(wait.components.seconds) s")
      },
      sleep: sleep
    ) {
      switch settings.source {
      case .api: return try await fromAPI()
      case .folder(let folder): return try fromFolder(folder)
      }
    }
  }

  /// Whether the store already holds `catalog` (or something newer): a second run in one
  /// week records no second identical snapshot, a file is never recorded twice, and the
  /// Open API serving the latest snapshot's catalog again records nothing.
  func decide(_ catalog: Catalog, week: ISOWeek) throws -> Decision {
    guard let latest = SnapshotSelection.latest(of: try store.snapshots()) else { return .record(catalog) }
    let known = try store.ledger.catalogDigest(ofSnapshot: latest.id)
    if catalog.isFile {
      if catalog.takenAt <= latest.takenAt {
        return .unchanged(latest, why: "\(catalog.origin) is not newer than snapshot \(latest.id)")
      }
      let stored = try known ?? store.details(snapshot: latest.id).inputSHA256
      if stored == catalog.digest {
        return .unchanged(latest, why: "\(catalog.origin) was recorded already as snapshot \(latest.id)")
      }
    } else if known == catalog.digest {
      // The same catalog again: this week's (a second run), or an earlier week's — then the
      // week is stale, and a copy of the snapshot would only hide that.
      let when = ISOWeek(containing: latest.koreaDay) == week ? "of this week" : "taken \(latest.takenAt.koreaDisplay)"
      return .unchanged(latest, why: "the Open API serves the same catalog as snapshot \(latest.id) \(when)")
    }
    return .record(catalog)
  }

  // MARK: - Sources

  private func fromAPI() async throws -> Catalog {
    let prepared = try await SnapshotJob(store: store, environment: environment).fetchFromAPI(base: apiBase)
    return Catalog(
      input: .held(prepared), takenAt: environment.now(), digest: CatalogDigest.of(prepared.entries),
      origin: "the Open API", isFile: false)
  }

  private func fromFolder(_ path: String) throws -> Catalog {
    let folder = environment.url(forPath: path)
    let newest = try Self.newestCatalogFile(in: folder)
    let age = environment.now().timeIntervalSince(newest.modified)
    if age < Self.settleSeconds {
      throw FolderProblem.stillWriting(path: newest.url.path)
    }
    let job = SnapshotJob(store: store, environment: environment)
    let input: Catalog.Input
    if let small = try job.smallFile(newest.url.path) {
      input = .held(try job.readSmallFile(small, path: newest.url.path))
    } else {
      input = .file(path: newest.url.path)
    }
    // A file is its download: the time it was written is the time of its data.
    let takenAt = min(newest.modified, environment.now())
    return Catalog(
      input: input, takenAt: takenAt, digest: try Self.sha256(of: newest.url), origin: newest.url.lastPathComponent,
      isFile: true)
  }

  /// The catalog files a folder may hold.
  static let catalogExtensions: Set<String> = ["csv", "json", "xlsx", "xls"]

  /// The newest catalog file in `folder` (by modification time, then name); hidden files and
  /// others are ignored.
  static func newestCatalogFile(in folder: URL) throws -> (url: URL, modified: Date) {
    let fm = FileManager.default
    let names: [String]
    do {
      names = try fm.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw FolderProblem.unreadable(path: folder.path, reason: (error as NSError).localizedDescription)
    }
    var best: (url: URL, modified: Date)?
    for name in names where !name.hasPrefix(".") && catalogExtensions.contains((name as NSString).pathExtension.lowercased()) {
      let url = folder.appendingPathComponent(name)
      guard let attributes = try? fm.attributesOfItem(atPath: url.path),
        attributes[.type] as? FileAttributeType == .typeRegular, let modified = attributes[.modificationDate] as? Date
      else { continue }
      if let current = best, (current.modified, current.url.lastPathComponent) >= (modified, name) { continue }
      best = (url, modified)
    }
    guard let best else { throw FolderProblem.empty(path: folder.path) }
    return best
  }

  static func sha256(of url: URL) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: url.path) else { throw WorkflowError.inputNotFound(path: url.path) }
    defer { try? handle.close() }
    var hash = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(chunk) }
    return SHA256.hexString(hash.finalize())
  }

  /// A folder that has no catalog yet (or cannot be read yet): it may come.
  enum FolderProblem: RaonError, CustomStringConvertible {
    var exitStatus: ExitStatus { .failure }
    case unreadable(path: String, reason: String)
    case empty(path: String)
    case stillWriting(path: String)

    var description: String {
      switch self {
      case .unreadable(let path, let reason): "cannot read the folder \(path): \(reason)"
      case .empty(let path): "the folder \(path) holds no catalog file (.csv, .json, .xlsx, .xls)"
      case .stillWriting(let path): "\(path) was changed less than \(Int(settleSeconds)) s ago and may still be being copied"
      }
    }
  }

  /// Whether a failed pull is worth trying again: the service or the share may come back; a
  /// bad key, a refused request or a bad file will not.
  static func mayPass(_ error: any Error) -> Bool {
    switch error {
    case let error as OpenAPIError:
      switch error {
      case .missingKey, .invalidURL, .badKey, .requestRejected, .noKey, .keyRefused, .missingTotalCount: return false
      case .noData, .unexpectedResult, .missingTotal, .httpStatus, .notJSON, .malformedJSON, .retriesExhausted,
        .incomplete:
        return true
      }
    case is FolderProblem:
      return true
    default:
      return false
    }
  }

  static func oneLine(_ error: any Error) -> String {
    String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// What identifies a catalog pulled from the Open API: SHA-256 over its records' content
/// hashes (the store's), sorted, so the same catalog served in another order is the same.
enum CatalogDigest {
  static func of(_ entries: [NewSnapshot.Entry]) -> String {
    let hashes = ParallelWork.map(entries.count, minimumCount: 4_000) { RawContent.hash(of: entries[$0].raw) }
    var digest = SHA256()
    digest.update("raon-catalog-v1\n")
    for hash in hashes.sorted(by: { $0.lexicographicallyPrecedes($1) }) { digest.update(hash) }
    return SHA256.hexString(digest.finalize())
  }
}
