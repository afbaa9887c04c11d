import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Tells the thread sanitizer, when the process runs under it, what a lock it cannot see
/// does: `__tsan_acquire` once the lock is taken, `__tsan_release` before it is given back.
/// The functions are looked up once at run time; in an ordinary build they are not there and
/// each call is one check of a `nil`.
enum ThreadSanitizer {
  private typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

  /// An address that stands for one lock.
  final class Token: Sendable {}

  private static let acquire: Hook? = hook("__tsan_acquire")
  private static let release: Hook? = hook("__tsan_release")

  private static func hook(_ name: String) -> Hook? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: Hook.self)
  }

  /// The lock `token` stands for has just been taken.
  static func acquired(_ token: Token) {
    acquire?(Unmanaged.passUnretained(token).toOpaque())
  }

  /// The lock `token` stands for is about to be given back.
  static func releasing(_ token: Token) {
    release?(Unmanaged.passUnretained(token).toOpaque())
  }
}
