import Foundation
import PostgresNIO
import RaonCore
import RaonStore

// MARK: - Trends, details and deletion (the SQLite store's queries, in PostgreSQL's words)

extension PostgresSnapshotStore {
  /// A series as the versions entering and leaving at each step (see
  /// ``SnapshotStore/trendSteps(_:)``); a step's lists are sets, here in `presence` key order.
  public func trendSteps(_ snapshots: [SnapshotInfo]) throws -> [TrendStep] {
    guard !snapshots.isEmpty else { return [] }
    let ids = snapshots.map(\.id)
    let byID = ids.indices.sorted { ids[$0] < ids[$1] }
    let sortedIDs = byID.map { ids[$0] }
    let ascending = byID == Array(ids.indices)
    return try reading { connection -> [TrendStep] in
      var steps = snapshots.map { TrendStep(snapshot: $0, entering: [], leaving: []) }
      for id in Set(ids) where try Self.snapshotRows(connection, id: id).isEmpty {
        throw SnapshotStore.Error.noSuchSnapshot(id: id, path: location)
      }
      let rows = try connection.query(
        """
        SELECT p.version_id, p.first_snapshot_id, p.last_snapshot_id, p.copies,
          v.program_id, v.category, v.district, v.is_free, v.start_date, v.end_date,
          CASE coalesce(jsonb_typeof(v.program_text::jsonb -> 'registered_on'), 'null')
            WHEN 'string' THEN v.program_text::jsonb ->> 'registered_on'
            WHEN 'null' THEN NULL ELSE '?' END
        FROM presence p JOIN program_version v ON v.id = p.version_id
        WHERE p.last_snapshot_id >= \(sortedIDs[0]) AND p.first_snapshot_id <= \(sortedIDs[sortedIDs.count - 1])
        ORDER BY p.version_id, p.first_snapshot_id
        """)
      var days: [String: CalendarDay] = [:]
      func day(_ text: String?, _ column: String) throws -> CalendarDay? {
        guard let text else { return nil }
        if let known = days[text] { return known }
        guard let parsed = try ProgramVersion.day(text, column) else { return nil }
        days[text] = parsed
        return parsed
      }
      for row in rows {
        let (versionID, first, last, copies, programID, category, district, isFree, start, end, registered) =
          try row.decode((Int64, Int64, Int64, Int64, String, String, String, Bool?, String?, String?, String?).self)
        let low = Self.firstPosition(in: sortedIDs, notBelow: first)
        let high = Self.firstPosition(in: sortedIDs, notBelow: last + 1)
        guard low < high else { continue }
        if registered == "?" {
          throw DecodingFailure("program_text.registered_on of version \(versionID) is not text")
        }
        let version = TrendVersion(
          versionID: versionID, programID: programID, category: category, district: district,
          isFree: isFree, startDate: try day(start, "start_date"), endDate: try day(end, "end_date"),
          registeredOn: try day(registered, "registered_on"), copies: Int(copies))
        if ascending {
          steps[low].entering.append(version)
          if high < steps.count { steps[high].leaving.append(version) }
        } else {
          let positions = byID[low..<high].sorted()
          for (i, position) in positions.enumerated() {
            if i == 0 || positions[i - 1] != position - 1 {
              steps[position].entering.append(version)
            }
            if i == positions.count - 1 || positions[i + 1] != position + 1, position + 1 < steps.count {
              steps[position + 1].leaving.append(version)
            }
          }
        }
      }
      return steps
    }
  }

  private static func firstPosition(in ids: [Int64], notBelow value: Int64) -> Int {
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  public func details(snapshot id: Int64) throws -> SnapshotDetails {
    let found: SnapshotDetails? = try reading { connection -> SnapshotDetails? in
      guard let row = try Self.snapshotRows(connection, id: id).first else { return nil }
      func count(_ query: PostgresQuery) throws -> Int {
        Int(try connection.query(query).first?.decode(Int64.self) ?? 0)
      }
      let distinct = try count(
        """
        SELECT count(DISTINCT v.program_id) FROM presence p JOIN program_version v ON v.id = p.version_id
        WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)
        """)
      let versions = try count(
        "SELECT count(*) FROM presence p WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)")
      let firstSeen = try count(
        """
        SELECT count(*) FROM presence p WHERE p.first_snapshot_id = \(id)
          AND NOT EXISTS (SELECT 1 FROM presence q
            WHERE q.version_id = p.version_id AND q.first_snapshot_id < \(id))
        """)
      let sets = try connection.query(
        """
        SELECT f.names, sum(p.copies)::bigint FROM presence p
        JOIN program_version v ON v.id = p.version_id
        JOIN field_set f ON f.id = v.field_set_id
        WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)
        GROUP BY f.id ORDER BY 2 DESC, f.id
        """)
      let fieldSets: [(names: [String], programs: Int)] = try sets.map { set in
        let (text, programs) = try set.decode((String, Int64).self)
        guard let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
          throw DecodingFailure("a field set is not a JSON list of names")
        }
        return (names, Int(programs))
      }
      return SnapshotDetails(
        snapshot: try row.info(), inputSHA256: row.inputSHA256, distinctPrograms: distinct,
        versionCount: versions, versionsFirstSeen: firstSeen,
        unchangedSince: try Self.unchangedSince(id, connection), fieldSets: fieldSets)
    }
    guard let found else { throw SnapshotStore.Error.noSuchSnapshot(id: id, path: location) }
    return found
  }

