import Foundation

/// Lets go of large values on a thread of their own.
///
/// A weekly report at 20,000 programs ends holding about a million small strings (the raw
/// records and their programs), freed on the thread that then prints the result with
/// nothing left to overlap. Handed over here, they are freed while the command finishes,
/// or not at all when the process exits first: the system takes its memory back whole, as
/// compilers do when they skip freeing at exit. What it saves: docs/PERFORMANCE.md
/// ("Freeing off the main thread").
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
