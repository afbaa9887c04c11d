import Foundation

// MARK: - Deliveries
//
// One row per recipient of a week's message (or of a stale week's notice). A delivery is
// `pending` until the server takes it, `held` while a gate or `approve` keeps it for a
// look, `refused` when the server refused its address. A run claims a pending delivery
// before it sends it (``claim(_:run:)``): two runs on one store never send one twice,
// whatever lock each believes it holds.

extension RunLedger {
  /// Makes sure each recipient of `list` in `week` has a delivery of `kind`: a new one is
  /// pending (`held` when `hold`); with `resend`, one already sent (or refused) is pending
  /// (or held) again, every part of it to be sent anew (its Message-ID is forgotten). A run
  /// that does not hold makes the week's held ones of `kind` pending (a later run of the
  /// week passed its gates); one that holds holds its pending ones. Returns the deliveries
  /// of `list` in `week` that are now pending or held.
  public func plan(
    week: String, list: String, recipients: [String], resend: Bool, hold: Bool = false,
    kind: DeliveryRecord.Kind = .report, at date: Date
  ) throws -> [DeliveryRecord] {
    let status = hold ? "held" : "pending"
    let other = hold ? "pending" : "held"
    return try access.writing { c in
      let base: [StoreValue] = [.text(week), .text(list), .text(kind.rawValue), .text(Self.time(date)), .text(status)]
      for recipient in recipients {
        let values = base + [.text(recipient)]
        try c.execute(
          """
          INSERT INTO weekly_delivery (week, list, recipient, kind, status, updated_at) VALUES (?1, ?2, ?6, ?3, ?5, ?4)
          ON CONFLICT (week, list, recipient, kind) DO NOTHING
          """, values)
        if resend {
          try c.execute(
            """
            UPDATE weekly_delivery SET status = ?5, message_id = NULL, updated_at = ?4
            WHERE week = ?1 AND list = ?2 AND kind = ?3 AND recipient = ?6 AND status IN ('sent', 'refused')
            """, values)
        }
      }
      try c.execute(
        "UPDATE weekly_delivery SET status = ?5, updated_at = ?4 WHERE week = ?1 AND list = ?2 AND kind = ?3 AND status = ?6",
        base + [.text(other)])
      return try c.rows(
        """
        SELECT \(Self.deliveryColumns) FROM weekly_delivery WHERE week = ?1 AND list = ?2 AND kind = ?3 AND status IN ('pending', 'held')
        ORDER BY id
        """, [.text(week), .text(list), .text(kind.rawValue)]
      ).map(Self.delivery)
    }
  }

  /// Claims delivery `id` for run `runID` to send it now: `true` when it is still pending
  /// and no other run that is still running claimed it. One statement, so of two runs
  /// that try at once exactly one gets it (SQLite's write lock; PostgreSQL re-reads the
  /// row the other run changed before it decides).
  public func claim(_ id: Int64, run runID: Int64) throws -> Bool {
    try access.writing { c in
      try c.execute(
        """
        UPDATE weekly_delivery SET claim_run = ?2
        WHERE id = ?1 AND status = 'pending' AND (claim_run IS NULL OR claim_run = ?2
          OR NOT EXISTS (SELECT 1 FROM weekly_run r WHERE r.id = weekly_delivery.claim_run AND r.outcome = 'running'))
        """, [.integer(id), .integer(runID)])
    } == 1
  }

  /// Records one attempt of delivery `id` by run `runID`.
  public func record(_ attempt: DeliveryAttempt, delivery id: Int64, run runID: Int64, at date: Date) throws {
    let now = StoreValue.text(Self.time(date))
    try access.writing { c in
      switch attempt {
      case .sent(let messageID, let hash):
        try c.execute(
          """
          UPDATE weekly_delivery SET status = 'sent', attempts = attempts + 1, sends = sends + 1,
            message_id = ?2, document_hash = ?3, last_error = NULL, run_id = ?4, updated_at = ?5, sent_at = ?5
          WHERE id = ?1
          """, [.integer(id), .text(messageID), .text(hash), .integer(runID), now])
      case .partlySent(let messageIDs, let reason):
        try c.execute(
          """
          UPDATE weekly_delivery SET status = 'pending', attempts = attempts + 1, message_id = ?2, last_error = ?3,
            run_id = ?4, updated_at = ?5
          WHERE id = ?1
          """, [.integer(id), .text(messageIDs), .text(reason), .integer(runID), now])
      case .deferred(let reason), .refused(let reason):
        let status = if case .refused = attempt { "refused" } else { "pending" }
        try c.execute(
          """
          UPDATE weekly_delivery SET status = ?2, attempts = attempts + 1, last_error = ?3, run_id = ?4, updated_at = ?5
          WHERE id = ?1
          """, [.integer(id), .text(status), .text(reason), .integer(runID), now])
      }
    }
  }

  /// Records that the server took the parts `messageIDs` (space-separated) of a message in
  /// parts, as each is taken: a run killed before the next part is sent leaves the ledger
  /// saying what the server has, and the next run sends only the rest.
  public func notePartsTaken(_ messageIDs: String, delivery id: Int64, run runID: Int64, at date: Date) throws {
    try access.writing { c in
      try c.execute(
        "UPDATE weekly_delivery SET message_id = ?2, run_id = ?3, updated_at = ?4 WHERE id = ?1",
        [.integer(id), .text(messageIDs), .integer(runID), .text(Self.time(date))])
    }
  }

  /// Makes the held deliveries (of `week`, or of every week) pending; returns them.
  public func release(week: String? = nil, at date: Date) throws -> [DeliveryRecord] {
    try access.writing { c in
      let weekValue: [StoreValue] = week.map { [.text($0)] } ?? []
      let held = try c.rows(
        "SELECT \(Self.deliveryColumns) FROM weekly_delivery WHERE status = 'held'\(week == nil ? "" : " AND week = ?1") ORDER BY week, list, id",
        weekValue)
      try c.execute(
        "UPDATE weekly_delivery SET status = 'pending', updated_at = ?1 WHERE status = 'held'\(week == nil ? "" : " AND week = ?2")",
        [.text(Self.time(date))] + weekValue)
      return try held.map(Self.delivery).map {
        var released = $0
        released.status = .pending
        return released
      }
    }
  }

  /// Every pending delivery, oldest week first.
  public func pendingDeliveries() throws -> [DeliveryRecord] {
    try deliveries(status: .pending)
  }

  /// Every delivery with `status`, oldest week first.
  public func deliveries(status: DeliveryRecord.Status) throws -> [DeliveryRecord] {
    try access.reading { c in
      try c.rows("SELECT \(Self.deliveryColumns) FROM weekly_delivery WHERE status = ?1 ORDER BY week, list, id", [.text(status.rawValue)])
        .map(Self.delivery)
    }
  }

  /// The deliveries of `week` (every week when `nil`), by week, list and recipient.
  public func deliveries(week: String? = nil) throws -> [DeliveryRecord] {
    try access.reading { c in
      if let week {
        return try c.rows("SELECT \(Self.deliveryColumns) FROM weekly_delivery WHERE week = ?1 ORDER BY list, recipient, kind", [.text(week)])
          .map(Self.delivery)
      }
      return try c.rows("SELECT \(Self.deliveryColumns) FROM weekly_delivery ORDER BY week, list, recipient, kind").map(Self.delivery)
    }
  }
}
