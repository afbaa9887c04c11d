import Foundation
import RaonCore

/// The columns the weekly trend counts: a program's id and days. ``TrendProgram`` (what a
/// store reads for a trend) and ``Program`` both have them, so one counting serves both.
public protocol TrendCountable {
  var id: String { get }
  var startDate: CalendarDay? { get }
  var endDate: CalendarDay? { get }
  var registeredOn: CalendarDay? { get }
}

extension TrendProgram: TrendCountable {}
extension Program: TrendCountable {}

/// One point of the weekly trend: one snapshot's figures for its own ISO week and day.
public struct WeeklyTrendPoint: Sendable, Hashable {
  /// The week of the snapshot's day in Korea.
  public var isoWeek: ISOWeek
  public var snapshotId: Int64
  public var takenAt: Date
  /// The number of programs given for the snapshot.
  public var programCount: Int
  public var current: Int
  public var running: Int
  public var starting: Int
  public var registered: Int
  /// Distinct ids in this point and not in the point before; `nil` for the first point.
  public var added: Int?
  /// Distinct ids in the point before and not in this one; `nil` for the first point.
  public var removed: Int?
}

/// The weekly trend: one point per ISO week that has a snapshot, oldest first.
///
/// Built in two steps so a store reads only what it needs: ``choosePoints(_:weeks:from:to:)``
/// picks the snapshots from their information alone, then ``points(_:)`` computes the
/// figures from those snapshots' programs.
public enum WeeklyTrend {
  /// The number of weeks a report's trend shows by default.
  public static let defaultWeeks = 8

  /// The snapshots the trend shows: for each ISO week that has a snapshot, the latest one
  /// taken within it; of those weeks, the last `weeks` within `from … to`; oldest first.
  ///
  /// A snapshot's week is the ISO week of its day in Korea (``SnapshotInfo/koreaDay``). The
  /// latest snapshot of a week is the one with the latest `takenAt`; of snapshots taken at
  /// the same instant, the one with the highest id (recorded last). The input may be in
  /// any order.
  ///
  /// ```swift
  /// let chosen = WeeklyTrend.choosePoints(store.snapshots(), weeks: 8, from: nil, to: week)
  /// ```
  ///
  /// - Parameters:
  ///   - snapshots: Every snapshot's information.
  ///   - weeks: How many weeks at most (the latest ones); `0` or less gives none, `Int.max`
  ///     every week.
  ///   - from: The first week to consider, inclusive; `nil` for no lower bound.
  ///   - to: The last week to consider, inclusive; `nil` for no upper bound.
  /// - Returns: At most one snapshot per week, by week ascending.
  public static func choosePoints(
    _ snapshots: [SnapshotInfo], weeks: Int, from: ISOWeek? = nil, to: ISOWeek? = nil
  ) -> [SnapshotInfo] {
    guard weeks > 0 else { return [] }
    var latest: [ISOWeek: SnapshotInfo] = [:]
    for info in snapshots {
      let week = ISOWeek(containing: info.koreaDay)
      if let from, week < from { continue }
      if let to, week > to { continue }
      if let held = latest[week], (held.takenAt, held.id) >= (info.takenAt, info.id) { continue }
      latest[week] = info
    }
    let ordered = latest.sorted { $0.key < $1.key }.map(\.value)
    return Array(ordered.suffix(weeks))
  }

  /// The trend's points, one per given snapshot, in the order given.
  ///
  /// Each point counts its snapshot by ``WeekView``'s rules for the snapshot's own week and
  /// own day. `added` and `removed` compare distinct ids with the point before in `series`;
  /// the first point has `nil` for both (even when an earlier snapshot exists outside
  /// `series`).
  ///
  /// - Parameter series: The chosen snapshots (``choosePoints(_:weeks:from:to:)``) with
  ///   their programs, oldest first.
  /// - Returns: One point per element of `series`.
  public static func points<P: TrendCountable>(_ series: [(info: SnapshotInfo, programs: [P])])
    -> [WeeklyTrendPoint]
  {
    var builder = Builder()
    for (info, programs) in series {
      builder.startPoint(info)
      builder.add(programs)
    }
    return builder.points
  }

