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

  /// Takes the store's run lock — one run per store, whatever config, folder or machine
  /// starts it — then the lock file, if one is configured (a file only Raon makes: the
  /// store, a config, a download or a symbolic link named there is refused, not touched).
  func takeLocks(_ settings: WeeklySettings) throws -> Locks {
    var locks = Locks()
    do {
      locks.store = try store.ledger.takeRunLock()
    } catch let held as StoreRunLock.Held {
      throw WeeklyError.busy(lock: "the store's own (\(held.location))", holder: held.holder)
    }
    guard let configured = settings.lock else { return locks }
    let path = environment.url(forPath: configured).path
    for (what, other) in [("the store", storePath), ("the config file", config.path.map { environment.url(forPath: $0).path })] {
      if let other, Self.sameFile(path, other) {
        throw WeeklyError.lockRefused(path: path, found: what)
      }
    }
    try? FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    let holder = "pid \(ProcessInfo.processInfo.processIdentifier) on \(Self.hostName()) since \(environment.now().koreaDisplay)"
    do {
      locks.file = try RunLock.acquire(at: path, holder: holder)
    } catch let held as RunLock.Held {
      throw WeeklyError.busy(lock: path, holder: held.holder)
    } catch let failure as RunLock.Unavailable {
      throw WeeklyError.lockUnavailable(path: failure.path, reason: failure.reason)
    } catch let refused as RunLock.NotALockFile {
      throw WeeklyError.lockRefused(path: refused.path, found: refused.found)
    }
    return locks
  }

  /// Whether two paths name one file (both exist; links followed).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    var one = stat()
    var two = stat()
    return stat(a, &one) == 0 && stat(b, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }
}
