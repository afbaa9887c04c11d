import Foundation
import RaonCore
import RaonErrors

/// The lock of `raon weekly` on one store: one run at a time per store, whatever config,
/// working directory or machine starts it. Each store holds it its own way — the SQLite
/// file a `flock(2)` on itself, PostgreSQL a session advisory lock keyed on the store's
/// schema — and both let it go when the process ends, however it ends.
public final class StoreRunLock: @unchecked Sendable {
  /// Another run holds the store's lock.
  public struct Held: RaonError, Equatable, CustomStringConvertible {
    public var exitStatus: ExitStatus { .busy }
    /// The store, for the message.
    public var location: String
    /// Who holds it, as the ledger says (`run 12, pid 4242 on web1 since …`).
    public var holder: String?

    public init(location: String, holder: String? = nil) {
      self.location = location
      self.holder = holder
    }

    public var description: String {
      "another raon weekly is running on the store \(location) (\(holder ?? "it holds the store's lock")) — nothing was done"
    }
  }

  private let release: @Sendable () -> Void

  /// - Parameter release: Lets the lock go (once, when this value goes).
  package init(release: @escaping @Sendable () -> Void) {
    self.release = release
  }

  deinit { release() }
}

extension RunLedger {
  /// Takes the store's run lock at once (never waits), or throws ``StoreRunLock/Held`` naming
  /// the run that has it (the ledger's latest run still `running`). `nil` for a store in
  /// memory, which no other process can reach.
  public func takeRunLock() throws -> StoreRunLock? {
    do {
      return try access.runLock()
    } catch var held as StoreRunLock.Held {
      if held.holder == nil, let run = try? runningRun() {
        held.holder = "run \(run.id), pid \(run.pid) on \(run.host) since \(ReportTime.korea(run.startedAt))"
      }
      throw held
    }
  }

  /// The latest run still marked `running`, if any.
  func runningRun() throws -> WeeklyRunRecord? {
    try access.reading { c in
      try c.rows("SELECT \(Self.runColumns) FROM weekly_run WHERE outcome = 'running' ORDER BY id DESC LIMIT 1").first.map(Self.run)
    }
  }
}
