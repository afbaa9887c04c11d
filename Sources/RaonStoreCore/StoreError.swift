import Foundation
import RaonErrors

/// Why the store could not do what was asked. Each message is one line saying what
/// happened, where, and what to do.
public enum StoreError: RaonError, CustomStringConvertible, Equatable {
  /// How long a write waits for another writer (process or machine) to finish before it
  /// fails as ``busy(path:seconds:)``.
  public static let busyTimeout: TimeInterval = 10

  /// The file could not be created or opened as SQLite.
  case cannotOpen(path: String, reason: String)
  /// The file is an SQLite database, but not one Raon made.
  case notAStore(path: String)
  /// A newer Raon has upgraded the store; this one cannot know its tables.
  case newerSchema(path: String, found: Int, supported: Int)
  /// Upgrading the store's tables failed; the store is left as it was.
  case migrationFailed(path: String, reason: String)
  /// Another process held the store's write lock for longer than the busy timeout.
  case busy(path: String, seconds: Int)
  /// No snapshot has this id.
  case noSuchSnapshot(id: Int64, path: String)
  /// Recording failed; nothing of the snapshot was kept.
  case recordFailed(path: String, reason: String)
  /// Reading failed.
  case readFailed(path: String, reason: String)
  /// A stored value does not read back (the file was edited or damaged).
  case corrupt(path: String, detail: String)

  public var description: String {
    let text: String
    switch self {
    case .cannotOpen(let path, let reason):
      text = "cannot open the store at \(path): \(reason) — check the path or set --db/RAON_DB"
    case .notAStore(let path):
      text =
        "the file at \(path) is an SQLite database but not a Raon store — choose another --db path"
    case .newerSchema(let path, let found, let supported):
      text =
        "the store at \(path) was made by a newer Raon (schema v\(found); this Raon knows up to v\(supported)) — upgrade Raon, or use another --db/RAON_DB"
    case .migrationFailed(let path, let reason):
      text =
        "cannot upgrade the store at \(path): \(reason) — the store is unchanged; check that the file is writable"
    case .busy(let path, let seconds):
      text =
        "the store at \(path) stayed locked by another process (raon or another program using it) for \(seconds) s — try again when it has finished, or find what holds it with `fuser`"
    case .noSuchSnapshot(let id, let path):
      text = "there is no snapshot \(id) in the store at \(path) — `raon snapshots` lists them"
    case .recordFailed(let path, let reason):
      text =
        "could not record the snapshot in the store at \(path): \(reason) — nothing was recorded"
    case .readFailed(let path, let reason):
      text = "cannot read the store at \(path): \(reason)"
    case .corrupt(let path, let detail):
      text =
        "the store at \(path) holds a value that does not read back (\(detail)) — it may be damaged; `PRAGMA integrity_check` tells more"
    }
    // One line, whatever SQLite or the file system put in a reason.
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

extension StoreError {
  public var exitStatus: ExitStatus {
    switch self {
    case .cannotOpen, .notAStore, .newerSchema, .migrationFailed, .busy, .noSuchSnapshot, .recordFailed, .readFailed, .corrupt: .failure
    }
  }
}
