import Foundation
import RaonConcurrency
import RaonErrors

#if canImport(Glibc)
  import Glibc
#endif

/// The folders this process has staged and not yet published or discarded.
///
/// Staging and publishing run through the process's ``Interruption``: its clean-up
/// (``removeStaged()``) waits for a commit in progress and removes every staged folder,
/// and every later stage or commit is refused, so nothing is published after an interrupt.
final class StagingRegistry: Sendable {
  static let shared = StagingRegistry(interruption: .process)

  private let interruption: Interruption
  private let folders = Guarded<Set<String>>([])
  private let published = Guarded(false)

  init(interruption: Interruption = Interruption()) {
    self.interruption = interruption
  }

  /// Runs `body` unless the run is interrupted; an interrupt waits for it.
  func whileUninterrupted<T>(_ body: () throws -> T) throws -> T {
    do {
      return try interruption.unlessInterrupted(body)
    } catch is Interruption.Interrupted {
      throw WorkflowError.interrupted
    }
  }

  /// Runs `create` and records `folder`, unless the run is interrupted.
  func register(_ folder: URL, _ create: () throws -> Void) throws {
    try whileUninterrupted {
      try create()
      folders.withLock { _ = $0.insert(folder.path) }
    }
  }

  /// Runs `work` (publishing or removing `folder`) and forgets `folder`. Once the run is
  /// interrupted, `folder` is removed instead, and publishing fails.
  func unregister(_ folder: URL, publishing: Bool = false, _ work: () throws -> Void) throws {
    do {
      try interruption.unlessInterrupted {
        try work()
        folders.withLock { _ = $0.remove(folder.path) }
      }
    } catch is Interruption.Interrupted {
      try? FileManager.default.removeItem(at: folder)
      folders.withLock { _ = $0.remove(folder.path) }
      if publishing { throw WorkflowError.interrupted }
    }
  }

  /// Runs `swap`, which publishes `folder` and returns where the earlier output now is (if
  /// any), and forgets `folder`. The earlier output stays registered until
  /// ``removeReplaced(_:)`` has removed it: an interrupt while a large one (a site's
  /// thousands of pages) is removed removes the rest itself, instead of exiting halfway
  /// and leaving it staged. Once the run is interrupted, `folder` is removed instead and
  /// publishing fails.
  func publish(_ folder: URL, to target: URL, _ swap: () throws -> URL?) throws -> URL? {
    do {
      return try interruption.unlessInterrupted {
        let replaced = try swap()
        // A folder published inside another staged one (a site's week) is not out yet.
        let outside = folders.withLock { staged in
          staged.remove(folder.path)
          if let replaced { staged.insert(replaced.path) }
          return !staged.contains { target.path.hasPrefix($0 + "/") }
        }
        if outside { published.withLock { $0 = true } }
        return replaced
      }
    } catch is Interruption.Interrupted {
      try? FileManager.default.removeItem(at: folder)
      folders.withLock { _ = $0.remove(folder.path) }
      throw WorkflowError.interrupted
    }
  }

  /// Removes the earlier output a publication replaced, then forgets it (an interrupt
  /// meanwhile removes what is left of it).
  func removeReplaced(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
    try? interruption.unlessInterrupted { folders.withLock { _ = $0.remove(url.path) } }
  }

  /// Whether a folder was published (not inside another staged folder).
  var hasPublished: Bool { published.withLock { $0 } }

  /// Interrupts the run, removing every staged folder.
  func abandonAll() {
    interruption.interrupt { removeStaged() }
  }

  /// Removes every staged folder; returns those it could not remove entirely. Part of the
  /// interruption's clean-up: it runs while no folder can be made (``OutputDirectories``)
  /// and no site page written (`SiteFiles`), so none comes back.
  @discardableResult
  func removeStaged() -> [String] {
    let staged = folders.withLock { folders in
      let all = folders
      folders.removeAll()
      return all
    }
    var left: [String] = []
    for path in staged {
      // Renamed first: a writer still running (a report's files are not stopped) can no
      // longer reach it by its path, so it cannot refill it while it is emptied (a site's
      // thousands of pages did, issue 37). A file whose write was under way may still
      // land: removing it is tried again, for up to two seconds.
      let doomed = path + OutputPublisher.removingSuffix
      let target = rename(path, doomed) == 0 ? doomed : path
      let gone = Polling.until(timeout: 2, every: 0.005) {
        try? FileManager.default.removeItem(atPath: target)
        return !FileManager.default.fileExists(atPath: target)
      }
      if !gone { left.append(target) }
    }
    return left
  }
}

/// `renameat2(2)`, looked up at run time: Swift's Glibc module does not declare it.
enum Rename {
  private typealias RenameAt2 = @convention(c) (
    Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
  ) -> Int32

  private static let function: RenameAt2? = {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
    return unsafeBitCast(symbol, to: RenameAt2.self)
  }()

  struct Failure: RaonError, CustomStringConvertible {
    var exitStatus: ExitStatus { .failure }
    var code: Int32
    var description: String { String(cString: strerror(code)) }
  }

  /// Exchanges two paths atomically; `false` with `errno` set when that is impossible.
  static func exchange(_ a: String, _ b: String) -> Bool {
    guard let function else {
      errno = ENOSYS
      return false
    }
    return function(AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) == 0
  }

  /// Renames `a` to `b`, failing when `b` exists.
  static func noReplace(_ a: String, _ b: String) throws {
    if let function {
      if function(AT_FDCWD, a, AT_FDCWD, b, 1 /* RENAME_NOREPLACE */) == 0 { return }
      let code = errno
      guard code == EINVAL || code == ENOSYS || code == ENOTSUP else { throw Failure(code: code) }
    }
    guard !FileManager.default.fileExists(atPath: b) else { throw Failure(code: EEXIST) }
    guard rename(a, b) == 0 else { throw Failure(code: errno) }
  }
}
