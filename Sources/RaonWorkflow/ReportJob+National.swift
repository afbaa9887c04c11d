import Foundation
import RaonAnalytics
import RaonConcurrency
import RaonCore
import RaonExport

/// The national data's report (`raon report --catalog national`): the same steps as
/// Seoul's, counting events (rows sharing the natural key once) named as on the report's
/// day, compared event by event (``EventComparison``), packed by 시·도 or provider
/// (``NationalPacks``).
extension ReportJob {
  /// What `--regions all` puts in ``ReportRequest/districts``: every 시·도 of the snapshot,
  /// known only once its events are read.
  public static let everyRegion = "\u{0}all-regions"

  /// The reported snapshot's events (national data), else `programs` as they are. A held
  /// input's are its own: made while it is recorded.
  func eventsIfNational(
    _ programs: ProgramChunks, _ input: ReportInput, _ selection: PendingResult<ReportSelection>
  ) throws -> ProgramChunks {
    guard profile.name == .national else { return programs }
    let day = try input.held?.day ?? selection.wait().get().snapshot.koreaDay
    return ProgramChunks(try NationalWeek.events(programs, profile: profile, on: day))
  }

  /// The compared snapshot's events (named as on the report's day) and the comparison by
  /// the natural key.
  func nationalComparison(_ selection: ReportSelection) throws
    -> (info: SnapshotInfo, programs: ProgramChunks, changes: SnapshotDiff)?
  {
    try selection.compareTo.map { info in
      let events = try comparedEvents(info, day: selection.snapshot.koreaDay)
      return (info: NationalWeek.inEvents(info, events.count), programs: ProgramChunks(events),
        changes: NationalAnalysis.named(
          try SnapshotReading.diffCheckingLineage(
            from: info, to: selection.snapshot, in: store, profile: profile, checking: reading.checksLineage),
          profile: profile, on: selection.snapshot.koreaDay))
    }
  }

  func comparedEvents(_ info: SnapshotInfo, day: CalendarDay) throws -> [Program] {
    try NationalWeek.events(try reading.comparedPrograms(of: info, in: store), profile: profile, on: day)
  }

  /// The country's trend in events, and each 시·도's and provider's when packs are asked for.
  func nationalTrend(_ chosen: [SnapshotInfo], regions: [String], day: CalendarDay) throws
    -> (city: [WeeklyTrendPoint], byDistrict: [String: [WeeklyTrendPoint]])
  {
    if regions.isEmpty { return (try NationalWeek.trendPoints(of: chosen, in: store), [:]) }
    var city = WeeklyTrend.Builder()
    var byRegion: [String: WeeklyTrend.Builder] = [:]
    for (n, point) in chosen.enumerated() {
      city.startPoint(point)
      let events = try NationalWeek.events(store.programColumnChunks(inSnapshot: point.id), profile: profile, on: day)
      city.add(events)
      var grouped: [String: [Program]] = [:]
      for e in events {
        grouped[e.district, default: []].append(e)
        if e.category != e.district { grouped[e.category, default: []].append(e) }
      }
      // A region first seen at a later point has no events at the earlier ones.
      for name in grouped.keys where byRegion[name] == nil {
        var builder = WeeklyTrend.Builder()
        for earlier in chosen.prefix(n) { builder.startPoint(earlier) }
        byRegion[name] = builder
      }
      for name in byRegion.keys {
        byRegion[name]?.startPoint(point)
        byRegion[name]?.add(grouped[name] ?? [])
      }
    }
    return (city.points, byRegion.mapValues(\.points))
  }

  /// The packs asked for: every 시·도 (``everyRegion``), or the 시·도 and providers named.
  func nationalPacks(
    _ request: ReportRequest, city: ReportData, programs: ProgramChunks, selection: ReportSelection,
    trends: [String: [WeeklyTrendPoint]], into staging: OutputPublisher.Staging,
    pageOne: (_ region: String, _ report: ReportData) -> Void
  ) throws -> ExportResult {
    let day = selection.snapshot.koreaDay
    let events = programs.held ?? []
    var names: [String] = []
    for name in request.districts {
      let expanded = name == Self.everyRegion ? NationalWeek.allRegions(events, profile: profile, on: day) : [name]
      for n in expanded where !names.contains(n) { names.append(n) }
    }
    return try NationalPacks.write(
      names, city: city, events: events,
      compared: try selection.compareTo.map { try comparedEvents($0, day: day) },
      trends: trends, formats: request.formats, into: staging, options: request.options,
      progress: environment.progress, pageOne: pageOne)
  }
}
