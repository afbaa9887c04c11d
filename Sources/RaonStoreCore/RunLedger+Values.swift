import Foundation

/// One `raon weekly` run as the ledger keeps it.
public struct WeeklyRunRecord: Sendable, Equatable, Codable {
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// The Monday routine (`raon weekly` with no flag that changes what it does).
    case scheduled
    /// `--week`: a past week again, from its snapshot.
    case rerun
    /// `--resend`: sent again on purpose.
    case resend
    /// `--deliver-pending`: only what is pending.
    case deliverPending = "deliver-pending"
    /// `--release`: the deliveries a gate or `approve` held, sent after a look.
    case release
  }

  public enum Outcome: String, Sendable, Codable, CaseIterable {
    case running, succeeded
    /// Published, but some deliveries were left pending or refused.
    case partial
    case failed
    /// Ended without finishing (killed, or stopped by a signal).
    case interrupted
    /// Found no new data (the snapshot an earlier week reported, or data older than
    /// `max_age`): nothing sent to the offices.
    case stale
    /// Wrote the week's report, but a gate tripped (or `approve` is set): the deliveries
    /// are held until `raon weekly --release`.
    case held
  }

  public var id: Int64
  public var kind: Kind
  /// The Monday of the week, `YYYY-MM-DD`.
  public var week: String
  public var startedAt: Date
  public var endedAt: Date?
  public var host: String
  public var pid: Int
  public var outcome: Outcome
  /// `pull`, `record`, `report`, `site` or `deliver`.
  public var failedStep: String?
  public var reason: String?
  public var snapshotID: Int64?
  /// Whether this run recorded that snapshot.
  public var recorded: Bool
  /// What identifies the catalog it pulled: the file's SHA-256, or a digest of the API's records.
  public var catalogDigest: String?
  /// What the week's report was made from (the same key: nothing to rewrite).
  public var reportKey: String?
  /// What the site was made from.
  public var siteKey: String?
  public var sent: Int
  public var pending: Int
  public var refused: Int
  /// The figures of the run's gates, as JSON (``WeeklyGate``s in the weekly module), when
  /// they were checked.
  public var gates: String?

  public init(
    id: Int64, kind: Kind, week: String, startedAt: Date, endedAt: Date? = nil, host: String, pid: Int,
    outcome: Outcome, failedStep: String? = nil, reason: String? = nil, snapshotID: Int64? = nil,
    recorded: Bool = false, catalogDigest: String? = nil, reportKey: String? = nil, siteKey: String? = nil,
    sent: Int = 0, pending: Int = 0, refused: Int = 0, gates: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.week = week
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.host = host
    self.pid = pid
    self.outcome = outcome
    self.failedStep = failedStep
    self.reason = reason
    self.snapshotID = snapshotID
    self.recorded = recorded
    self.catalogDigest = catalogDigest
    self.reportKey = reportKey
    self.siteKey = siteKey
    self.sent = sent
    self.pending = pending
    self.refused = refused
    self.gates = gates
  }
}

/// What one recipient list is sent in one week.
public struct WeeklyMessageRecord: Sendable, Equatable {
  public var week: String
  /// `city` or a district's name.
  public var list: String
  public var subject: String
  /// Page 1 of the report, as JSON (the mail module's summary).
  public var summary: String
  /// The files attached, as JSON.
  public var attachments: String
  /// SHA-256 of the attached files together.
  public var documentHash: String
  public var updatedAt: Date

  public init(
    week: String, list: String, subject: String, summary: String, attachments: String, documentHash: String,
    updatedAt: Date
  ) {
    self.week = week
    self.list = list
    self.subject = subject
    self.summary = summary
    self.attachments = attachments
    self.documentHash = documentHash
    self.updatedAt = updatedAt
  }
}

/// One recipient's delivery of a week's message.
public struct DeliveryRecord: Sendable, Equatable, Codable {
  public enum Status: String, Sendable, Codable, CaseIterable {
    /// Not (yet) taken by the server: the next run sends it.
    case pending
    case sent
    /// The server refused the address for good.
    case refused
    /// Held by a gate or `approve` until `raon weekly --release`.
    case held
  }

  /// What is delivered.
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// The week's report (page 1 and the files).
    case report
    /// A short notice that the week's data did not change (a stale week, `stale_notice`).
    case notice
  }

  public var id: Int64
  public var week: String
  public var list: String
  public var recipient: String
  public var kind: Kind
  public var status: Status
  public var attempts: Int
  /// How many times the server took it (more than 1 after `--resend`).
  public var sends: Int
  /// SHA-256 of the files of what was last sent.
  public var documentHash: String?
  public var messageID: String?
  public var lastError: String?
  /// The run that last tried it.
  public var runID: Int64?
  public var updatedAt: Date
  public var sentAt: Date?
  /// The run that claimed it to send it (two runs never send one delivery twice).
  public var claimRun: Int64?

  public init(
    id: Int64, week: String, list: String, recipient: String, kind: Kind = .report, status: Status, attempts: Int,
    sends: Int, documentHash: String?, messageID: String?, lastError: String?, runID: Int64?, updatedAt: Date,
    sentAt: Date?, claimRun: Int64? = nil
  ) {
    self.id = id
    self.week = week
    self.list = list
    self.recipient = recipient
    self.kind = kind
    self.status = status
    self.attempts = attempts
    self.sends = sends
    self.documentHash = documentHash
    self.messageID = messageID
    self.lastError = lastError
    self.runID = runID
    self.updatedAt = updatedAt
    self.sentAt = sentAt
    self.claimRun = claimRun
  }
}

/// How one attempt to deliver ended.
public enum DeliveryAttempt: Sendable, Equatable {
  /// `messageID`: the Message-IDs of its parts, space-separated, when it went in parts.
  case sent(messageID: String, documentHash: String)
  /// Not taken now; tried again by the next run.
  case deferred(reason: String)
  /// Some parts of a message in parts were taken (`messageIDs`, space-separated), not the
  /// rest: pending, and the next run sends only the parts not taken.
  case partlySent(messageIDs: String, reason: String)
  case refused(reason: String)
}
