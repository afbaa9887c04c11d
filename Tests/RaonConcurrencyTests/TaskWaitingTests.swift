import Foundation
import Testing

@testable import RaonConcurrency

/// ``TaskWaiting``: the real sleep and the time limit on work that may never answer.
struct TaskWaitingTests {
  @Test func workThatAnswersInTimeGivesItsAnswer() async throws {
    let answer = try await TaskWaiting.result(within: 30) { 42 }
    #expect(answer == 42)
  }

  @Test func workThatNeverAnswersIsCutOffAtTheLimit() async throws {
    let started = Date()
    let answer = try await TaskWaiting.result(within: 0.3) { () async throws -> Int in
      // Answers only when cancelled, as a transport does.
      while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
      return 1
    }
    // The work answers only once cancelled, so `nil` is the limit's doing; how long past the
    // limit that takes depends on how busy the cooperative threads are.
    #expect(answer == nil)
    #expect(Date().timeIntervalSince(started) >= 0.29)
  }

  @Test func workThatFailsInTimeThrows() async {
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      _ = try await TaskWaiting.result(within: 30) { () async throws -> Int in throw Refused() }
    }
  }

  @Test func theRealSleepWaitsAndHearsCancellation() async {
    let started = Date()
    try? await TaskWaiting.sleep(.milliseconds(100))
    #expect(Date().timeIntervalSince(started) >= 0.09)
    let sleeper = Task { try await TaskWaiting.sleep(.seconds(60)) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}