  /// Deletes a snapshot as the SQLite store does (see ``SnapshotStore/deleteSnapshot(id:dryRun:)``),
  /// under the writers' lock; a dry run does the same work and rolls it back.
  public func deleteSnapshot(id: Int64, dryRun: Bool) throws -> SnapshotDeletion {
    let address = self.address
    return try withConnection(SnapshotStore.Error.recordFailed) { connection in
      try connection.run("BEGIN")
      do {
        try PostgresSchema.lockWriters(connection, address)
        let outcome = try delete(id, connection)
        try connection.run(dryRun ? "ROLLBACK" : "COMMIT")
        return outcome
      } catch {
        try? connection.run("ROLLBACK")
        throw error
      }
    }
  }

  private func delete(_ id: Int64, _ connection: BlockingConnection) throws -> SnapshotDeletion {
    guard let row = try Self.snapshotRows(connection, id: id).first else {
      throw SnapshotStore.Error.noSuchSnapshot(id: id, path: location)
    }
    let info = try row.info()
    func optionalID(_ query: PostgresQuery) throws -> Int64? {
      try connection.query(query).first?.decode(Int64?.self) ?? nil
    }
    func changed(_ query: PostgresQuery) throws -> Int {
      try connection.query(query).metadata.rows ?? 0
    }
    let previous = try optionalID("SELECT max(id) FROM snapshot WHERE id < \(id)")
    let next = try optionalID("SELECT min(id) FROM snapshot WHERE id > \(id)")
    let onlyHere = try connection.query(
      """
      SELECT version_id FROM presence WHERE first_snapshot_id = \(id) AND last_snapshot_id = \(id)
      EXCEPT SELECT version_id FROM presence WHERE NOT (first_snapshot_id = \(id) AND last_snapshot_id = \(id))
      """
    ).map { try $0.decode(Int64.self) }
    let intervalsRemoved = try changed(
      "DELETE FROM presence WHERE first_snapshot_id = \(id) AND last_snapshot_id = \(id)")
    var shortened = 0
    if let next {
      shortened += try changed("UPDATE presence SET first_snapshot_id = \(next) WHERE first_snapshot_id = \(id)")
    }
    if let previous {
      shortened += try changed("UPDATE presence SET last_snapshot_id = \(previous) WHERE last_snapshot_id = \(id)")
    }
    var joined = 0
    if let previous, let next {
      let pairs = try connection.query(
        """
        SELECT a.version_id, a.first_snapshot_id, b.last_snapshot_id
        FROM presence a JOIN presence b
          ON b.version_id = a.version_id AND b.first_snapshot_id = \(next) AND b.copies = a.copies
        WHERE a.last_snapshot_id = \(previous)
        """)
      for pair in pairs {
        let (version, first, last) = try pair.decode((Int64, Int64, Int64).self)
        try connection.query("DELETE FROM presence WHERE version_id = \(version) AND first_snapshot_id = \(next)")
        try connection.query(
          "UPDATE presence SET last_snapshot_id = \(last) WHERE version_id = \(version) AND first_snapshot_id = \(first)")
      }
      joined = pairs.count
    }
    try connection.query("DELETE FROM snapshot WHERE id = \(id)")
    let versionsRemoved = try changed("DELETE FROM program_version WHERE id = ANY(\(onlyHere)::bigint[])")
    let fieldSetsRemoved = try changed(
      "DELETE FROM field_set WHERE id NOT IN (SELECT DISTINCT field_set_id FROM program_version)")
    let stray = Int(
      try connection.query(
        "SELECT count(*) FROM presence WHERE first_snapshot_id = \(id) OR last_snapshot_id = \(id)"
      ).first?.decode(Int64.self) ?? 0)
    guard stray == 0 else {
      throw DecodingFailure("\(stray) presence intervals still refer to snapshot \(id)")
    }
    return SnapshotDeletion(
      snapshot: info, versionsRemoved: versionsRemoved, intervalsRemoved: intervalsRemoved,
      intervalsShortened: shortened, intervalsJoined: joined, fieldSetsRemoved: fieldSetsRemoved)
  }
}
