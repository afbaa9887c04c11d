import Foundation

/// A one-slot hand-over between a thread that makes items and one that uses them, so the
/// two overlap: the maker waits while an item is ready and not yet taken.
///
/// The maker calls ``push(_:)`` for each item and ``finish(throwing:)`` once (with its
/// error, if any); the user calls ``pop()`` until it returns `nil`, and ``stop()`` then
/// ``waitUntilFinished()`` when done (also early), so the maker never outlives its user.
public final class HandOver<Item: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var ready: [Item] = []
  private var finished = false
  private var stopped = false
  private var failure: Error?

  public init() {}

  /// Waits for the slot to be free and puts `item` in it; `false` (and nothing put) once
  /// the user has stopped: the maker should then finish.
  public func push(_ item: Item) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !ready.isEmpty && !stopped { condition.wait() }
    guard !stopped else { return false }
    ready.append(item)
    condition.broadcast()
    return true
  }

  /// Marks the end of the items, with the maker's error if it failed.
  public func finish(throwing error: Error?) {
    condition.lock()
    finished = true
    failure = error
    condition.broadcast()
    condition.unlock()
  }

  /// The next item, or `nil` after the last; the maker's error once the items before it
  /// have been taken.
  public func pop() throws -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty && !finished { condition.wait() }
    if !ready.isEmpty {
      let item = ready.removeFirst()
      condition.broadcast()
      return item
    }
    if let failure { throw failure }
    return nil
  }

  /// Tells the maker that no more items are wanted.
  public func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the maker has finished.
  public func waitUntilFinished() {
    condition.lock()
    while !finished { condition.wait() }
    condition.unlock()
  }
}
