import Foundation
import Testing

@testable import RaonConcurrency

/// ``ParallelWork/both(_:_:)``: two independent steps side by side (a held input's
/// recording beside its comparison, reading it beside the stored snapshot).
struct ParallelWorkBothTests {
  struct Failed: Error, Equatable { let side: String }

  /// Each side waits for the other to have started: run one after the other, neither
  /// would see the other (the wait ends at its deadline with nothing).
  @Test func theTwoSidesRunAtTheSameTime() throws {
    let started = Monitor(Set<String>())
    @Sendable func meet(_ side: String, _ other: String) -> Bool {
      started.withLock { _ = $0.insert(side) }
      return started.wait(until: Date().addingTimeInterval(10)) { $0.contains(other) ? true : nil } ?? false
    }
    let (a, b) = try ParallelWork.both({ meet("first", "second") }, { meet("second", "first") })
    #expect(a && b)
  }

  @Test func bothResultsComeBackInTheirPlaces() throws {
    let (number, text) = try ParallelWork.both({ 6 * 7 }, { "forty-two" })
    #expect(number == 42)
    #expect(text == "forty-two")
  }

  /// One side's failure is thrown once both have ended (the other side is not cut short);
  /// when both fail, the first side's error is thrown.
  @Test func aFailureIsThrownOnceBothHaveEnded() {
    let ended = Monitor(false)
    #expect(throws: Failed(side: "first")) {
      _ = try ParallelWork.both({ () throws -> Int in throw Failed(side: "first") }) { () -> Int in
        // A while after the first side has failed.
        _ = Monitor(0).wait(until: Date().addingTimeInterval(0.05)) { _ in Int?.none }
        ended.withLock { $0 = true }
        return 1
      }
    }
    #expect(ended.withLock { $0 })
    #expect(throws: Failed(side: "second")) {
      _ = try ParallelWork.both({ 1 }, { () throws -> Int in throw Failed(side: "second") })
    }
    #expect(throws: Failed(side: "first")) {
      _ = try ParallelWork.both(
        { () throws -> Int in throw Failed(side: "first") }, { () throws -> Int in throw Failed(side: "second") })
    }
  }
}
