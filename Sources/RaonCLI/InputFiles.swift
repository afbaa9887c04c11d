import Foundation
import RaonStore
import RaonWorkflow

/// Checks on the catalog files named on the command line, before anything is read or
/// recorded: a FIFO, a device or a folder gets a true one-line diagnosis rather than a
/// misleading "permission denied" from deep in the reader.
enum InputFiles {
  static func check(_ paths: [String], _ environment: RaonEnvironment) throws {
    for path in paths {
      guard !path.isEmpty else { throw WorkflowError.emptyPath(option: "the catalog file name") }
      var info = stat()
      guard stat(environment.url(forPath: path).path, &info) == 0 else { continue }  // the job says why
      let kind: String
      switch info.st_mode & S_IFMT {
      case S_IFREG: continue
      case S_IFIFO: kind = "a FIFO (named pipe)"
      case S_IFCHR, S_IFBLK: kind = "a device"
      case S_IFDIR: kind = "a folder"
      case S_IFSOCK: kind = "a socket"
      default: kind = "not a file"
      }
      throw WorkflowError.inputNotAFile(path: path, kind: kind)
    }
  }
}

extension StoreOptions {
  /// After a recording: says so when the store's write-ahead log could not be copied into
  /// the database file (a full disk), rather than reporting plain success.
  func foldLog(_ store: any SnapshotStoring, path: String) {
    if let problem = store.foldLog() {
      Console.warning(
        "the new snapshot is committed, but the store's write-ahead log (\(path)-wal) could not be copied into \(path): \(problem) — free disk space; the next raon command copies it")
    }
  }
}
