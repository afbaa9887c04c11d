import Foundation

/// The ledger of `raon weekly` in the store, beside the snapshots: each run, each recipient
/// list's message of a week and each delivery (tables `weekly_run`, `weekly_message`,
/// `weekly_delivery`; SCHEMA.md). Written once for both databases over ``StoreConnection``;
/// every change is one short transaction of its own, so a run killed anywhere leaves every
/// row whole.
///
/// ```swift
/// let ledger = store.ledger
/// let run = try ledger.beginRun(kind: .scheduled, week: "2025-08-18", at: now, host: host, pid: pid)
/// ```
public struct RunLedger: Sendable {
  let access: StoreAccess

  public init(access: StoreAccess) {
    self.access = access
  }

  // MARK: - Runs

  /// Records a run that starts now; returns its id.
  public func beginRun(kind: WeeklyRunRecord.Kind, week: String, at date: Date, host: String, pid: Int) throws -> Int64 {
    try access.writing { c in
      let rows = try c.rows(
        """
        INSERT INTO weekly_run (kind, week, started_at, host, pid, outcome)
        VALUES (?1, ?2, ?3, ?4, ?5, 'running') RETURNING id
        """, [.text(kind.rawValue), .text(week), .text(Self.time(date)), .text(host), .integer(Int64(pid))])
      guard let id = try rows.first?.first(Int64.self) else { throw DecodingFailure("the new run has no id") }
      return id
    }
  }

  /// What a run learnt on its way, kept as soon as it is known (so a run that fails later
  /// still says which snapshot it recorded).
  public struct Progress: Sendable, Equatable {
    public var snapshotID: Int64?
    public var recorded: Bool?
    public var catalogDigest: String?
    public var reportKey: String?
    public var siteKey: String?
    /// The figures of the run's gates (JSON).
    public var gates: String?

    public init(
      snapshotID: Int64? = nil, recorded: Bool? = nil, catalogDigest: String? = nil, reportKey: String? = nil,
      siteKey: String? = nil, gates: String? = nil
    ) {
      self.snapshotID = snapshotID
      self.recorded = recorded
      self.catalogDigest = catalogDigest
      self.reportKey = reportKey
      self.siteKey = siteKey
      self.gates = gates
    }
  }

  /// Notes what is given in `progress` (`nil` fields are left as they are).
  public func note(run id: Int64, _ progress: Progress) throws {
    var sets: [String] = []
    var values: [StoreValue] = [.integer(id)]
    func set(_ column: String, _ value: StoreValue?) {
      guard let value else { return }
      values.append(value)
      sets.append("\(column) = ?\(values.count)")
    }
    set("snapshot_id", progress.snapshotID.map { .integer($0) })
    set("recorded", progress.recorded.map { .integer($0 ? 1 : 0) })
    set("catalog_digest", progress.catalogDigest.map { .text($0) })
    set("report_key", progress.reportKey.map { .text($0) })
    set("site_key", progress.siteKey.map { .text($0) })
    set("gates", progress.gates.map { .text($0) })
    guard !sets.isEmpty else { return }
    try access.writing { c in
      try c.execute("UPDATE weekly_run SET \(sets.joined(separator: ", ")) WHERE id = ?1", values)
    }
  }

  /// Records how the run ended.
  public func finishRun(
    _ id: Int64, outcome: WeeklyRunRecord.Outcome, at date: Date, failedStep: String? = nil, reason: String? = nil,
    sent: Int = 0, pending: Int = 0, refused: Int = 0
  ) throws {
    try access.writing { c in
      try c.execute(
        """
        UPDATE weekly_run SET outcome = ?2, ended_at = ?3, failed_step = ?4, reason = ?5, sent = ?6,
          pending = ?7, refused = ?8 WHERE id = ?1
        """,
        [
          .integer(id), .text(outcome.rawValue), .text(Self.time(date)), failedStep.map { .text($0) } ?? .null,
          reason.map { .text($0) } ?? .null, .integer(Int64(sent)), .integer(Int64(pending)), .integer(Int64(refused)),
        ])
    }
  }

