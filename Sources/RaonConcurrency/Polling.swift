import Foundation

/// Waiting for something that gives no signal when it happens — a child process's exit
/// (reaping it would free its id too soon), a folder another process or thread may still
/// be writing into: the one place outside the locks that sleeps.
public enum Polling {
  /// Asks `done` at once, then every `interval` seconds, until it says yes or `timeout`
  /// seconds have passed.
  ///
  /// - Returns: Whether `done` said yes in time.
  @discardableResult
  public static func until(timeout: TimeInterval, every interval: TimeInterval, _ done: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if done() { return true }
      if Date() >= deadline { return false }
      Thread.sleep(forTimeInterval: interval)
    }
  }
}
