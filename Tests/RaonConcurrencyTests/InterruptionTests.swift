import Foundation
import Synchronization
import Testing

import RaonConcurrency

/// The process's one interruption: work that leaves something behind either finishes
/// before the signal handler's clean-up or never starts.
@Suite struct InterruptionTests {
  final class Log: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  @Test func theCleanUpWaitsForWorkInProgressAndLaterWorkIsRefused() throws {
    let interruption = Interruption()
    let log = Log()
    let started = PendingResult<Bool>()
    let work = PendingResult.start {
      try interruption.unlessInterrupted {
        started.fulfil(.success(true))
        usleep(200_000)
        log.add("folder made")
      }
    }
    _ = started.wait()
    interruption.interrupt { log.add("staged folders removed") }
    try work.wait().get()
    #expect(log.all == ["folder made", "staged folders removed"])
    #expect(interruption.isInterrupted)
    #expect(throws: Interruption.Interrupted.self) {
      try interruption.unlessInterrupted { log.add("made after the interrupt") }
    }
    #expect(log.all.count == 2)
  }

  @Test func workNotInterruptedGivesItsValueOrItsError() throws {
    struct Refused: Error, Equatable {}
    let interruption = Interruption()
    #expect(try interruption.unlessInterrupted { 42 } == 42)
    #expect(throws: Refused()) { try interruption.unlessInterrupted { throw Refused() } }
    #expect(interruption.isInterrupted == false)
  }
}
