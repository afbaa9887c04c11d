import Foundation
import Testing

@testable import RaonConcurrency

/// ``ParallelWork``: the parallel map and the bounded `forEach`, with real threads.
struct ParallelWorkTests {
  struct Failed: Error, Equatable { var index: Int }

  /// The threads that ran the work, and how many ran it at once at most.
  final class Threads: Sendable {
    private struct State {
      var seen: Set<ObjectIdentifier> = []
      var running = 0
      var mostAtOnce = 0
      var started: [Int] = []
    }
    private let state = Guarded(State())

    func enter(_ index: Int) {
      let me = ObjectIdentifier(Thread.current)
      state.withLock {
        $0.seen.insert(me)
        $0.running += 1
        $0.mostAtOnce = max($0.mostAtOnce, $0.running)
        $0.started.append(index)
      }
    }
    func leave() { state.withLock { $0.running -= 1 } }
    var count: Int { state.withLock { $0.seen.count } }
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    var started: [Int] { state.withLock { $0.started } }
    func ranOn(_ thread: Thread) -> Bool { state.withLock { $0.seen == [ObjectIdentifier(thread)] } }
  }

  @Test func aLargeMapGivesEveryResultInIndexOrder() {
    let squares = ParallelWork.map(10_000) { $0 * $0 }
    #expect(squares == (0..<10_000).map { $0 * $0 })
  }

  /// Above the minimum count the items are spread over threads: every chunk's first item
  /// waits (up to a deadline) until a second thread has joined, which a map on one thread
  /// never sees.
  @Test func aLargeMapRunsOnMoreThanOneThread() {
    let threads = Threads()
    let deadline = Date().addingTimeInterval(30)
    _ = ParallelWork.map(4_000) { i -> Int in
      threads.enter(i)
      defer { threads.leave() }
      while threads.count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
      return i
    }
    #expect(threads.count >= 2)
  }

  @Test func aSmallMapRunsOnTheCallingThread() {
    let threads = Threads()
    let values = ParallelWork.map(100) { i -> Int in
      threads.enter(i)
      threads.leave()
      return i + 1
    }
    #expect(values == Array(1...100))
    #expect(threads.ranOn(Thread.current))
    #expect(threads.started == Array(0..<100))
  }

  /// As a loop would: the error of the first failing index, though later ones failed too
  /// (and may have failed first in time, on another thread).
  @Test func aFailingMapThrowsTheErrorOfTheFirstFailingIndex() {
    #expect(throws: Failed(index: 1_234)) {
      _ = try ParallelWork.map(8_000, minimumCount: 1) { i -> Int in
        if i == 1_234 || i == 4_003 || i == 7_000 { throw Failed(index: i) }
        return i
      }
    }
    #expect(throws: Failed(index: 5)) {
      _ = try ParallelWork.map(10) { i -> Int in
        if i >= 5 { throw Failed(index: i) }
        return i
      }
    }
  }

  @Test func forEachRunsEveryIndexOnceAndNoMoreAtOnceThanItsWidth() throws {
    let threads = Threads()
    try ParallelWork.forEach(12, width: 3) { i in
      threads.enter(i)
      Thread.sleep(forTimeInterval: 0.02)
      threads.leave()
    }
    #expect(threads.started.sorted() == Array(0..<12))
    #expect(threads.mostAtOnce <= 3)
    // The items overlap: three threads were running them together at some point.
    #expect(threads.mostAtOnce >= 2, "\(threads.mostAtOnce)")
  }

  @Test func forEachOfWidthOneIsALoopOnTheCallingThread() throws {
    let threads = Threads()
    try ParallelWork.forEach(5, width: 1) { i in
      threads.enter(i)
      threads.leave()
    }
    #expect(threads.started == [0, 1, 2, 3, 4])
    #expect(threads.ranOn(Thread.current))
  }

  /// Once an item fails no further item starts; the lowest failing index's error is thrown
  /// after every started item has ended.
  @Test func forEachStopsStartingItemsAfterAFailure() {
    let threads = Threads()
    let ended = Guarded(0)
    #expect(throws: Failed(index: 1)) {
      try ParallelWork.forEach(100, width: 2) { i in
        threads.enter(i)
        defer {
          threads.leave()
          ended.withLock { $0 += 1 }
        }
        if i == 1 || i == 2 { throw Failed(index: i) }
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
    let started = threads.started
    #expect(started.count < 10, "\(started)")
    #expect(ended.withLock { $0 } == started.count, "every started item ended before the throw")
  }
}
