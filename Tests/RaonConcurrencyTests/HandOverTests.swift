import Foundation
import Testing

@testable import RaonConcurrency

/// ``HandOver``: a maker and a user on two threads, one item between them at most.
struct HandOverTests {
  struct Broken: Error, Equatable { var at: Int }

  /// What the maker has pushed so far, read by the user.
  final class Count: Sendable {
    private let value = Guarded(0)
    func add() { value.withLock { $0 += 1 } }
    var current: Int { value.withLock { $0 } }
  }

  @Test func theUserTakesEveryItemInOrder() throws {
    var taken: [Int] = []
    try HandOver<Int>.overlapping(
      make: { push in for i in 0..<100 { guard push(i) else { return } } },
      use: { taken.append($0); return true })
    #expect(taken == Array(0..<100))
  }

  /// The maker waits while an item is ready and not yet taken: while the user holds item
  /// `k`, the maker has pushed at most items `0...k+1` (one more in the slot). The user is
  /// slow, so a maker that ran ahead would show it.
  @Test func theMakerRunsAtMostOneItemAhead() throws {
    let pushed = Count()
    var aheadSeen: [Int] = []
    try HandOver<Int>.overlapping(
      make: { push in
        for i in 0..<20 {
          guard push(i) else { return }
          pushed.add()
        }
      },
      use: { item in
        Thread.sleep(forTimeInterval: 0.02)
        aheadSeen.append(pushed.current - item)
        return true
      })
    #expect(aheadSeen.count == 20)
    #expect(aheadSeen.allSatisfy { $0 <= 2 }, "\(aheadSeen)")
    // The maker did run while the user worked (the two overlap).
    #expect(aheadSeen.contains { $0 == 2 }, "\(aheadSeen)")
  }

  @Test func theMakersErrorComesAfterTheItemsBeforeIt() {
    var taken: [Int] = []
    #expect(throws: Broken(at: 3)) {
      try HandOver<Int>.overlapping(
        make: { push in
          for i in 0..<3 { _ = push(i) }
          throw Broken(at: 3)
        },
        use: { taken.append($0); return true })
    }
    #expect(taken == [0, 1, 2])
  }

  /// A user that has had enough stops the maker: its next push says so, and
  /// `overlapping` returns only once the maker has returned.
  @Test func aUserThatStopsEarlyStopsTheMaker() throws {
    let refusedAt = PendingResult<Int>()
    var taken: [Int] = []
    try HandOver<Int>.overlapping(
      make: { push in
        for i in 0..<1_000 where !push(i) {
          refusedAt.fulfil(.success(i))
          return
        }
        refusedAt.fulfil(.success(-1))
      },
      use: { taken.append($0); return $0 < 4 })
    #expect(taken == [0, 1, 2, 3, 4])
    // Already fulfilled: the maker has finished before `overlapping` returned.
    let refused = try refusedAt.wait().get()
    #expect((5...6).contains(refused), "\(refused)")
  }

  @Test func theUsersErrorStopsTheMakerAndIsThrown() {
    let makerEnded = Guarded(false)
    #expect(throws: Broken(at: 2)) {
      try HandOver<Int>.overlapping(
        make: { push in
          var i = 0
          while push(i) { i += 1 }
          makerEnded.withLock { $0 = true }
        },
        use: { item in
          if item == 2 { throw Broken(at: 2) }
          return true
        })
    }
    #expect(makerEnded.withLock { $0 })
  }

  /// Driven by hand from two threads: push, finish with an error, pop until it comes.
  @Test func aHandDrivenHandOverPassesItemsThenTheMakersError() throws {
    let queue = HandOver<String>()
    let maker = PendingResult.start { () -> [Bool] in
      let pushed = ["a", "b", "c"].map { queue.push($0) }
      queue.finish(throwing: Broken(at: 9))
      return pushed
    }
    var items: [String] = []
    #expect(throws: Broken(at: 9)) {
      while let item = try queue.pop() { items.append(item) }
    }
    #expect(items == ["a", "b", "c"])
    #expect(try maker.wait().get() == [true, true, true])
    // After the end, `pop` keeps giving the maker's error.
    #expect(throws: Broken(at: 9)) { try queue.pop() }
  }

  @Test func popGivesNilAfterTheLastItemOfAMakerThatSucceeded() throws {
    let queue = HandOver<Int>()
    #expect(queue.push(1))
    queue.finish(throwing: nil)
    #expect(try queue.pop() == 1)
    #expect(try queue.pop() == nil)
  }

  /// A maker waiting for the slot is freed by `stop`, its push refused.
  @Test func stopFreesAMakerWaitingForTheSlot() throws {
    let queue = HandOver<Int>()
    #expect(queue.push(1))
    let returned = Guarded(false)
    let second = PendingResult.start { () -> Bool in
      let pushed = queue.push(2)
      returned.withLock { $0 = true }
      return pushed
    }
    // The slot is full: the second push waits.
    Thread.sleep(forTimeInterval: 0.1)
    #expect(returned.withLock { $0 } == false)
    queue.stop()
    #expect(try second.wait().get() == false)
    #expect(queue.push(3) == false)
  }
}
