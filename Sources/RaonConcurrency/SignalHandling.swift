import Foundation

/// Signals (SIGINT, SIGTERM) handled as ordinary code: each is caught by a dispatch source,
/// so its handler runs on a queue's thread, not inside a signal context, and may lock,
/// allocate and remove files.
public enum SignalHandling {
  /// The sources must live as long as the process.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  /// Ignores `numbers`' default action and runs `handler` with the signal's number when
  /// one arrives. For the process's start, before other threads exist.
  public static func install(_ numbers: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) {
    for number in numbers {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// Waits, without end, for a handler to end the process.
  public static func waitForTheHandler() -> Never {
    while true { pause() }
  }
}
