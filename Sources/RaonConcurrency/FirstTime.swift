import Foundation

/// `true` for the first ``claim()`` only, whichever thread makes it.
public final class FirstTime: @unchecked Sendable {
  private let lock = NSLock()
  private var claimed = false

  public init() {}

  public func claim() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !claimed else { return false }
    claimed = true
    return true
  }
}
