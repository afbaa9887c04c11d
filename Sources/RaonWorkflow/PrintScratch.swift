import Foundation

/// Chromium's processes and temporary folders (`/tmp/raon-chromium-*`) while a print runs,
/// so that an interrupt ends them and removes them (SIGTERM during `--format pdf` left
/// 2.3 MB behind every time, issue 27).
///
/// Chromium runs in a process group of its own, so Ctrl-C at a terminal no longer
/// reaches it: the signal handler ends it here.
public enum PrintScratch {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var folders: [String: ChildProcessGroup?] = [:]
  nonisolated(unsafe) private static var abandoned = false

  /// Makes a fresh `raon-chromium-…` folder in the temporary directory, unless the run is
  /// being abandoned.
  static func makeFolder() throws -> URL {
    lock.lock()
    defer { lock.unlock() }
    guard !abandoned else { throw WorkflowError.interrupted }
    let fm = FileManager.default
    let folder = fm.temporaryDirectory.appendingPathComponent("raon-chromium-\(UUID().uuidString)")
    try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    folders[folder.path] = .some(nil)
    return folder
  }

  /// Records the Chromium that uses `folder`; started inside the lock, so an interrupt
  /// either finds it here or stops it from starting.
  static func start(in folder: URL, _ start: () throws -> ChildProcessGroup) throws -> ChildProcessGroup {
    lock.lock()
    defer { lock.unlock() }
    guard !abandoned else { throw WorkflowError.interrupted }
    let child = try start()
    folders[folder.path] = child
    return child
  }

  /// Ends the folder's Chromium, if any, and removes the folder.
  static func release(_ folder: URL) {
    lock.lock()
    let child = folders.removeValue(forKey: folder.path) ?? nil
    lock.unlock()
    child?.end()
    remove(folder.path)
  }

  /// Removes `path`, trying again for up to half a second: a Chromium process that was
  /// just ended may still have been writing into its profile.
  private static func remove(_ path: String) {
    for _ in 0..<50 {
      try? FileManager.default.removeItem(atPath: path)
      guard FileManager.default.fileExists(atPath: path) else { return }
      usleep(10_000)
    }
  }

  /// Ends every Chromium and removes every folder; later prints fail. For the signal
  /// handler, just before the process exits.
  public static func abandonAll() {
    lock.lock()
    abandoned = true
    let all = folders
    folders.removeAll()
    lock.unlock()
    for (path, child) in all {
      child?.end(grace: 1)
      remove(path)
    }
  }
}
