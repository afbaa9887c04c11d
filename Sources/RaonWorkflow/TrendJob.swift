import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonStore

/// `raon trend`: the weekly trend over the whole history or a range of weeks, written as
/// `trend.md` (+ `charts/trend.svg`), `trend.xlsx`, `trend.csv` and `trend.json`.
///
/// The points are chosen from the snapshots' information alone
/// (``WeeklyTrend/choosePoints(_:weeks:from:to:)``), then read from the store as the
/// versions entering and leaving between consecutive points
/// (``SnapshotStore/trendSteps(_:)``) and counted by ``WeeklyTrend/IncrementalBuilder``:
/// the cost grows with the number of snapshots and the churn, not with snapshots ×
/// catalog size.
public struct TrendJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment
  /// The store's catalog: the national data's trend counts events (``NationalWeek``).
  public var profile: CatalogProfile = .seoul

  /// The default output folder, under the working directory.
  public static let defaultOut = "reports/trend"

  public init(store: any SnapshotStoring, storePath: String, environment: RaonEnvironment) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
  }

  /// Which weeks the trend covers.
  public struct Range: Sendable, Hashable {
    /// The first week, inclusive; `nil` for the first week with a snapshot.
    public var from: ISOWeek?
    /// The last week, inclusive; `nil` for the last week with a snapshot.
    public var to: ISOWeek?
    /// At most this many weeks (the latest ones of the range); `nil` for all.
    public var weeks: Int?

    public init(from: ISOWeek? = nil, to: ISOWeek? = nil, weeks: Int? = nil) {
      self.from = from
      self.to = to
      self.weeks = weeks
    }
  }

  public struct Outcome: Sendable {
    public var points: [WeeklyTrendPoint]
    /// `nil` when nothing was written (no formats).
    public var directory: URL?
    public var files: [String]
    public var warnings: [String]

    /// `trend 2024-W37 … 2025-W05: 22 weeks`.
    public var summary: String {
      guard let first = points.first, let last = points.last else { return "trend: no weeks" }
      return
        "trend \(first.isoWeek) … \(last.isoWeek): \(points.count) week\(points.count == 1 ? "" : "s")"
    }
  }

  /// What can go wrong choosing the trend's weeks.
  public enum Error: RaonError, CustomStringConvertible, Equatable {
    case noSnapshotInRange(from: String, to: String, store: String)

    public var description: String {
      switch self {
      case .noSnapshotInRange(let from, let to, let store):
        return
          "no snapshot in \(store) was taken in the weeks \(from) … \(to) — 'raon snapshots' lists them; choose other --from/--to weeks"
      }
    }
  }

  /// Computes the trend and writes it in `formats` into `out` (default `reports/trend/`),
  /// published whole or not at all.
  ///
  /// - Throws: ``WorkflowError/noSnapshots(store:)`` on an empty store,
  ///   ``Error/noSnapshotInRange(from:to:store:)`` when the range holds no snapshot, the
  ///   store's and the writers' errors.
  public func run(_ range: Range, formats: [ReportFormat], out: String?, options: ExportOptions)
    throws -> Outcome
  {
    let snapshots = try store.snapshots()
    guard !snapshots.isEmpty else { throw WorkflowError.noSnapshots(store: storePath) }
    let points = profile.identity == .naturalKey
      ? try NationalWeek.trendPoints(
        of: WeeklyTrend.choosePoints(snapshots, weeks: range.weeks ?? Int.max, from: range.from, to: range.to),
        in: store)
      : try Self.points(in: store, snapshots: snapshots, range: range)
    guard !points.isEmpty else {
      throw Error.noSnapshotInRange(
        from: range.from?.description ?? "…", to: range.to?.description ?? "…", store: storePath)
    }
    guard !formats.isEmpty else {
      return Outcome(points: points, directory: nil, files: [], warnings: [])
    }
    let target = environment.url(forPath: out ?? Self.defaultOut)
    let result = try OutputPublisher.publish(target, entries: FormatRegistry.standard.trendFolder) {
      try TrendWriters.write(
        ReportDocument.trend(points, options: options.document), formats: formats, into: $0.folder, options: options)
    }
    return Outcome(
      points: points, directory: target, files: result.files, warnings: result.warnings)
  }

  /// The trend's points: the latest snapshot of each ISO week in the range, the last
  /// `range.weeks` of them, counted from the store's intervals. Reusable by any job that
  /// shows a trend (the weekly report's 8 weeks up to its week).
  ///
  /// - Parameters:
  ///   - store: The store.
  ///   - snapshots: Every snapshot's information (``SnapshotStore/snapshots()``).
  ///   - range: The weeks.
  /// - Returns: The points, oldest first; empty when no snapshot is in the range.
  public static func points(in store: any SnapshotStoring, snapshots: [SnapshotInfo], range: Range)
    throws -> [WeeklyTrendPoint]
  {
    let chosen = WeeklyTrend.choosePoints(
      snapshots, weeks: range.weeks ?? Int.max, from: range.from, to: range.to)
    return try points(of: chosen, in: store)
  }

  /// The points of given snapshots, in the order given (see
  /// ``WeeklyTrend/points(_:)``), read as interval changes.
  public static func points(of chosen: [SnapshotInfo], in store: any SnapshotStoring) throws
    -> [WeeklyTrendPoint]
  {
    var builder = WeeklyTrend.IncrementalBuilder()
    for step in try store.trendSteps(chosen) {
      builder.startPoint(step.snapshot)
      for version in step.leaving { builder.leave(key: version.versionID) }
      for version in step.entering {
        builder.enter(version.program, copies: version.copies, key: version.versionID)
      }
    }
    return builder.points
  }
}

extension TrendJob.Error {
  public var exitStatus: ExitStatus {
    switch self {
    case .noSnapshotInRange: .failure
    }
  }
}
