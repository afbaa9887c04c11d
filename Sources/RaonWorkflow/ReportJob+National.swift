import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore

/// The national data's report (`raon report --catalog national`): the same steps as
/// Seoul's, counting events (rows sharing the natural key once) named as on the report's
/// day, compared event by event (``EventComparison``), packed by 시·도 or provider
/// (``NationalPacks``).
extension ReportJob {
  /// What `--regions all` puts in ``ReportRequest/districts``: every 시·도 of the snapshot,
  /// known only once its events are read.
  public static let everyRegion = "\u{0}all-regions"

  /// The reported snapshot's events (national data), named as on its day, else `programs`
  /// as they are.
  func eventsIfNational(_ programs: ProgramChunks, _ selection: ReportSelection) throws -> ProgramChunks {
    guard profile.countsEvents else { return programs }
    return ProgramChunks(try NationalWeek.events(programs, profile: profile, on: selection.snapshot.koreaDay))
  }

  /// A held input's events (national data), named as on `day`, else its programs.
  func itemsIfEvents(_ programs: [Program], on day: CalendarDay) throws -> [Program] {
    guard profile.countsEvents else { return programs }
    return try NationalWeek.events(ProgramChunks(programs), profile: profile, on: day)
  }

  /// The compared snapshot's events (named as on the report's day) and the comparison by
  /// the natural key, both snapshots read from the store.
  ///
  /// - Throws: ``LineageFound`` when the keys cannot be trusted as stored (unless the job's
  ///   reading does not check them): the caller reports again under the lineage found.
  func nationalComparison(_ info: SnapshotInfo, to reported: SnapshotInfo) throws -> Compared {
    let day = reported.koreaDay
    let old = try SnapshotReading.events(of: info, in: store, profile: profile)
    let new = try SnapshotReading.events(of: reported, in: store, profile: profile)
    return try nationalComparison(info, old: old, new: new.events, day: day)
  }

  /// The national data's comparison of a held input: the stored snapshot's events and the
  /// changes, event by event, from its rows to the held rows (``LineageFound`` as above).
  func nationalComparison(
    _ entries: [NewSnapshot.Entry], on day: CalendarDay, with old: StoredSnapshot, events: EventComparison.Snapshot
  ) throws -> Compared {
    let new = EventComparison.events(
      programs: entries.map(\.program), rows: entries.map { ($0.program.id, $0.raw) }, profile: profile)
    return try nationalComparison(old.info, old: (old.programs, events), new: new, day: day)
  }

  private func nationalComparison(
    _ info: SnapshotInfo, old: (programs: [Program], events: EventComparison.Snapshot),
    new: EventComparison.Snapshot, day: CalendarDay
  ) throws -> Compared {
    if reading.checksLineage {
      try LineageFound.check(old: old.events, new: new, profile: profile, compared: info, reported: day, store: store)
    }
    let events = NationalAnalysis.events(old.programs, profile: profile, on: day).sorted { $0.id < $1.id }
    let changes = EventComparison.diff(old: old.events, new: new, profile: profile)
    return Compared(
      info: NationalWeek.inEvents(info, events.count), programs: ProgramChunks(events),
      changes: NationalAnalysis.named(changes, profile: profile, on: day))
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
