/// `true` for the first ``claim()`` only, whichever thread makes it.
public final class FirstTime: Sendable {
  private let claimed = Guarded(false)

  public init() {}

  public func claim() -> Bool {
    claimed.withLock { claimed in
      guard !claimed else { return false }
      claimed = true
      return true
    }
  }
}
