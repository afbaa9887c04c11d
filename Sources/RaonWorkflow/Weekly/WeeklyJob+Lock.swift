import Foundation
import RaonConcurrency
import RaonStore

#if canImport(Glibc)
  import Glibc
#endif

extension WeeklyJob {
  /// What a run holds while it lives: the store's run lock, and the lock file when
  /// `[weekly] lock` names one.
  struct Locks {
    var store: StoreRunLock?
    var file: RunLock?
  }

  /// Takes the lock file, when `[weekly] lock` names one — before the store is even opened,
  /// so a lock naming the store, a config, a download or a symbolic link stops the run with
  /// every file as it was (a file only Raon makes is ever used: ``RunLock/acquire(at:holder:)``).
  ///
  /// - Parameters:
  ///   - storeFile: The SQLite store's file (`nil` for PostgreSQL).
  public static func takeLockFile(
    _ config: RaonConfig, storeFile: String?, environment: RaonEnvironment
  ) throws -> RunLock? {
    guard let configured = config.weekly?.lock else { return nil }
    let path = environment.url(forPath: configured).path
    for (what, other) in [("the store", storeFile), ("the config file", config.path.map { environment.url(forPath: $0).path })] {
      if let other, sameFile(path, other) {
        throw WeeklyError.lockRefused(path: path, found: what)
      }
    }
    try? FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    let holder = "pid \(ProcessInfo.processInfo.processIdentifier) on \(hostName()) since \(environment.now().koreaDisplay)"
    do {
      return try RunLock.acquire(at: path, holder: holder)
    } catch let held as RunLock.Held {
      throw WeeklyError.busy(lock: path, holder: held.holder)
    } catch let failure as RunLock.Unavailable {
      throw WeeklyError.lockUnavailable(path: failure.path, reason: failure.reason)
    } catch let refused as RunLock.NotALockFile {
      throw WeeklyError.lockRefused(path: refused.path, found: refused.found)
    }
  }

  /// Takes the store's run lock — one run per store, whatever config, folder or machine
  /// starts it — and the lock file, unless the caller took it already (``lockFile``).
  func takeLocks(_ settings: WeeklySettings) throws -> Locks {
    var locks = Locks()
    if lockFile == nil, settings.lock != nil {
      locks.file = try Self.takeLockFile(config, storeFile: storeFile, environment: environment)
    }
    do {
      locks.store = try store.ledger.takeRunLock()
    } catch let held as StoreRunLock.Held {
      throw WeeklyError.busy(lock: "the store's own (\(held.location))", holder: held.holder)
    }
    return locks
  }

  /// The store's file, for an SQLite store.
  var storeFile: String? {
    storePath.contains("://") ? nil : environment.url(forPath: storePath).path
  }

  /// Whether two paths name one file (both exist; links followed).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    var one = stat()
    var two = stat()
    return stat(a, &one) == 0 && stat(b, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }
}
