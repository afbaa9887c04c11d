import Foundation
import Testing

@testable import RaonConcurrency

#if canImport(Glibc)
  import Glibc
#endif

/// ``RunLock`` (one holder at a time, named in the file) and ``SignalHandling`` (a signal's
/// handler runs as ordinary code).
struct RunLockAndSignalTests {
  static func folder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("raon-runlock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// `flock` locks belong to an open file, so a second open in this process is refused as
  /// another process would be, and learns who holds the lock from the file.
  @Test func aSecondHolderIsRefusedAndToldWhoHoldsTheLock() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("run.lock").path
    let first = try RunLock.acquire(at: path, holder: "pid 42 since 07:00")
    #expect(throws: RunLock.Held(holder: "pid 42 since 07:00")) {
      _ = try RunLock.acquire(at: path, holder: "pid 43 since 07:01")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "pid 42 since 07:00\n")
    withExtendedLifetime(first) {}
  }

  /// The lock goes with its holder; the next one writes its own name over a longer one.
  @Test func theLockIsFreeOnceItsHolderIsGone() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("run.lock").path
    var first: RunLock? = try RunLock.acquire(at: path, holder: "pid 1000000 since yesterday")
    #expect(first != nil)
    first = nil
    let second = try RunLock.acquire(at: path, holder: "pid 7")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "pid 7\n")
    withExtendedLifetime(second) {}
  }

  @Test func aLockFileThatCannotBeMadeIsUnavailableNotHeld() throws {
    let path = "/nonexistent-raon-folder/run.lock"
    #expect {
      _ = try RunLock.acquire(at: path, holder: "pid 1")
    } throws: { error in
      guard let unavailable = error as? RunLock.Unavailable else { return false }
      return unavailable.path == path && unavailable.reason.contains("No such file")
    }
  }

  /// A lock file another holder left empty: the refusal names nobody.
  @Test func anEmptyLockFileNamesNoHolder() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("run.lock").path
    let fd = open(path, O_RDWR | O_CREAT, 0o644)
    #expect(fd >= 0)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    #expect(throws: RunLock.Held(holder: nil)) { _ = try RunLock.acquire(at: path, holder: "pid 2") }
  }

  /// The handler runs on a queue's thread with the signal's number, and the signal's
  /// default action (for SIGUSR2: ending the process) does not happen.
  @Test func aSignalRunsItsHandlerInsteadOfItsDefaultAction() throws {
    let received = PendingResult<Int32>()
    SignalHandling.install([SIGUSR2]) { received.fulfil(.success($0)) }
    #expect(kill(getpid(), SIGUSR2) == 0)
    #expect(try received.wait().get() == SIGUSR2)
  }
}
