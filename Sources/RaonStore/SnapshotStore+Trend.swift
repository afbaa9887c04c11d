import Foundation
import GRDB
import RaonCore

// MARK: - Reading a trend

/// What a trend needs of a stored program version: its program's id, category, district,
/// fee kind and days, and how many times a snapshot holds it.
public struct TrendVersion: Sendable, Hashable {
  /// `program_version.id`.
  public var versionID: Int64
  public var programID: String
  public var category: String
  public var district: String
  /// `nil` when unknown.
  public var isFree: Bool?
  public var startDate: CalendarDay?
  public var endDate: CalendarDay?
  public var registeredOn: CalendarDay?
  /// How many times each snapshot of the interval holds this exact record.
  public var copies: Int

  public init(
    versionID: Int64, programID: String, category: String, district: String, isFree: Bool?,
    startDate: CalendarDay?, endDate: CalendarDay?, registeredOn: CalendarDay?, copies: Int
  ) {
    self.versionID = versionID
    self.programID = programID
    self.category = category
    self.district = district
    self.isFree = isFree
    self.startDate = startDate
    self.endDate = endDate
    self.registeredOn = registeredOn
    self.copies = copies
  }
}

/// One snapshot of a series, given as the change from the snapshot before it in the
/// series: the versions that enter and the versions that leave.
///
/// Applying every step in order — remove `leaving`, then add `entering` — gives, after
/// step *k*, exactly the versions (with their copies) of the series' *k*-th snapshot.
public struct TrendStep: Sendable {
  public var snapshot: SnapshotInfo
  /// In this snapshot and not in the one before (every version for the first step). A
  /// version whose number of copies differs leaves with the old count and enters with the
  /// new one.
  public var entering: [TrendVersion]
  /// In the snapshot before and not in this one (none for the first step).
  public var leaving: [TrendVersion]

  package init(snapshot: SnapshotInfo, entering: [TrendVersion], leaving: [TrendVersion]) {
    self.snapshot = snapshot
    self.entering = entering
    self.leaving = leaving
  }
}

extension SnapshotStore {
  /// A series of snapshots as the changes between consecutive ones, read from the
  /// validity intervals alone: the cost grows with the number of snapshots and the
  /// number of versions that enter or leave, not with snapshots × catalog size.
  ///
  /// The presence rows whose interval meets the series' id range are read once, each
  /// with its version's trend columns; an interval holding the series' snapshots k…m
  /// (in series order) enters at step k and leaves at step m + 1. Snapshots may come in
  /// any id order (a historical file recorded later has a higher id than newer ones).
  ///
  /// ```swift
  /// let chosen = WeeklyTrend.choosePoints(try store.snapshots(), weeks: .max)
  /// for step in try store.trendSteps(chosen) { … }
  /// ```
  ///
  /// - Parameter snapshots: The series, in the order wanted (each snapshot once).
  /// - Returns: One step per snapshot, in the same order.
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when a snapshot is not in the store;
  ///   ``Error/corrupt(path:detail:)`` when a stored day does not read.
  public func trendSteps(_ snapshots: [SnapshotInfo]) throws -> [TrendStep] {
    guard !snapshots.isEmpty else { return [] }
    let ids = snapshots.map(\.id)
    // Series positions by snapshot id, to find the positions an interval covers.
    let byID = ids.indices.sorted { ids[$0] < ids[$1] }
    let sortedIDs = byID.map { ids[$0] }
    let ascending = byID == Array(ids.indices)
    return try translatingErrors(Error.readFailed) {
      try writer.read { db -> [TrendStep] in
        var steps = snapshots.map { TrendStep(snapshot: $0, entering: [], leaving: []) }
        for id in Set(ids) {
          guard try SnapshotRow.fetchOne(db, key: id) != nil else {
            throw Error.noSuchSnapshot(id: id, path: path)
          }
        }
        let rows = try Row.fetchCursor(
          db,
          sql: """
            SELECT p.version_id, p.first_snapshot_id, p.last_snapshot_id, p.copies,
              v.program_id, v.category, v.district, v.is_free, v.start_date, v.end_date,
              CASE coalesce(json_type(v.program_text, '$.registered_on'), 'null')
                WHEN 'text' THEN json_extract(v.program_text, '$.registered_on')
                WHEN 'null' THEN NULL ELSE '?' END
            FROM presence p JOIN program_version v ON v.id = p.version_id
            WHERE p.last_snapshot_id >= ?1 AND p.first_snapshot_id <= ?2
            """,
          arguments: [sortedIDs[0], sortedIDs[sortedIDs.count - 1]])
        // Days repeat across versions: parse each distinct text once.
        var days: [String: CalendarDay] = [:]
        func day(_ text: String?, _ column: String) throws -> CalendarDay? {
          guard let text else { return nil }
          if let known = days[text] { return known }
          guard let parsed = try ProgramVersion.day(text, column) else { return nil }
          days[text] = parsed
          return parsed
        }
        while let row = try rows.next() {
          let first: Int64 = row[1]
          let last: Int64 = row[2]
          let low = Self.firstPosition(in: sortedIDs, notBelow: first)
          let high = Self.firstPosition(in: sortedIDs, notBelow: last + 1)
          guard low < high else { continue }  // holds no snapshot of the series
          let versionID: Int64 = row[0]
          let registered: String? = row[10]
          if registered == "?" {
            throw DecodingFailure("program_text.registered_on of version \(versionID) is not text")
          }
          let version = TrendVersion(
            versionID: versionID, programID: row[4], category: row[5], district: row[6],
            isFree: row[7], startDate: try day(row[8], "start_date"),
            endDate: try day(row[9], "end_date"),
            registeredOn: try day(registered, "registered_on"),
            copies: row[3])
          if ascending {
            steps[low].entering.append(version)
            if high < steps.count { steps[high].leaving.append(version) }
          } else {
            // The series positions holding the interval, in series order, as runs.
            let positions = byID[low..<high].sorted()
            for (i, position) in positions.enumerated() {
              if i == 0 || positions[i - 1] != position - 1 {
                steps[position].entering.append(version)
              }
              if i == positions.count - 1 || positions[i + 1] != position + 1,
                position + 1 < steps.count
              {
                steps[position + 1].leaving.append(version)
              }
            }
          }
        }
        return steps
      }
    }
  }

  /// Binary search: the index of the first id that is `>= value`.
  private static func firstPosition(in ids: [Int64], notBelow value: Int64) -> Int {
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
