import Foundation
import RaonConcurrency
import RaonWorkflow

/// SIGINT (Ctrl-C) and SIGTERM: stop, remove what this run staged, exit 130 or 143.
///
/// The handler runs as ordinary code, not inside a signal context (``SignalHandling``). It
/// interrupts the run (``Interruption/process``):
/// waiting for a publication in progress to finish (so the old or the new report is in
/// place), it removes every report folder this run staged, ends a printing Chromium and
/// removes its temporary folder, and exits. An SQLite transaction that has not committed
/// is rolled back by SQLite itself when the process ends: the store keeps only committed
/// snapshots.
enum SignalGuard {
  static func install() {
    SignalHandling.install([SIGINT, SIGTERM]) { stop($0) }
  }

  /// Whether an interrupt is being handled: the run's own failure (Chromium ended by the
  /// handler, a staged folder removed under a writer) must not exit first with status 1.
  static var isStopping: Bool { Interruption.process.isInterrupted }

  /// For the main thread once an interrupt is being handled: waits for the handler's exit.
  static func waitForTheHandler() -> Never {
    SignalHandling.waitForTheHandler()
  }

  private static func stop(_ number: Int32) -> Never {
    var left: [String] = []
    var published = false
    Interruption.process.interrupt {
      left = OutputPublisher.removeStaged()
      published = OutputPublisher.hasPublished
      // Chromium runs in a process group of its own, which a terminal's Ctrl-C misses.
      PrintScratch.endAll()
    }
    Console.endProgress()
    let name = number == SIGINT ? "SIGINT" : "SIGTERM"
    // Said only when it is true: a folder that could not be emptied is named.
    let staged =
      left.isEmpty
      ? "what this run had staged was removed"
      : "\(left[0]) could not be removed entirely (the next run removes it)"
    // A publication finished before the interrupt took hold stays (whole).
    let outcome = published ? "what it had published before stays" : "nothing was published"
    Console.error(
      "Error: interrupted by \(name) — \(staged) and \(outcome); "
        + "the store keeps only snapshots that had been committed")
    _exit(128 + number)
  }
}
