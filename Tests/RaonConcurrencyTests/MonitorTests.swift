import Foundation
import Testing

@testable import RaonConcurrency

/// The waits Raon's threads make on shared values: ``Monitor``, ``PendingResult`` and
/// ``Guarded``, with real threads.
struct MonitorTests {
  @Test func aWaiterIsWokenByTheChangeItWaitsFor() {
    let state = Monitor([Int: String]())
    let waiter = PendingResult.start(named: "waiter") { () -> String in
      state.wait { $0.removeValue(forKey: 7) }
    }
    // Changes the waiter does not wait for wake it without answering it.
    state.withLock { $0[1] = "one" }
    state.withLock { $0[7] = "seven" }
    #expect((try? waiter.wait().get()) == "seven")
    #expect(state.withLock { $0 } == [1: "one"])
  }

  @Test func aTimedWaitEndsAtItsDeadlineWithoutAnAnswer() {
    let state = Monitor(0)
    let started = Date()
    let answer = state.wait(until: started.addingTimeInterval(0.3)) { $0 > 0 ? $0 : nil }
    let waited = Date().timeIntervalSince(started)
    #expect(answer == nil)
    #expect(waited >= 0.29 && waited < 5, "\(waited)")
  }

  @Test func aTimedWaitTakesAnAnswerThatComesInTime() {
    let state = Monitor(0)
    let setter = PendingResult.start {
      Thread.sleep(forTimeInterval: 0.1)
      state.withLock { $0 = 5 }
    }
    let answer = state.wait(until: Date().addingTimeInterval(30)) { $0 > 0 ? $0 : nil }
    #expect(answer == 5)
    _ = setter.wait()
  }

  @Test func aPendingResultGivesTheFirstOutcomeToEveryWaiter() throws {
    let pending = PendingResult<Int>()
    let waiters = (0..<4).map { _ in PendingResult.start { try pending.wait().get() } }
    pending.fulfil(.success(3))
    pending.fulfil(.success(4))
    for waiter in waiters { #expect(try waiter.wait().get() == 3) }
  }

  /// The name the system gives the thread (what `top -H`, gdb and a crash report show),
  /// read from `/proc/thread-self/comm`: Foundation's `Thread.current.name` once answered a
  /// dispatch worker's name here under the thread sanitizer with the suites in parallel.
  @Test func aThreadIsStartedWithItsName() throws {
    let name = try PendingResult.start(named: "raon.test.named") { () -> String in
      let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
      return comm.trimmingCharacters(in: .newlines)
    }.wait().get()
    #expect(name == "raon.test.named")
  }

  @Test func aGuardedValueTakesEveryChangeOfManyThreads() {
    let counter = Guarded(0)
    let threads = (0..<8).map { _ in
      PendingResult.start { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
    }
    for thread in threads { _ = thread.wait() }
    #expect(counter.withLock { $0 } == 80_000)
  }
}
