import RaonErrors

/// Whether the run is being interrupted (SIGINT, SIGTERM): the one switch every effect that
/// an interrupt must be able to undo checks.
///
/// Work that leaves something behind (making a staged folder, starting a browser,
/// publishing a report) runs through ``unlessInterrupted(_:)``; the signal handler calls
/// ``interrupt(then:)``, which waits for such work in progress, then runs its clean-up
/// while no more can start. So once the clean-up has run, nothing it removed comes back.
public final class Interruption: Sendable {
  /// The process's interruption: what the signal handler switches.
  public static let process = Interruption()

  /// Work refused because the run is being interrupted.
  public struct Interrupted: RaonError, CustomStringConvertible {
    public var exitStatus: ExitStatus { .failure }
    public var description: String { "the run was interrupted" }
  }

  private let interrupted = Guarded(false)

  public init() {}

  /// Whether ``interrupt(then:)`` has been called.
  public var isInterrupted: Bool { interrupted.withLock { $0 } }

  /// Runs `body` unless the run is interrupted; an interrupt waits for it to finish.
  ///
  /// `body` must not call back into this interruption (it holds its lock).
  /// - Throws: ``Interrupted`` when interrupted, else `body`'s error.
  public func unlessInterrupted<T>(_ body: () throws -> T) throws -> T {
    var result: Result<T, any Error>?
    interrupted.withLock { stopped in
      result = stopped ? .failure(Interrupted()) : Result { try body() }
    }
    guard let result else { throw Interrupted() }
    return try result.get()
  }

  /// Marks the run interrupted (every later ``unlessInterrupted(_:)`` throws), then runs
  /// `cleanUp` while no such work can run. For the signal handler, before the process exits.
  public func interrupt(then cleanUp: () -> Void) {
    interrupted.withLock { stopped in
      stopped = true
      cleanUp()
    }
  }
}