  /// ``points(_:)`` fed one snapshot at a time, each a chunk at a time, so a store can
  /// stream the chosen snapshots' programs.
  ///
  /// ```swift
  /// var builder = WeeklyTrend.Builder()
  /// for info in WeeklyTrend.choosePoints(snapshots, weeks: 8) {
  ///   builder.startPoint(info)
  ///   for chunk in store.programChunks(of: info.id) { builder.add(chunk) }
  /// }
  /// let trend = builder.points
  /// ```
  public struct Builder: Sendable {
    private var finished: [WeeklyTrendPoint] = []
    private var open: Open?
    private var previousIds: Set<String>?

    /// The point being counted.
    private struct Open: Sendable {
      let info: SnapshotInfo
      let day: CalendarDay
      let week: ISOWeek
      let monday: CalendarDay
      let sunday: CalendarDay
      let registeredFrom: CalendarDay
      var programCount = 0
      var current = 0
      var running = 0
      var starting = 0
      var registered = 0
      var ids = Set<String>()

      init(_ info: SnapshotInfo) {
        self.info = info
        self.day = info.koreaDay
        self.week = ISOWeek(containing: day)
        self.monday = week.start
        self.sunday = week.end
        self.registeredFrom = day.adding(days: -6)
      }

      mutating func count(
        id: String, start: CalendarDay?, end: CalendarDay?, registeredOn: CalendarDay?
      ) {
        programCount += 1
        if WeekView.isCurrent(end: end, monday: monday) { current += 1 }
        if WeekView.isRunning(start: start, end: end, monday: monday, sunday: sunday) {
          running += 1
        }
        if WeekView.isWithin(start, from: monday, to: sunday) { starting += 1 }
        if WeekView.isWithin(registeredOn, from: registeredFrom, to: day) { registered += 1 }
        ids.insert(id)
      }
    }

    /// An empty series.
    public init() {}

    /// Ends the point being counted (if any) and starts one for `info`.
    ///
    /// - Parameter info: The next chosen snapshot, oldest first.
    public mutating func startPoint(_ info: SnapshotInfo) {
      close()
      open = Open(info)
    }

    /// Counts a chunk of the current point's programs in (nothing before ``startPoint(_:)``).
    ///
    /// - Parameter programs: The next chunk of the snapshot's programs.
    public mutating func add<P: TrendCountable>(_ programs: [P]) {
      guard var point = open else { return }
      open = nil  // keep `ids` uniquely referenced while it grows
      for p in programs {
        point.count(id: p.id, start: p.startDate, end: p.endDate, registeredOn: p.registeredOn)
      }
      open = point
    }

    /// Every point so far, the current one included, oldest first.
    public var points: [WeeklyTrendPoint] {
      var copy = self
      copy.close()
      return copy.finished
    }

    private mutating func close() {
      guard let point = open else { return }
      open = nil
      var added: Int?
      var removed: Int?
      if let previousIds {
        added = point.ids.subtracting(previousIds).count
        removed = previousIds.subtracting(point.ids).count
      }
      finished.append(
        WeeklyTrendPoint(
          isoWeek: point.week, snapshotId: point.info.id, takenAt: point.info.takenAt,
          programCount: point.programCount, current: point.current, running: point.running,
          starting: point.starting, registered: point.registered, added: added, removed: removed))
      previousIds = point.ids
    }
  }

  /// The trend of a whole history: ``choosePoints(_:weeks:from:to:)`` then ``points(_:)``.
  ///
  /// - Parameters:
  ///   - history: Every snapshot with its programs, in any order.
  ///   - weeks: How many weeks at most (the latest ones).
  ///   - from: The first week to consider, inclusive; `nil` for no lower bound.
  ///   - to: The last week to consider, inclusive; `nil` for no upper bound.
  /// - Returns: The points, oldest first.
  public static func compute(
    _ history: [(info: SnapshotInfo, programs: [TrendProgram])], weeks: Int = defaultWeeks,
    from: ISOWeek? = nil, to: ISOWeek? = nil
  ) -> [WeeklyTrendPoint] {
    let chosen = choosePoints(history.map(\.info), weeks: weeks, from: from, to: to)
    var byId: [Int64: [TrendProgram]] = [:]
    for entry in history { byId[entry.info.id] = entry.programs }
    return points(chosen.map { (info: $0, programs: byId[$0.id] ?? []) })
  }
}
