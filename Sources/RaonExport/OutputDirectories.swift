import Foundation

/// Makes the folders a report is written into, until an interrupt stops it for good.
///
/// On Ctrl-C the staged report folder is removed while writers may still be running on
/// other threads; a writer that then made `charts/` with its parents recreated the staged
/// folder, and the run ended leaving `.out.raon-partial-PID` behind (the hostile set,
/// issue 18). Creating a folder and stopping take the same lock, so once ``stop(then:)``
/// has run no folder is made again; files written into a removed folder just fail.
public enum OutputDirectories {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var stopped = false

  /// Creates `directory` (with its missing parents when `intermediates`), unless stopped.
  public static func create(_ directory: URL, intermediates: Bool = true) throws {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else {
      throw TextExportError.cannotCreateDirectory(path: directory.path, reason: "the run was interrupted")
    }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: intermediates)
  }

  /// Refuses every later ``create(_:intermediates:)``, then runs `cleanUp` (removing the
  /// staged folders) while no folder can be made.
  public static func stop(then cleanUp: () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    stopped = true
    cleanUp()
  }
}
