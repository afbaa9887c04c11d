import Foundation
import GRDB
import RaonCore

/// Records snapshots inside one transaction of ``SnapshotStore/recordingTogether(_:)``.
/// Valid only inside that call.
public final class SnapshotRecorder: SnapshotRecording {
  private let db: Database
  private let path: String
  private let shrinkGuard: ShrinkGuard?
  /// Whether a failure came from the database (it is then translated into the store's
  /// error) rather than from a producer or a refusal.
  private(set) var storeFailed = false

  init(db: Database, path: String, shrinkGuard: ShrinkGuard?) {
    self.db = db
    self.path = path
    self.shrinkGuard = shrinkGuard
  }

  /// Records one snapshot (see ``SnapshotStore/record(takenAt:source:_:)``); it commits
  /// with the others of the transaction.
  ///
  /// - Throws: What `produce` throws, ``ShrinkRefused``, or the store's errors.
  @discardableResult
  public func record(
    takenAt date: Date, source: String, _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo {
    guard let takenAt = ISOTimestamp.format(date) else {
      throw SnapshotStore.Error.recordFailed(
        path: path,
        reason: "the snapshot time \(date.timeIntervalSince1970) s since 1970 is outside the years 1-9999; give a real --taken-at")
    }
    let sink: SnapshotSink
    do {
      sink = try SnapshotSink(db)
    } catch {
      storeFailed = true
      throw error
    }
    let sourceTotal: Int?
    do {
      sourceTotal = try produce(sink)
    } catch {
      if sink.failed { storeFailed = true }
      throw error
    }
    let info: SnapshotInfo
    do {
      info = try sink.finish(
        SnapshotRow(
          id: nil, takenAt: takenAt, source: source, sourceTotal: sourceTotal,
          programCount: sink.entryCount))
    } catch {
      storeFailed = true
      throw error
    }
    if let shrinkGuard, let previous = sink.previousID {
      let counts: (previous: Int, new: Int)
      do {
        counts = try currentCounts(previous: previous, new: info.id, takenAt: date)
      } catch {
        storeFailed = true
        throw error
      }
      try shrinkGuard.check(
        source: source, previousID: previous, previousCurrent: counts.previous,
        newCurrent: counts.new, monday: Self.monday(of: date))
    }
    return info
  }

  /// The Monday of the ISO week (Korea time) of `date`.
  package static func monday(of date: Date) -> CalendarDay {
    ISOWeek(containing: CalendarDay(koreaDateOf: date)).start
  }

  /// The current programs (end day missing, or on or after the Monday of the new
  /// snapshot's ISO week in Korea) of the previous and the new snapshot.
  private func currentCounts(previous: Int64, new: Int64, takenAt: Date) throws
    -> (previous: Int, new: Int)
  {
    let monday = Self.monday(of: takenAt).description
    func count(_ id: Int64) throws -> Int {
      try Int.fetchOne(
        db,
        sql: """
          SELECT coalesce(sum(p.copies), 0) FROM presence p
          JOIN program_version v ON v.id = p.version_id
          WHERE p.first_snapshot_id <= ?1 AND p.last_snapshot_id >= ?1
            AND (v.end_date IS NULL OR v.end_date >= ?2)
          """, arguments: [id, monday]) ?? 0
    }
    return (try count(previous), try count(new))
  }
}

extension SnapshotRecorder: SnapshotIDReserving {
  /// Raises `sqlite_sequence` (AUTOINCREMENT's memory of the highest id) to `id - 1`.
  package func reserveIDs(below id: Int64) throws {
    do {
      try db.execute(
        sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'snapshot'", arguments: [id - 1])
      if db.changesCount == 0 {
        try db.execute(
          sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('snapshot', ?)", arguments: [id - 1])
      }
    } catch {
      storeFailed = true
      throw error
    }
  }
}

/// Refuses a new snapshot that holds far fewer current programs than the latest one: a
/// catalog does not lose a third of its running and upcoming programs in a week, a
/// truncated or filtered download does.
public struct ShrinkGuard: Sendable, Equatable {
  /// The largest share of the latest snapshot's current programs that may go (0.3: 30%).
  public var maxLoss: Double

  public init(maxLoss: Double = 0.3) {
    self.maxLoss = maxLoss
  }

  /// The default: more than 30% fewer current programs is refused.
  public static let standard = ShrinkGuard()

  package func check(
    source: String, previousID: Int64, previousCurrent: Int, newCurrent: Int, monday: CalendarDay
  ) throws {
    guard previousCurrent > 0 else { return }
    let lost = previousCurrent - newCurrent
    guard Double(lost) > maxLoss * Double(previousCurrent) else { return }
    throw ShrinkRefused(
      source: source, previousID: previousID, previousCurrent: previousCurrent,
      newCurrent: newCurrent, maxLoss: maxLoss, monday: monday)
  }
}

/// A new snapshot was refused by the ``ShrinkGuard``; nothing was recorded.
public struct ShrinkRefused: Error, CustomStringConvertible, Equatable {
  public var source: String
  public var previousID: Int64
  public var previousCurrent: Int
  public var newCurrent: Int
  public var maxLoss: Double
  /// The Monday from which a program counts as current.
  public var monday: CalendarDay

  public var description: String {
    let percent = Int((Double(previousCurrent - newCurrent) / Double(previousCurrent) * 100).rounded())
    return "\(source) holds \(newCurrent) current programs (ending on or after \(monday)) where "
      + "the latest snapshot \(previousID) holds \(previousCurrent): \(percent)% fewer, more than "
      + "the \(Int((maxLoss * 100).rounded()))% a week can lose — nothing was recorded; is the "
      + "download complete? Give --allow-shrink to record it anyway"
  }
}