  /// Marks as interrupted the runs still `running` other than `id`, of every machine: they
  /// ended without finishing (a kill, a power cut, a machine gone), since the caller holds
  /// the store's run lock (``takeRunLock()``), which a live run would hold.
  @discardableResult
  public func closeAbandonedRuns(except id: Int64, at date: Date) throws -> Int {
    try access.writing { c in
      try c.execute(
        """
        UPDATE weekly_run SET outcome = 'interrupted', ended_at = ?2,
          reason = coalesce(reason, 'the run ended without finishing (killed or stopped)')
        WHERE outcome = 'running' AND id <> ?1
        """, [.integer(id), .text(Self.time(date))])
    }
  }

  /// The last `limit` runs, newest first.
  public func runs(limit: Int = 20) throws -> [WeeklyRunRecord] {
    try access.reading { c in
      try c.rows("SELECT \(Self.runColumns) FROM weekly_run ORDER BY id DESC LIMIT ?1", [.integer(Int64(limit))]).map(Self.run)
    }
  }

  /// The latest run of `kind`, if any.
  public func lastRun(kind: WeeklyRunRecord.Kind) throws -> WeeklyRunRecord? {
    try access.reading { c in
      try c.rows("SELECT \(Self.runColumns) FROM weekly_run WHERE kind = ?1 ORDER BY id DESC LIMIT 1", [.text(kind.rawValue)])
        .first.map(Self.run)
    }
  }

  /// The latest run of `week` that published its report: its key is noted once the report
  /// and its messages are in place, so a run that failed or was killed after that (at the
  /// site, while sending) or that held its deliveries published it all the same.
  public func lastPublished(week: String) throws -> WeeklyRunRecord? {
    try access.reading { c in
      try c.rows(
        "SELECT \(Self.runColumns) FROM weekly_run WHERE week = ?1 AND report_key IS NOT NULL ORDER BY id DESC LIMIT 1", [.text(week)]
      ).first.map(Self.run)
    }
  }

  /// The earliest run of a week before `week` that published a report of snapshot `id`
  /// (sent, held or still pending): a week that would report it again has nothing new.
  public func reportedEarlier(snapshot id: Int64, before week: String) throws -> WeeklyRunRecord? {
    try access.reading { c in
      try c.rows(
        """
        SELECT \(Self.runColumns) FROM weekly_run WHERE snapshot_id = ?1 AND week < ?2 AND report_key IS NOT NULL
        ORDER BY week, id LIMIT 1
        """, [.integer(id), .text(week)]
      ).first.map(Self.run)
    }
  }

  /// The latest run of `week` that ended `outcome`.
  public func lastRun(week: String, outcome: WeeklyRunRecord.Outcome) throws -> WeeklyRunRecord? {
    try access.reading { c in
      try c.rows(
        "SELECT \(Self.runColumns) FROM weekly_run WHERE week = ?1 AND outcome = ?2 ORDER BY id DESC LIMIT 1",
        [.text(week), .text(outcome.rawValue)]
      ).first.map(Self.run)
    }
  }

  /// The key of the last site a run published, if any.
  public func lastSiteKey() throws -> String? {
    try access.reading { c in
      try c.value(
        "SELECT site_key FROM weekly_run WHERE site_key IS NOT NULL AND outcome IN ('succeeded', 'partial') ORDER BY id DESC LIMIT 1"
      )
    }
  }

  /// The catalog digest a run noted for the snapshot it recorded, if any.
  public func catalogDigest(ofSnapshot id: Int64) throws -> String? {
    try access.reading { c in
      try c.value(
        "SELECT catalog_digest FROM weekly_run WHERE snapshot_id = ?1 AND recorded = 1 AND catalog_digest IS NOT NULL ORDER BY id DESC LIMIT 1",
        [.integer(id)])
    }
  }

  // MARK: - Messages

  /// Keeps what `message.list` is sent in `message.week` (replacing an earlier version).
  public func saveMessage(_ message: WeeklyMessageRecord) throws {
    try access.writing { c in
      try c.execute(
        """
        INSERT INTO weekly_message (week, list, subject, summary, attachments, document_hash, updated_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (week, list) DO UPDATE SET subject = excluded.subject, summary = excluded.summary,
          attachments = excluded.attachments, document_hash = excluded.document_hash, updated_at = excluded.updated_at
        """,
        [
          .text(message.week), .text(message.list), .text(message.subject), .text(message.summary),
          .text(message.attachments), .text(message.documentHash), .text(Self.time(message.updatedAt)),
        ])
    }
  }

