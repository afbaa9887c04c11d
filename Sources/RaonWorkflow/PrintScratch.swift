import Foundation
import RaonConcurrency
import Synchronization

/// Chromium's processes and temporary folders (`/tmp/raon-chromium-*`) while a print runs,
/// so that an interrupt ends them and removes them.
///
/// Chromium runs in a process group of its own, so Ctrl-C at a terminal no longer
/// reaches it: the interruption's clean-up (``endAll()``) ends it here. Folders are made
/// and browsers started through the process's ``Interruption``, so none starts after it.
public enum PrintScratch {
  /// Each folder made, with the Chromium that uses it once started.
  private static let folders = Mutex<[String: ChildProcessGroup?]>([:])

  /// Makes a fresh `raon-chromium-…` folder in the temporary directory, unless the run is
  /// interrupted.
  static func makeFolder() throws -> URL {
    try interruptible {
      let fm = FileManager.default
      let folder = fm.temporaryDirectory.appendingPathComponent("raon-chromium-\(UUID().uuidString)")
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
      folders.withLock { $0[folder.path] = .some(nil) }
      return folder
    }
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
