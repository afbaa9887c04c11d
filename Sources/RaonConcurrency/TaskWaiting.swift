import Foundation

/// How asynchronous work waits: a pause between attempts, and a limit on work that may
/// never answer. The one place a task sleeps; a type that waits takes a ``Sleep`` so that
/// its tests need not.
public enum TaskWaiting {
  /// Waits for a duration, or throws `CancellationError` when the task is cancelled.
  public typealias Sleep = @Sendable (Duration) async throws -> Void

  /// The real clock's wait (`Task.sleep`).
  public static let sleep: Sleep = { try await Task.sleep(for: $0) }

  /// What `operation` gives, or `nil` when `seconds` of real time pass first, whatever the
  /// operation does with its own timeout (it is cancelled then).
  public static func result<T: Sendable>(
    within seconds: TimeInterval, of operation: @escaping @Sendable () async throws -> T
  ) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: .seconds(seconds))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next() else { return nil }
      return first
    }
  }
}
