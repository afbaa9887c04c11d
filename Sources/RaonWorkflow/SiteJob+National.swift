import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore

/// The national data's site: the same pages as Seoul's, built from the national report
/// (``ReportJob`` with the national profile: events, not rows, named as on each week's
/// day), with a page per 시·도 where Seoul's has one per district. A 시·도 is followed
/// through the weeks by its lineage id, so a renamed one (강원도 → 강원특별자치도) keeps one
/// page, which links each week's pack under the name of that week.
extension SiteJob {
  /// Which site made the pages: one whose regions come from its data (region pages, read
  /// as on each week's day) never reuses another catalog's weeks (`-2`: its weeks' pages say
  /// its own words since issue 46).
  var generatorName: String {
    profile.fixedRegions != nil ? Self.generator : Self.generator + "-\(profile.name.rawValue)-2"
  }

  /// What a report is made for: every fixed region, or every region the data holds.
  var everyPack: [String] { profile.fixedRegions ?? [ReportJob.everyRegion] }

  /// The report folder's pack of an area as named in its week (`nil`: the whole report),
  /// in the catalog's pack folder (`districts/`, `regions/`).
  func packFolder(_ name: String?) -> String {
    guard let name else { return "" }
    return "\(profile.words.files.packFolder)/\(name)/"
  }

  /// Each event once (the store keeps an event's program once per row, its sessions).
  static func eachEventOnce(_ programs: [Program]) -> [Program] {
    var seen = Set<String>()
    return programs.filter { seen.insert($0.id).inserted }
  }

  /// The histories with each event's 시·도 and provider named as on `day` (the latest
  /// week's), as its page, the search and the 시·도 pages show them.
  func named(_ histories: [ProgramHistory], on day: CalendarDay) -> [ProgramHistory] {
    histories.map { h in
      var h = h
      if let event = NationalAnalysis.events([h.latest], profile: profile, on: day).first { h.latest = event }
      return h
    }
  }

  /// Per chosen week, its 시·도 with events: lineage id → the name on the week's day.
  func regionsByWeek(_ chosen: [SnapshotInfo]) throws -> [[String: String]] {
    let lineage = profile.regions.lineage ?? .shipped
    return try chosen.map { info in
      environment.progress("site: finding the 시·도 of snapshot \(info.id) …")
      let day = info.koreaDay
      let events = try NationalWeek.events(store.programColumnChunks(inSnapshot: info.id), profile: profile, on: day)
      var ids: [String: String] = [:]
      for id in lineage.provinceIDs + [RegionLineage.otherBodies] {
        ids[lineage.provinceName(id, on: day)] = ids[lineage.provinceName(id, on: day)] ?? id
      }
      var out: [String: String] = [:]
      for name in Set(events.map(\.district)) { out[ids[name] ?? name] = name }
      return out
    }
  }

  /// Every 시·도 with events in some week, in the lineage's order (기타 기관 last), named as
  /// on `day` (the latest week's).
  func siteRegions(_ weeks: [[String: String]], on day: CalendarDay) -> [SiteRegion] {
    let lineage = profile.regions.lineage ?? .shipped
    let present = Set(weeks.flatMap(\.keys))
    let known = lineage.provinceIDs.filter(present.contains)
    let rest = present.subtracting(known).subtracting([RegionLineage.otherBodies]).sorted()
    let other = present.contains(RegionLineage.otherBodies) ? [RegionLineage.otherBodies] : []
    return (known + rest + other).map { id in
      // A name the lineage does not know is kept as the latest week that had it said it.
      let name = known.contains(id) || id == RegionLineage.otherBodies
        ? lineage.provinceName(id, on: day) : weeks.last { $0[id] != nil }?[id] ?? id
      return SiteRegion(id: id, name: name)
    }
  }
}
