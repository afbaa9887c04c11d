import Foundation
import RaonErrors

#if canImport(Glibc)
  import Glibc
#endif

/// A lock that one process at a time holds on a file (`flock(2)`), for as long as it lives:
/// the kernel releases it when the process ends, however it ends, so a killed run never
/// leaves it behind. The file keeps who holds it (`pid N since TIME`) for the message of
/// the next one refused.
///
/// ```swift
/// let lock = try RunLock.acquire(at: "/srv/raon/reports/.raon-weekly.lock", holder: "pid 42 since 07:00")
/// ```
public final class RunLock: @unchecked Sendable {
  /// Another process holds the lock.
  public struct Held: RaonError, Equatable {
    public var exitStatus: ExitStatus { .busy }
    /// What the file says about the holder (`pid 1234 since …`), when it says anything.
    public var holder: String?
  }

  /// The lock file cannot be opened or locked.
  public struct Unavailable: RaonError, Equatable {
    public var exitStatus: ExitStatus { .failure }
    public var path: String
    public var reason: String
  }

  private let fd: Int32

  private init(fd: Int32) {
    self.fd = fd
  }

  /// Takes the lock at once, or throws ``Held`` (never waits).
  ///
  /// The descriptor is closed on `exec`, so a child process (a browser) cannot keep the lock
  /// after its parent is gone.
  public static func acquire(at path: String, holder: String) throws -> RunLock {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Unavailable(path: path, reason: String(cString: strerror(errno))) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      let text = read(fd)
      close(fd)
      if failure == EWOULDBLOCK { throw Held(holder: text) }
      throw Unavailable(path: path, reason: String(cString: strerror(failure)))
    }
    _ = ftruncate(fd, 0)
    let line = Array((holder + "\n").utf8)
    _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    return RunLock(fd: fd)
  }

  /// What the lock file says, on one line; `nil` when empty.
  private static func read(_ fd: Int32) -> String? {
    var buffer = [UInt8](repeating: 0, count: 512)
    let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return nil }
    let text = String(decoding: buffer[0..<n], as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
    return text?.isEmpty == false ? text : nil
  }

  deinit {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
