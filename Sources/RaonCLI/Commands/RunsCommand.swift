import ArgumentParser
import Foundation
import RaonErrors
import RaonStore
import RaonWorkflow

struct RunsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "runs",
    abstract: "List the weekly runs and deliveries recorded in the store, and say whether the service is well.",
    discussion: """
      For a monitoring system: exits 1 when the last scheduled run failed (or was interrupted) or none ran in the last 8 days, 66 when it was stale (no new data: nothing sent), 65 when deliveries are held for 'raon weekly --release', 75 when deliveries are pending, 0 otherwise; the problem is one line on standard error.

      Examples:
        raon runs
        raon runs --json | python3 -m json.tool
      """)

  @OptionGroup var store: StoreOptions

  @Flag(name: .long, help: "Print JSON: {healthy, problem, runs: [...], deliveries: [...]}.")
  var json = false

  @Option(name: .long, help: ArgumentHelp("How many runs to list, newest first. Default 20.", valueName: "n"))
  var limit = 20

  func validate() throws {
    if limit < 1 { throw ValidationError("--limit must be 1 or more (got \(limit))") }
  }

  func run() async throws {
    var now = Date()
    if let clock = try WeeklyClock.fromEnvironment(ProcessInfo.processInfo.environment) { now = clock() }
    let ledger = try store.openStore(readOnly: true).ledger
    let runs = try ledger.runs(limit: limit)
    let pending = try ledger.pendingDeliveries()
    let held = try ledger.deliveries(status: .held)
    let shownWeeks = Set(runs.prefix(1).map(\.week))
    let deliveries = try (shownWeeks.first.map { try ledger.deliveries(week: $0) } ?? [])
      + (pending + held).filter { !shownWeeks.contains($0.week) }
    let hostName = WeeklyJob.hostName()
    let health = RunsListing.health(
      lastScheduled: try ledger.lastRun(kind: .scheduled), pending: pending.count, held: held.count, now: now,
      host: hostName)
    if json {
      print(RunsListing.json(runs, deliveries: deliveries, health: health))
    } else {
      print(RunsListing.table(runs, deliveries: deliveries, health: health), terminator: "")
    }
    if let problem = health.problem, let status = health.status {
      throw RunsProblem(problem: problem, status: status)
    }
  }
}

/// `raon runs` found the service unwell: its one line, and its status.
struct RunsProblem: RaonError, CustomStringConvertible {
  var problem: String
  var status: ExitStatus
  var description: String { problem }
  var exitStatus: ExitStatus { status }
}
