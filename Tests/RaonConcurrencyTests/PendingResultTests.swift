import Foundation
import Testing

@testable import RaonConcurrency

/// ``PendingResult``, ``Disposal`` and ``FirstTime``: work and values handed to other threads.
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

  /// ``Disposal``: the value's last reference goes on another thread, and the value is
  /// freed there.
  @Test func aDisposedValueIsFreedOnAnotherThread() throws {
    let freedOn = PendingResult<ObjectIdentifier>()
    Disposal.release(Tracked(freedOn))
    let thread = try freedOn.wait().get()
    #expect(thread != ObjectIdentifier(Thread.current))
  }

  /// When the caller still holds the value, the disposal thread only lets go of its own
  /// reference; the caller's last reference frees it, on the caller's thread.
  @Test func aValueStillHeldIsFreedByItsLastHolder() throws {
    let freedOn = PendingResult<ObjectIdentifier>()
    let caller = ObjectIdentifier(Thread.current)
    var held: Tracked? = Tracked(freedOn)
    Disposal.release(held)
    // Long enough for the disposal thread to have let go of its reference.
    Thread.sleep(forTimeInterval: 0.2)
    let freedEarly = Guarded(false)
    let probe = PendingResult.start { () -> Void in
      _ = freedOn.wait()
      freedEarly.withLock { $0 = true }
    }
    Thread.sleep(forTimeInterval: 0.05)
    #expect(freedEarly.withLock { $0 } == false)
    held = nil
    #expect(try freedOn.wait().get() == caller)
    _ = probe.wait()
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

/// Tells which thread freed it.
private final class Tracked: Sendable {
  let freedOn: PendingResult<ObjectIdentifier>
  init(_ freedOn: PendingResult<ObjectIdentifier>) { self.freedOn = freedOn }
  deinit { freedOn.fulfil(.success(ObjectIdentifier(Thread.current))) }
}
