import Foundation
import PostgresNIO
import RaonStoreCore

extension PostgresSnapshotStore {
  /// The first key of the weekly run's advisory lock ("RAOW"); the second is the schema
  /// name's hash, as for the writers' lock (``PostgresSchema/lockKey``), so each store in
  /// its schema has its own. A key of its own: a session lock and the writers' transaction
  /// lock share one space, and the run must still record while it holds this one.
  static let runLockKey: Int32 = 0x5241_4F57

  /// The store's run lock (``RunLedger/takeRunLock()``): a session advisory lock, held by a
  /// connection of its own for as long as the run lives. Every machine that reaches the
  /// store meets it; the server lets it go when the connection ends — a run killed or a
  /// machine gone drops its connection.
  func runLock() throws -> StoreRunLock? {
    let address = self.address
    let connection: BlockingConnection
    do {
      connection = try BlockingConnection(address)
    } catch {
      throw StoreError.cannotOpen(path: location, reason: reason(error))
    }
    let taken: Bool
    do {
      let rows = try connection.query("SELECT pg_try_advisory_lock(\(Self.runLockKey), hashtext(\(address.schema)))")
      guard let row = rows.first else { throw DecodingFailure("pg_try_advisory_lock returned no row") }
      taken = try row.decode(Bool.self)
    } catch {
      connection.close()
      throw StoreError.cannotOpen(path: location, reason: "its run lock cannot be taken: \(reason(error))")
    }
    guard taken else {
      connection.close()
      throw StoreRunLock.Held(location: location)
    }
    return StoreRunLock {
      // Closing ends the session, which lets the lock go; the unlock first says so at once.
      _ = try? connection.query("SELECT pg_advisory_unlock(\(Self.runLockKey), hashtext(\(address.schema)))")
      connection.close()
    }
  }
}
