import Foundation
import RaonAnalytics
import RaonCore
import RaonErrors
import RaonExport

/// The national data's packs, in the catalog's pack folder (`regions/<name>/`) of the report folder: a 시·도's
/// (`--regions all` writes one per 시·도, named as on the report's day; bodies that are
/// not local governments are under the 시·도 their address names, else under 기타 기관) or
/// one provider's (`--region "경상북도 안동시"`), each the country report's week, lists,
/// changes and tables restricted to its events, with where it stands among its peers.
///
/// Every event is in exactly one 시·도 pack, so the 시·도 packs add up to the country.
enum NationalPacks {
  /// A pack per name: a 시·도 when a city event's `district` has that name, else a provider
  /// (`category`).
  ///
  /// - Throws: ``UnknownRegion`` for a name that is neither.
  static func write(
    _ names: [String], city: ReportData, events: [Program], compared: [Program]?,
    trends: [String: [WeeklyTrendPoint]], formats: [ReportFormat],
    into staging: OutputPublisher.Staging, options: ExportOptions,
    progress: @Sendable (String) -> Void, pageOne: (_ region: String, _ report: ReportData) -> Void
  ) throws -> ExportResult {
    guard !names.isEmpty else { return ExportResult() }
    let provinces = Set(events.map(\.district))
    let providers = Set(events.map(\.category))
    for name in names where !provinces.contains(name) && !providers.contains(name) {
      throw UnknownRegion(name: name, provinces: provinces.sorted())
    }
    var packs = PackWriting(into: staging, formats: formats, options: options)
    progress("writing \(names.count) region packs …")
    for name in names {
      let byProvince = provinces.contains(name)
      let belongs: (Program) -> Bool = { byProvince ? $0.district == name : $0.category == name }
      let mine = events.filter(belongs)
      var snapshot = city.snapshot
      snapshot.programCount = mine.count
      // The country's changes that are the pack's: compared event by event as the country's
      // are (a re-stamped 데이터기준일자 or a renamed provider is no change), so the 시·도
      // packs' changes add up to the country's.
      let comparison = city.compareTo.flatMap { info in
        city.changes.map { changes -> (info: SnapshotInfo, programs: ProgramChunks, changes: SnapshotDiff) in
          var restricted = info
          let theirs = (compared ?? []).filter(belongs)
          restricted.programCount = theirs.count
          return (restricted, ProgramChunks(theirs), changes.restricted(to: belongs))
        }
      }
      var report = try ReportAssembler.assemble(
        snapshot: snapshot, programs: ProgramChunks(mine), compareTo: comparison, week: city.week)
      report.trend = trends[name] ?? []
      report.extras = ReportExtras.tables(options.profile.extras, mine)
      report.district = scope(name, byProvince: byProvince, city: city.weekView, events: events)
      pageOne(name, report)
      try packs.writePack(relative: "\(options.profile.words.files.packFolder)/\(name)", report: report, programs: mine)
    }
    return packs.combined
  }

  /// Where the pack stands: a 시·도 among the 시·도, a provider among the providers.
  static func scope(_ name: String, byProvince: Bool, city: WeekView, events: [Program]) -> DistrictScope {
    var view = city
    if !byProvince {
      view.runningByDistrict = view.runningByCategory
      view.currentByDistrict = view.currentByCategory
    }
    let peers = Array(Set(events.map(byProvince ? \.district : \.category))).sorted()
    var scope = DistrictScope.of(name, in: view, among: peers)
    scope.amongProviders = !byProvince
    return scope
  }
}

/// `--region NAME` names no 시·도 and no provider of the reported snapshot.
public struct UnknownRegion: RaonError, CustomStringConvertible, Equatable {
  public var name: String
  public var provinces: [String]
  public var exitStatus: ExitStatus { .usage }
  public var description: String {
    "'\(SafeText.excerpt(name))' is no 시·도 and no provider (제공기관명) of the reported snapshot — use a 시·도 (\(provinces.joined(separator: ", "))), a provider as the data names it (\"경상북도 안동시\"), or --regions all"
  }
}
