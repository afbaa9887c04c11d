import Foundation
import GRDB
import RaonCore

/// The SQLite snapshot store: every recorded catalog, its programs and their raw records.
///
/// A program version (a raw record and the program made from it) is stored once, however
/// many snapshots hold it; snapshots refer to versions through validity intervals, so a
/// year of daily snapshots costs about what the changes cost. The tables are a public
/// interface documented in `SCHEMA.md`.
///
/// ```swift
/// let store = try SnapshotStore(path: "/var/lib/raon/raon.sqlite")
/// let info = try store.record(snapshot)
/// let programs = try store.programs(inSnapshot: info.id)
/// ```
///
/// Several processes may use one store: it runs in WAL mode (readers never wait), writes
/// take the lock up front (`BEGIN IMMEDIATE`) and a writer waits up to
/// ``busyTimeout`` seconds for another one to finish.
public struct SnapshotStore: Sendable {
  /// How long a write waits for another process's write to finish before giving up.
  public static let busyTimeout: TimeInterval = 10

  let writer: any DatabaseWriter
  /// The store's path, or `:memory:`; for messages.
  let path: String
  /// The database file, `nil` in memory.
  let fileURL: URL?
  /// When set, a recording that loses too many current programs is refused (see
  /// ``ShrinkGuard``); `raon snapshot` and `raon report` set it unless `--allow-shrink`.
  public var shrinkGuard: ShrinkGuard?

  /// Opens the store at a path, creating it (and its folder) when missing and upgrading
  /// its tables when an older Raon made it.
  ///
  /// - Parameter path: The database file.
  /// - Throws: ``Error/cannotOpen(path:reason:)``, ``Error/notAStore(path:)``,
  ///   ``Error/newerSchema(path:found:supported:)`` or
  ///   ``Error/migrationFailed(path:reason:)``.
  public init(path: String) throws {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw Error.cannotOpen(
        path: path, reason: "cannot create its folder (\(error.localizedDescription))")
    }
    let pool: DatabasePool
    do {
      pool = try DatabasePool(path: path, configuration: Self.configuration())
    } catch let error as DatabaseError {
      throw Error.cannotOpen(path: path, reason: Self.reason(error))
    } catch {
      throw Error.cannotOpen(path: path, reason: String(describing: error))
    }
    try self.init(writer: pool, path: path, fileURL: url)
  }

  /// A new empty store in memory, for tests and one-off reports.
  public static func inMemory() throws -> SnapshotStore {
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(configuration: configuration())
    } catch {
      throw Error.cannotOpen(path: ":memory:", reason: String(describing: error))
    }
    return try SnapshotStore(writer: queue, path: ":memory:", fileURL: nil)
  }

  /// Wraps an open database and brings its schema to `version` (tests create old stores
  /// with a lower one).
  init(
    writer: any DatabaseWriter, path: String, fileURL: URL?,
    schemaVersion version: Int = SnapshotStore.schemaVersion
  ) throws {
    self.writer = writer
    self.path = path
    self.fileURL = fileURL
    try translatingErrors(Error.cannotOpen) { try checkIsRaonStore() }
    let migrator = Self.migrator(upTo: version)
    try translatingErrors(Error.migrationFailed) {
      // Processes opening a new store at once can all try to migrate it, one migration
      // (one transaction) at a time: a loser's attempt fails ("table … already exists")
      // while the winner may still be applying the next migration. Each retry applies
      // only what is still missing; done once every migration is in.
      var attempt = 0
      while true {
        do {
          try migrator.migrate(writer)
          return
        } catch {
          if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
          attempt += 1
          guard attempt < 10 else { throw error }
          Thread.sleep(forTimeInterval: 0.02 * Double(attempt))
        }
      }
    }
  }

  static func configuration() -> Configuration {
    var config = Configuration()
    config.label = "RaonStore"
    config.busyMode = .timeout(busyTimeout)
    config.foreignKeysEnabled = true
    config.prepareDatabase { db in
      // Without a limit the write-ahead log keeps the size of the biggest transaction
      // (a million-program snapshot) on disk forever.
      try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
      // Rows of ~1 KB waste a fifth of 4 KB pages; 16 KB pages waste a thirtieth. Takes
      // effect only when the file is created (before WAL mode is set).
      try db.execute(sql: "PRAGMA page_size = 16384")
    }
    return config
  }

  /// Refuses files Raon did not make and stores a newer Raon has upgraded.
  private func checkIsRaonStore() throws {
    try writer.read { db in
      let objects = try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
      // A new, empty file — or one another raon process is creating right now: GRDB's
      // migrator adds its bookkeeping table before the first migration commits.
      guard objects.contains(where: { $0 != "grdb_migrations" }) else { return }
      let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
      guard applicationID == Self.applicationID else { throw Error.notAStore(path: path) }
      let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      let superseded = try Self.migrator().hasBeenSuperseded(db)
      if userVersion > Self.schemaVersion || superseded {
        throw Error.newerSchema(
          path: path, found: max(userVersion, Self.schemaVersion + 1),
          supported: Self.schemaVersion)
      }
    }
  }

  // MARK: - Snapshots

  /// Every snapshot, in ascending id (insertion) order.
  public func snapshots() throws -> [SnapshotInfo] {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in
        try SnapshotRow.order(Column("id")).fetchAll(db).map { try $0.info() }
      }
    }
  }

  /// The snapshot with this id, or `nil`.
  public func snapshot(id: Int64) throws -> SnapshotInfo? {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in try SnapshotRow.fetchOne(db, key: id)?.info() }
    }
  }

  /// The most recently recorded snapshot (highest id), or `nil` when the store is empty.
  public func latestSnapshot() throws -> SnapshotInfo? {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in
        try SnapshotRow.order(Column("id").desc).limit(1).fetchOne(db)?.info()
      }
    }
  }

  // MARK: - Maintenance

  /// The lines of SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound store.
  public func integrityCheck() throws -> [String] {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }
  }

  /// Counts of rows and bytes.
  public func statistics() throws -> StoreStatistics {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in
        func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
        let usedPages = try count("PRAGMA page_count") - count("PRAGMA freelist_count")
        return StoreStatistics(
          snapshotCount: try count("SELECT count(*) FROM snapshot"),
          versionCount: try count("SELECT count(*) FROM program_version"),
          presenceCount: try count("SELECT count(*) FROM presence"),
          fieldSetCount: try count("SELECT count(*) FROM field_set"),
          databaseBytes: try usedPages * count("PRAGMA page_size"),
          fileBytes: fileURL.map(Self.bytesOnDisk))
      }
    }
  }

  /// Copies the write-ahead log into the database file and empties it, so the file alone
  /// holds everything (before copying it, or to measure its size).
  public func checkpoint() throws {
    guard writer is DatabasePool else { return }
    try translatingErrors(Error.readFailed) {
      try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
  }

  private static func bytesOnDisk(_ url: URL) -> Int {
    [url.path, url.path + "-wal"].reduce(0) { total, path in
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
  }
}
