import Foundation
import RaonConcurrency

/// The idle connections of one store, reused by its next operations on any thread.
///
/// Each operation still has a connection to itself (a read-ahead thread never shares one
/// with the writer), but does not pay for a new one: opening costs a TCP connection, TLS
/// and the password exchange (~10 ms here), and a weekly report makes a dozen operations.
/// A connection goes back only after its work ended cleanly (committed or rolled back);
/// one that failed is closed. Those left idle are closed when the last copy of the store
/// goes (PostgresNIO requires a connection to be closed before it is released), or with
/// the process.
final class ConnectionPool: Sendable {
  private let idle = Guarded<[BlockingConnection]>([])
  /// More than two threads of one process rarely use a store at once.
  private let keep = 4

  deinit {
    for connection in idle.withLock({ $0 }) { connection.close() }
  }

  /// An idle connection, or `nil` when there is none.
  func take() -> BlockingConnection? {
    idle.withLock { $0.popLast() }
  }

  /// Keeps a connection whose work ended cleanly, or closes it when enough are kept.
  func giveBack(_ connection: BlockingConnection) {
    let kept = idle.withLock { idle -> Bool in
      guard idle.count < keep else { return false }
      idle.append(connection)
      return true
    }
    if !kept { connection.close() }
  }
}
