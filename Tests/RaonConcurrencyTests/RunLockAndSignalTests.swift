import Foundation
import Testing

@testable import RaonConcurrency

/// ``RunLock`` where its file cannot be made (its holding, signature and refusals:
/// RunLockTests). ``SignalHandling`` is tested where a process is the thing tested — the
/// binary's interrupt tests (RaonCLITests): its dispatch sources see a signal only when it is
/// installed before other threads exist, which a test process cannot promise (in one, a
/// SIGUSR2 sent to itself was lost and the test waited for ever under --no-parallel).
struct RunLockAndSignalTests {
  @Test func aLockFileThatCannotBeMadeIsUnavailableNotHeld() throws {
    let path = "/nonexistent-raon-folder/run.lock"
    #expect {
      _ = try RunLock.acquire(at: path, holder: "pid 1")
    } throws: { error in
      guard let unavailable = error as? RunLock.Unavailable else { return false }
      return unavailable.path == path && unavailable.reason.contains("No such file")
    }
  }
}
