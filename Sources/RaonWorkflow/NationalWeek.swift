import Foundation
import RaonAnalytics
import RaonCore
import RaonStore

/// The national data's snapshots as its report and trend count them: events, not rows.
///
/// The store keeps every row of an event beside the event's program, so a snapshot's
/// programs repeat an event once per session; here each event is taken once
/// (``NationalAnalysis/events(_:profile:on:)``), its regions named as on the report's day.
enum NationalWeek {
  /// A snapshot's events, named as on `day`, in id order (the assembler's order).
  static func events(_ programs: ProgramChunks, profile: CatalogProfile, on day: CalendarDay) throws -> [Program] {
    var all: [Program] = []
    all.reserveCapacity(programs.count)
    try programs.forEach { all += $0 }
    return NationalAnalysis.events(all, profile: profile, on: day).sorted { $0.id < $1.id }
  }

  /// `info` as the national report and comparison say it: its size in `events` (a
  /// snapshot's `programCount` counts the rows the store keeps; `sourceTotal` stays the
  /// download's own count of rows).
  static func inEvents(_ info: SnapshotInfo, _ events: Int) -> SnapshotInfo {
    var counted = info
    counted.programCount = events
    return counted
  }

  /// `info` in events, counted by the store (each event's id once).
  static func inEvents(_ info: SnapshotInfo, in store: any SnapshotStoring) throws -> SnapshotInfo {
    inEvents(info, try store.details(snapshot: info.id).distinctPrograms)
  }

  /// The trend's points, one per chosen snapshot, counting events (each id once).
  static func trendPoints(of chosen: [SnapshotInfo], in store: any SnapshotStoring) throws -> [WeeklyTrendPoint] {
    var builder = WeeklyTrend.Builder()
    for point in chosen {
      builder.startPoint(point)
      var seen = Set<String>()
      try store.programColumnChunks(inSnapshot: point.id).forEach { chunk in
        builder.add(chunk.filter { seen.insert($0.id).inserted })
      }
    }
    return builder.points
  }

  /// The packs `--regions all` writes: every 시·도 with an event in the snapshot, as named
  /// on its day, in the lineage's order, 기타 기관 last.
  static func allRegions(_ events: [Program], profile: CatalogProfile, on day: CalendarDay) -> [String] {
    let lineage = profile.regions.lineage ?? .shipped
    let present = Set(events.map(\.district))
    var ordered: [String] = []
    for id in lineage.provinceIDs {
      let name = lineage.provinceName(id, on: day)
      if present.contains(name), !ordered.contains(name) { ordered.append(name) }
    }
    let rest = present.subtracting(ordered).sorted()
    return ordered + rest.filter { $0 != RegionLineage.otherBodiesName } + rest.filter { $0 == RegionLineage.otherBodiesName }
  }
}
