import Foundation
import Testing

@testable import RaonConcurrency

/// ``Polling`` and ``Retrying``: the waits for things that give no signal, and between
/// attempts.
struct WaitingTests {
  struct Down: Error {}
  struct Refused: Error {}

  /// What a retried body and its injected sleep saw.
  final class Attempts: @unchecked Sendable {
    var count = 0
    var slept: [Duration] = []
    var retried: [(attempt: Int, wait: Duration)] = []
  }

  @Test func pollingAsksUntilTheAnswerIsYes() {
    let asked = Guarded(0)
    let done = Polling.until(timeout: 30, every: 0.001) { asked.withLock { $0 += 1; return $0 == 5 } }
    #expect(done)
    #expect(asked.withLock { $0 } == 5)
  }

  @Test func pollingGivesUpAtItsTimeoutHavingAskedMoreThanOnce() {
    let asked = Guarded(0)
    let started = Date()
    let done = Polling.until(timeout: 0.2, every: 0.02) { asked.withLock { $0 += 1 }; return false }
    #expect(done == false)
    #expect(Date().timeIntervalSince(started) >= 0.2)
    #expect(asked.withLock { $0 } >= 2)
  }

  /// Asked at once: no wait when the answer is already yes, even with no time allowed.
  @Test func pollingAsksOnceAtOnce() {
    let started = Date()
    #expect(Polling.until(timeout: 0, every: 60) { true })
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test func waitsDoubleUpToTheirMaximum() {
    let waits = (1...6).map { Retrying.wait(after: $0, first: .seconds(5), maximum: .seconds(30)) }
    #expect(waits == [5, 10, 20, 30, 30, 30].map { Duration.seconds($0) })
    #expect(Retrying.wait(after: 1, first: .seconds(50), maximum: .seconds(30)) == .seconds(30))
  }

  @Test func aBodyThatSucceedsAfterFailuresIsRetriedUntilItDoes() async throws {
    let attempts = Attempts()
    let answer = try await Retrying.run(
      for: .seconds(3_600), first: .seconds(1), maximum: .seconds(8), isRetryable: { $0 is Down },
      onRetry: { _, attempt, wait in attempts.retried.append((attempt, wait)) },
      sleep: { attempts.slept.append($0) }
    ) { () async throws -> String in
      attempts.count += 1
      if attempts.count < 4 { throw Down() }
      return "up"
    }
    #expect(answer == "up")
    #expect(attempts.count == 4)
    #expect(attempts.slept == [1, 2, 4].map { Duration.seconds($0) })
    #expect(attempts.retried.map(\.attempt) == [1, 2, 3])
    #expect(attempts.retried.map(\.wait) == attempts.slept)
  }

  @Test func anErrorThatIsNotRetryableIsThrownAtOnce() async {
    let attempts = Attempts()
    await #expect(throws: Refused.self) {
      try await Retrying.run(
        for: .seconds(3_600), first: .seconds(1), maximum: .seconds(8), isRetryable: { $0 is Down },
        sleep: { attempts.slept.append($0) }
      ) { () async throws -> Int in
        attempts.count += 1
        throw attempts.count == 1 ? Down() as any Error : Refused()
      }
    }
    #expect(attempts.count == 2)
    #expect(attempts.slept == [.seconds(1)])
  }

  /// The real clock counts too: with no time to wait at all, the first failure is final.
  @Test func noTimeAllowedMeansOneAttempt() async {
    let attempts = Attempts()
    await #expect(throws: Down.self) {
      try await Retrying.run(
        for: .zero, first: .milliseconds(1), maximum: .milliseconds(1), isRetryable: { _ in true }
      ) { () async throws -> Int in
        attempts.count += 1
        throw Down()
      }
    }
    #expect(attempts.count == 1)
  }
}
