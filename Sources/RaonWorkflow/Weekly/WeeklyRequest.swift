import Foundation
import RaonCore
import RaonDocument
import RaonErrors
import RaonStore

/// What `raon weekly` was asked to do.
public struct WeeklyRequest: Sendable {
  /// `--dry-run`: say what would be recorded, written and sent; change nothing.
  public var dryRun = false
  /// `--week`: a day of the week to run again (from that week's snapshot); `nil`: this week.
  public var week: CalendarDay?
  /// `--resend`: send the week's messages again, to everyone on the lists.
  public var resend = false
  /// `--deliver-pending`: only send what earlier runs left pending.
  public var deliverPending = false
  /// `--release`: send the deliveries a gate or `approve` held (of `week` when given).
  public var release = false
  /// The binary's version: a new Raon writes the week's report again.
  public var version = ""

  public init() {}

  /// How the ledger files the run.
  var kind: WeeklyRunRecord.Kind {
    release ? .release : deliverPending ? .deliverPending : resend ? .resend : week != nil ? .rerun : .scheduled
  }

  /// Whether the run pulls a catalog (this week's run; a rerun reports what the store holds).
  var pulls: Bool { week == nil && !deliverPending && !release }

  /// Whether the run writes a week's report (not when it only sends).
  var reports: Bool { !deliverPending && !release }
}

/// What `raon weekly` did.
public struct WeeklyOutcome: Sendable {
  /// The run's id in the ledger (`nil` for a dry run).
  public var runID: Int64?
  public var week: ISOWeek
  /// What was done, a line each, for the command to print.
  public var lines: [String] = []
  public var warnings: [String] = []
  public var sent = 0
  /// Deliveries pending after the run (every week).
  public var pending = 0
  public var refused = 0
  /// Deliveries held after the run (every week).
  public var held = 0
  /// A dry run's finding that the real run would fail (the pull fails now, a message is too large).
  public var problem: String?
  /// Whether the week went out, and if not, why.
  public var verdict: Verdict = .sent

  /// Whether a run sent its week.
  public enum Verdict: Sendable, Equatable {
    /// Published and sent (or nothing needed sending).
    case sent
    /// No new data: nothing (or only a notice) sent to the offices; the reason in one line.
    case stale(String)
    /// Written, but the deliveries are held for a look (a gate tripped, or `approve`).
    case held(String)
  }

  public init(week: ISOWeek) {
    self.week = week
  }
}
