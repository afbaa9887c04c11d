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
  /// The binary's version: a new Raon writes the week's report again.
  public var version = ""

  public init() {}

  /// How the ledger files the run.
  var kind: WeeklyRunRecord.Kind {
    deliverPending ? .deliverPending : resend ? .resend : week != nil ? .rerun : .scheduled
  }

  /// Whether the run pulls a catalog (this week's run; a rerun reports what the store holds).
  var pulls: Bool { week == nil && !deliverPending }
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
  /// A dry run's finding that the real run would fail (the pull fails now, a message is too large).
  public var problem: String?

  public init(week: ISOWeek) {
    self.week = week
  }
}
