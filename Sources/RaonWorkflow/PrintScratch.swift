import Foundation
import RaonConcurrency

/// Chromium's processes and temporary folders (`$TMPDIR/raon-chromium-PID-…`) while a print
/// runs, so that an interrupt ends them and removes them.
///
/// Chromium runs in a process group of its own, so Ctrl-C at a terminal no longer
/// reaches it: the interruption's clean-up (``endAll()``) ends it here. Folders are made
/// and browsers started through the process's ``Interruption``, so none starts after it.
/// A folder's name carries the id of the process that made it: a raon that could not clean
/// up (SIGKILL, a power cut) leaves its folder, and the next one to print removes it
/// (``removeStaleFolders(in:)``).
public enum PrintScratch {
  /// Each folder made, with the Chromium that uses it once started.
  private static let folders = Guarded<[String: ChildProcessGroup?]>([:])
  /// Whether this process has looked for the folders of dead ones yet.
  private static let firstFolder = FirstTime()

  static let prefix = "raon-chromium-"

  /// Makes a fresh `raon-chromium-PID-…` folder in the temporary directory, unless the run
  /// is interrupted; the first time, removes what dead runs left there.
  static func makeFolder() throws -> URL {
    let temporary = FileManager.default.temporaryDirectory
    if firstFolder.claim() { removeStaleFolders(in: temporary) }
    return try interruptible {
      // Short, as Chromium's socket lives inside (see ``chromiumTemporaryFolder(in:)``).
      let suffix = UUID().uuidString.prefix(8).lowercased()
      let folder = temporary.appendingPathComponent("\(prefix)\(getpid())-\(suffix)", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      folders.withLock { $0[folder.path] = .some(nil) }
      return folder
    }
  }

  /// The folder Chromium is given as its `TMPDIR`: `folder` itself, so that what it puts
  /// there (`org.chromium.Chromium.*`, holding its singleton socket) goes with the folder
  /// even when Chromium is killed. `nil` when `folder`'s path is too long for a socket
  /// inside it (Chromium would abort at start): Chromium then uses the user's `TMPDIR`,
  /// and leaves its folder there only when it is killed.
  static func chromiumTemporaryFolder(in folder: URL) -> URL? {
    // `/org.chromium.Chromium.XXXXXX/SingletonSocket` after it, within the 107 bytes of
    // a socket's path.
    folder.path.utf8.count + 46 <= 107 ? folder : nil
  }

  /// Removes the `raon-chromium-PID-…` folders in `temporary` whose process no longer runs,
  /// and those named by a Raon that did not record its process (`raon-chromium-UUID`) once
  /// they are a day old: what runs that could not clean up left behind.
  static func removeStaleFolders(in temporary: URL) {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: temporary.path) else { return }
    for entry in entries where entry.hasPrefix(prefix) {
      let path = temporary.appendingPathComponent(entry).path
      let parts = entry.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
      if parts.count == 2, let pid = Int32(parts[0]), pid > 0 {
        guard pid != getpid(), !isRunning(pid) else { continue }
      } else if parts.count == 5, UUID(uuidString: String(entry.dropFirst(prefix.count))) != nil {
        let modified = (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? Date()
        guard Date().timeIntervalSince(modified) > 86_400 else { continue }
      } else {
        continue
      }
      try? fm.removeItem(atPath: path)
    }
  }

  /// Whether process `pid` exists (one of another user's included).
  private static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// Records the Chromium that uses `folder`; started through the interruption, so an
  /// interrupt either finds it here or stops it from starting.
  static func start(in folder: URL, _ start: () throws -> ChildProcessGroup) throws -> ChildProcessGroup {
    try interruptible {
      let child = try start()
      folders.withLock { $0[folder.path] = child }
      return child
    }
  }

  /// Ends the folder's Chromium, if any, and removes the folder.
  static func release(_ folder: URL) {
    let child = folders.withLock { $0.removeValue(forKey: folder.path) ?? nil }
    child?.end()
    remove(folder.path)
  }

  /// Ends every Chromium and removes every folder. Part of the signal handler's clean-up,
  /// run inside ``Interruption/interrupt(then:)`` of ``Interruption/process`` (so later
  /// prints fail), just before the process exits.
  public static func endAll() {
    let all = folders.withLock { folders in
      let all = folders
      folders.removeAll()
      return all
    }
    for (path, child) in all {
      child?.end(grace: 1)
      remove(path)
    }
  }

  /// `body` through the process's interruption, refused as ``WorkflowError/interrupted``.
  private static func interruptible<T>(_ body: () throws -> T) throws -> T {
    do {
      return try Interruption.process.unlessInterrupted(body)
    } catch is Interruption.Interrupted {
      throw WorkflowError.interrupted
    }
  }

  /// Removes `path`, trying again for up to half a second: a Chromium process that was
  /// just ended may still have been writing into its profile.
  private static func remove(_ path: String) {
    Polling.until(timeout: 0.5, every: 0.01) {
      try? FileManager.default.removeItem(atPath: path)
      return !FileManager.default.fileExists(atPath: path)
    }
  }
}
