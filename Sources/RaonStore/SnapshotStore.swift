import Foundation
import GRDB
import RaonCore
@_exported import RaonStoreCore

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
  public static let busyTimeout: TimeInterval = StoreError.busyTimeout

  let writer: any DatabaseWriter
  /// The store's path, or `:memory:`; for messages.
  let path: String
  /// The database file, `nil` in memory.
  let fileURL: URL?
  /// When set, a recording that loses too many current programs is refused (see
  /// ``ShrinkGuard``); `raon snapshot` and `raon report` set it unless `--allow-shrink`.
  public var shrinkGuard: ShrinkGuard?
  /// A read-only store's clean-up of the log files its opening made (see ``LogTidier``).
  let tidier: LogTidier?

  /// Opens the store at a path, creating it (and its folder) when missing and upgrading
  /// its tables when an older Raon made it.
  ///
  /// A file that is not a Raon store is refused before anything in it is changed (not
  /// even its journal mode), so another application's database stays byte for byte as it
  /// was.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - readOnly: Open for reading only: nothing is created, upgraded or written, so a
  ///     store on a read-only file or disk can still be listed and compared.
  /// - Throws: ``Error/cannotOpen(path:reason:)``, ``Error/notAStore(path:)``,
  ///   ``Error/newerSchema(path:found:supported:)``, ``Error/busy(path:seconds:)`` or
  ///   ``Error/migrationFailed(path:reason:)``.
  public init(path: String, readOnly: Bool = false) throws {
    let url = URL(fileURLWithPath: path)
    // Opening a FIFO blocks until a writer comes (forever); a device or a folder only
    // gets a misleading SQLite error. Say what it is before anything opens it.
    if let kind = Self.nonRegularKind(path: path) {
      throw Error.cannotOpen(path: path, reason: "it is \(kind), not a Raon store")
    }
    if FileManager.default.fileExists(atPath: path) {
      try Self.checkBeforeOpening(path: path)
    } else if readOnly {
      throw Error.cannotOpen(path: path, reason: "no such file")
    } else {
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      } catch {
        throw Error.cannotOpen(
          path: path, reason: "cannot create its folder (\(error.localizedDescription))")
      }
    }
    let writer: any DatabaseWriter
    // Whether a read-only connection will make the log files (see ``LogTidier``).
    let logAbsent = readOnly && LogTidier.logFilesAbsent(path: path)
    do {
      if readOnly {
        writer = try Self.openReadOnly(path: path)
      } else {
        writer = try DatabasePool(path: path, configuration: Self.configuration())
      }
    } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
      throw Error.busy(path: path, seconds: Int(Self.busyTimeout))
    } catch let error as DatabaseError {
      throw Error.cannotOpen(path: path, reason: Self.reason(error))
    } catch {
      throw Error.cannotOpen(path: path, reason: String(describing: error))
    }
    if readOnly {
      let tidier = logAbsent ? LogTidier(path: path, reader: writer as? DatabaseQueue) : nil
      try self.init(readOnlyWriter: writer, path: path, fileURL: url, tidier: tidier)
    } else {
      try self.init(writer: writer, path: path, fileURL: url)
    }
  }

  /// What the path names when it exists and is not a regular file (symbolic links are
  /// followed: a link to a store is fine), else `nil`.
  static func nonRegularKind(path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFDIR: return "a folder"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }

  /// A read-only connection. A store in WAL mode whose folder is read-only cannot get the
  /// shared-memory file SQLite wants beside it; as nothing can write to it there either,
  /// it is then opened as immutable.
  private static func openReadOnly(path: String) throws -> DatabaseQueue {
    var configuration = Self.configuration()
    configuration.readonly = true
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
      return queue
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
    {
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
      guard !FileManager.default.isWritableFile(atPath: folder) else { throw error }
      // Immutable ignores the write-ahead log: refuse rather than miss committed snapshots.
      let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
      guard (log?.intValue ?? 0) == 0 else { throw error }
      let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))
      let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
      return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration)
    }
  }

  /// Refuses a file that is not a Raon store without writing to it: the SQLite header's
  /// application id is read from the file itself; when it does not say "RAON", the
  /// database is looked into through a read-only connection (which also sees what the
  /// write-ahead log holds: a store another raon process has just created carries its id
  /// there until the log is copied into the file).
  static func checkBeforeOpening(path: String) throws {
    guard let handle = FileHandle(forReadingAtPath: path) else { return }  // SQLite will say why
    let header = (try? handle.read(upToCount: 100)) ?? Data()
    try? handle.close()
    guard !header.isEmpty else { return }  // a new, empty file
    guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
      throw Error.cannotOpen(path: path, reason: "the file is not an SQLite database")
    }
    let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    if Int32(bitPattern: id) == applicationID { return }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(busyTimeout)
    let (objects, currentID): ([String], Int32)
    do {
      (objects, currentID) = try DatabaseQueue(path: path, configuration: configuration).read { db in
        (
          try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"),
          try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        )
      }
    } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
      throw Error.busy(path: path, seconds: Int(busyTimeout))
    } catch let error as DatabaseError {
      throw Error.cannotOpen(path: path, reason: reason(error))
    } catch {
      throw Error.cannotOpen(path: path, reason: String(describing: error))
    }
    if currentID == applicationID { return }
    // No id and no tables but GRDB's bookkeeping: a store another raon process is
    // creating right now.
    if currentID == 0 && !objects.contains(where: { $0 != "grdb_migrations" }) { return }
    throw Error.notAStore(path: path)
  }

  /// Wraps a read-only connection: the store must already be a Raon store of this schema.
  private init(readOnlyWriter writer: any DatabaseWriter, path: String, fileURL: URL, tidier: LogTidier?) throws {
    self.writer = writer
    self.path = path
    self.fileURL = fileURL
    self.tidier = tidier
    try translatingErrors(Error.cannotOpen) { try checkIsRaonStore() }
    let complete = try translatingErrors(Error.cannotOpen) {
      try writer.read { try Self.migrator().hasCompletedMigrations($0) }
    }
    guard complete else {
      throw Error.migrationFailed(
        path: path,
        reason: "it was made by an older Raon and this command only reads; run 'raon report' once to upgrade it")
    }
  }

  /// A new empty store in memory: what `raon weekly --dry-run` reads when no store exists yet.
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
    self.tidier = nil
    try translatingErrors(Error.cannotOpen) { try checkIsRaonStore() }
    let migrator = Self.migrator(upTo: version)
    try translatingErrors(Error.migrationFailed) {
      // Processes opening a new store at once can all try to migrate it, one migration
      // (one transaction) at a time: a loser's attempt fails ("table … already exists")
      // while the winner may still be applying the next migration. Each retry waits for
      // the winner's transaction, then applies only what is still missing; done once
      // every migration is in.
      var attempt = 0
      while true {
        do {
          try migrator.migrate(writer)
          return
        } catch {
          if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
          attempt += 1
          guard attempt < 10 else { throw error }
          // Wait for the other process's migration to commit: taking the write lock
          // waits (up to the busy timeout) until its transaction ends.
          try writer.writeWithoutTransaction { db in try db.inTransaction(.immediate) { .commit } }
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

  /// The snapshot with this id, or `nil`.
  public func snapshot(id: Int64) throws -> SnapshotInfo? {
    try reading { c in try StoreQueries.snapshotRecord(id, c)?.info() }
  }

  // MARK: - Maintenance

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

  /// Copies what the write-ahead log holds into the database file, without waiting for
  /// readers, once a recording has committed. A committed snapshot is safe in the log, but
  /// a log that cannot be copied (a full disk) is worth saying: the file alone does not
  /// hold it yet, and the log keeps growing.
  ///
  /// - Returns: `nil` when the log was copied whole (or there is none), else why not.
  public func foldLog() -> String? {
    guard let pool = writer as? DatabasePool else { return nil }
    do {
      return try pool.writeWithoutTransaction { db -> String? in
        let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
        let busy: Int = row?[0] ?? 0
        let logged: Int = row?[1] ?? 0
        let copied: Int = row?[2] ?? 0
        if busy != 0 || copied < logged {
          return "\(logged - copied) of \(logged) pages are still only in the write-ahead log (another process is reading)"
        }
        return nil
      }
    } catch let error as DatabaseError {
      return Self.reason(error)
    } catch {
      return String(describing: error)
    }
  }

  private static func bytesOnDisk(_ url: URL) -> Int {
    [url.path, url.path + "-wal"].reduce(0) { total, path in
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
  }
}

/// Removes the `-wal` and `-shm` files a read-only store's opening made beside a store in
/// WAL mode, when the last copy of the store goes, so that `raon snapshots`, `raon diff` and
/// a dry-run delete leave no file behind.
///
/// Why this way. A read-only connection (`SQLITE_OPEN_READONLY`) to a WAL store needs the
/// log's shared-memory index, so SQLite creates both files when they are missing — and only
/// a connection that may write folds the log and deletes them when it closes last. The
/// other ways out were worse: `immutable=1` creates nothing but takes no locks and ignores
/// the log, so a recording committing meanwhile could checkpoint pages under the reader (a
/// torn read) or the reader could miss committed snapshots; a writable connection with
/// `PRAGMA query_only` reads safely, but GRDB turns `query_only` off after every read, so
/// nothing would stop a write. So the store keeps reading through the read-only connection,
/// under SQLite's usual locks, beside any writer; when it is done, that connection is
/// closed and a writable one opened just to read the schema and close: SQLite's own rule
/// then decides — if another process has the store open it needs the files and they stay,
/// otherwise the (already empty, or another writer's committed) log is folded into the
/// file and both are removed, as after any `raon snapshot`. Only files that were absent
/// when the store was opened are tidied, and only where the file and its folder may be
/// written (elsewhere SQLite could not have created them).
final class LogTidier: @unchecked Sendable {
  private let path: String
  private let reader: DatabaseQueue?

  init?(path: String, reader: DatabaseQueue?) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard access(path, W_OK) == 0, access(folder, W_OK) == 0 else { return nil }
    self.path = path
    self.reader = reader
  }

  /// Whether neither log file is beside the store.
  static func logFilesAbsent(path: String) -> Bool {
    !FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm")
  }

  deinit {
    try? reader?.close()
    // The files may be gone already (a writer that came and went removed them).
    guard !Self.logFilesAbsent(path: path) else { return }
    var configuration = Configuration()
    configuration.busyMode = .timeout(1)
    configuration.label = "RaonStore.tidy"
    // Any failure leaves the files as they are: harmless, as they were before this fix.
    if let queue = try? DatabaseQueue(path: path, configuration: configuration) {
      _ = try? queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
      try? queue.close()
    }
  }
}

extension SnapshotStore: SnapshotStoring {
  /// The store's path (`:memory:` in memory).
  public var location: String { path }
}
