import Foundation

/// Lets go of large values on a thread of their own.
///
/// A weekly report at 20,000 programs ends holding about a million small strings (the raw
/// records and their programs); freeing them took ~0.1 s of a 1.3 s job on the thread that
/// then prints the result, with nothing left to overlap it (perf, `bench/PROFILING.md`).
/// Handed over here, they are freed while the command finishes, or not at all when the
/// process exits first: the system takes its memory back whole, as compilers do when they
/// skip freeing at exit.
public enum Disposal {
  /// Releases `value` on a new thread. The caller gives up its storage: when another
  /// reference to it is still held elsewhere, the last holder frees it instead.
  public static func release<T: Sendable>(_ value: consuming T) {
    let held = Held(value)
    Thread { held.value = nil }.start()
  }

  /// Owns the value until the thread lets it go (only that thread touches it then).
  private final class Held<T: Sendable>: @unchecked Sendable {
    var value: T?
    init(_ value: consuming T) { self.value = value }
  }
}