  /// The messages of `week`, by list.
  public func messages(week: String) throws -> [WeeklyMessageRecord] {
    try access.reading { c in
      try c.rows("SELECT \(Self.messageColumns) FROM weekly_message WHERE week = ?1 ORDER BY list", [.text(week)]).map(Self.message)
    }
  }

  // MARK: - Rows

  // Every read names its columns: a connection that read the schema before another one
  // migrated it compiles `SELECT *` against the old tables (no error tells it otherwise), and
  // its rows would lack the new columns; a named column it does not know makes SQLite read
  // the schema again.
  static let runColumns = """
    id, kind, week, started_at, ended_at, host, pid, outcome, failed_step, reason, snapshot_id, recorded, \
    catalog_digest, report_key, site_key, sent, pending, refused, gates
    """
  static let deliveryColumns = """
    id, week, list, recipient, kind, status, attempts, sends, document_hash, message_id, last_error, run_id, \
    updated_at, sent_at, claim_run
    """
  static let messageColumns = "week, list, subject, summary, attachments, document_hash, updated_at"

  static func time(_ date: Date) -> String { ISOTimestamp.format(date) ?? "0001-01-01T00:00:00.000Z" }

  static func date(_ row: StoreRow, _ column: String) throws -> Date? {
    guard let text: String = try row.get(column) else { return nil }
    guard let date = ISOTimestamp.parse(text) else { throw DecodingFailure("column \(column) holds '\(text)', not a time") }
    return date
  }

  static func run(_ row: StoreRow) throws -> WeeklyRunRecord {
    let kindText: String = try row.get("kind")
    let outcomeText: String = try row.get("outcome")
    guard let kind = WeeklyRunRecord.Kind(rawValue: kindText),
      let outcome = WeeklyRunRecord.Outcome(rawValue: outcomeText), let started = try date(row, "started_at")
    else { throw DecodingFailure("a weekly_run row is not one Raon wrote") }
    return WeeklyRunRecord(
      id: try row.get("id"), kind: kind, week: try row.get("week"), startedAt: started,
      endedAt: try date(row, "ended_at"), host: try row.get("host"), pid: try row.get("pid"), outcome: outcome,
      failedStep: try row.get("failed_step"), reason: try row.get("reason"), snapshotID: try row.get("snapshot_id"),
      recorded: (try row.get("recorded", as: Int.self)) == 1, catalogDigest: try row.get("catalog_digest"),
      reportKey: try row.get("report_key"), siteKey: try row.get("site_key"), sent: try row.get("sent"),
      pending: try row.get("pending"), refused: try row.get("refused"), gates: try row.get("gates"))
  }

  static func message(_ row: StoreRow) throws -> WeeklyMessageRecord {
    guard let updated = try date(row, "updated_at") else { throw DecodingFailure("a weekly_message row has no time") }
    return WeeklyMessageRecord(
      week: try row.get("week"), list: try row.get("list"), subject: try row.get("subject"),
      summary: try row.get("summary"), attachments: try row.get("attachments"),
      documentHash: try row.get("document_hash"), updatedAt: updated)
  }

  static func delivery(_ row: StoreRow) throws -> DeliveryRecord {
    let statusText: String = try row.get("status")
    guard let status = DeliveryRecord.Status(rawValue: statusText), let updated = try date(row, "updated_at") else {
      throw DecodingFailure("a weekly_delivery row is not one Raon wrote")
    }
    let kindText: String = try row.get("kind")
    guard let kind = DeliveryRecord.Kind(rawValue: kindText) else {
      throw DecodingFailure("a weekly_delivery row is not one Raon wrote")
    }
    return DeliveryRecord(
      id: try row.get("id"), week: try row.get("week"), list: try row.get("list"),
      recipient: try row.get("recipient"), kind: kind, status: status, attempts: try row.get("attempts"),
      sends: try row.get("sends"), documentHash: try row.get("document_hash"), messageID: try row.get("message_id"),
      lastError: try row.get("last_error"), runID: try row.get("run_id"), updatedAt: updated,
      sentAt: try date(row, "sent_at"), claimRun: try row.get("claim_run"))
  }
}

extension SnapshotStoring {
  /// The ledger of weekly runs and deliveries kept in this store.
  public var ledger: RunLedger { RunLedger(access: storeAccess) }
}
