import Foundation
import Testing

@testable import RaonConcurrency

/// ``PendingResult`` and ``FirstTime``: work and values handed to other threads.
struct PendingResultTests {
  struct Refused: Error, Equatable {}

  @Test func startedWorkRunsOnAThreadOfItsOwn() throws {
    let caller = ObjectIdentifier(Thread.current)
    let worker = try PendingResult.start { ObjectIdentifier(Thread.current) }.wait().get()
    #expect(worker != caller)
  }

  @Test func theWorksErrorIsTheResult() {
    let pending = PendingResult<Int>.start { throw Refused() }
    #expect(throws: Refused()) { try pending.wait().get() }
    // Asked again, the same outcome.
    #expect(throws: Refused()) { try pending.wait().get() }
  }

  /// A waiter that comes before the result waits for it; one that comes after gets it at once.
  @Test func waitersBeforeAndAfterTheResultGetIt() throws {
    let gate = PendingResult<Void>()
    let pending = PendingResult.start { () -> String in
      _ = gate.wait()
      return "made"
    }
    let early = PendingResult.start { try pending.wait().get() }
    gate.fulfil(.success(()))
    #expect(try early.wait().get() == "made")
    #expect(try pending.wait().get() == "made")
  }

  /// ``FirstTime``: of many threads claiming at once, exactly one gets `true`.
  @Test func exactlyOneClaimIsTheFirst() throws {
    let first = FirstTime()
    let claims = (0..<8).map { _ in PendingResult.start { first.claim() } }
    let answers = try claims.map { try $0.wait().get() }
    #expect(answers.filter { $0 }.count == 1)
    #expect(first.claim() == false)
  }
}

