import Foundation

/// A one-slot hand-over between a thread that makes items and one that uses them, so the
/// two overlap: the maker waits while an item is ready and not yet taken.
///
/// ```swift
/// try HandOver<[Program]>.overlapping(
///   make: { push in for chunk in decodedChunks() { guard push(chunk) else { return } } },
///   use: { chunk in write(chunk); return true })
/// ```
///
/// Or made with ``init()`` and driven from two threads the caller already has: the maker
/// calls ``push(_:)`` then ``finish(throwing:)``, the user ``pop()`` until `nil`, then
/// ``stop()`` (also when it gives up early, so that the maker is not held).
public final class HandOver<Item: Sendable>: @unchecked Sendable {
  /// Runs `make` on a new thread while the calling thread takes its items with `use`, one
  /// item ahead, and returns once both are done.
  ///
  /// `make` gets a `push` that waits for the slot and returns `false` once no more items
  /// are wanted (`use` returned `false` or threw): `make` should then return. `make`'s
  /// error is thrown after the items before it have been used; `use`'s error stops
  /// `make` and is thrown once it has.
  public static func overlapping(
    make: @escaping @Sendable (_ push: (Item) -> Bool) throws -> Void,
    use: (Item) throws -> Bool
  ) throws {
    let queue = HandOver<Item>()
    Thread {
      do {
        try make(queue.push)
        queue.finish(throwing: nil)
      } catch {
        queue.finish(throwing: error)
      }
    }.start()
    defer {
      queue.stop()
      queue.waitUntilFinished()
    }
    while let item = try queue.pop() {
      guard try use(item) else { return }
    }
  }

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
  func waitUntilFinished() {
    condition.lock()
    while !finished { condition.wait() }
    condition.unlock()
  }
}
