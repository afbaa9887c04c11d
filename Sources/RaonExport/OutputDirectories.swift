import Foundation
import RaonConcurrency

/// Makes the folders a report is written into, until the run is interrupted.
///
/// On Ctrl-C the staged report folder is removed while writers may still be running on
/// other threads; a writer that then made `charts/` with its parents would recreate the
/// staged folder and leave `.out.raon-partial-PID` behind. Folders are made through the
/// process's ``Interruption``, so once its clean-up has run no folder is made again; files
/// written into a removed folder just fail.
public enum OutputDirectories {
  /// Creates `directory` (with its missing parents when `intermediates`), unless the run
  /// is interrupted.
  public static func create(_ directory: URL, intermediates: Bool = true) throws {
    do {
      try Interruption.process.unlessInterrupted {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: intermediates)
      }
    } catch let interrupted as Interruption.Interrupted {
      throw TextExportError.cannotCreateDirectory(path: directory.path, reason: interrupted.description)
    }
  }
}
