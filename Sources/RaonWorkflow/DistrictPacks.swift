import Foundation
import RaonAnalytics
import RaonCore
import RaonExport

/// A district office's pack: the city report's week, lists, changes and tables restricted
/// to one 자치구 (one of a catalog's fixed regions), with where it stands among them, in the
/// catalog's pack folder (`districts/<자치구>/`) of the report folder, in the report's formats.
///
/// All packs come from the programs the city report already holds (and one read of the
/// compared snapshot), grouped by district in one pass: 25 packs cost a fraction of 25 runs.
enum DistrictPacks {
  /// Writes one pack per district into the staged report folder.
  ///
  /// - Parameters:
  ///   - city: The city report (its week and figures rank the districts).
  ///   - programs: The reported snapshot's programs.
  ///   - compared: The compared snapshot's programs, if there is a comparison.
  ///   - trends: Each district's trend points.
  /// - Returns: The files written, relative to the report folder (PDFs queued for the
  ///   job's post-step).
  static func write(
    _ districts: [String], city: ReportData, programs: ProgramChunks, compared: ProgramChunks?,
    trends: [String: [WeeklyTrendPoint]], formats: [ReportFormat],
    into staging: OutputPublisher.Staging, options: ExportOptions,
    progress: @Sendable (String) -> Void, pageOne: (_ district: String, _ report: ReportData) -> Void = { _, _ in }
  ) throws -> ExportResult {
    guard !districts.isEmpty else { return ExportResult() }
    let wanted = Set(districts)
    let now = try grouped(programs, wanted)
    let then = try compared.map { try grouped($0, wanted) }
    var packs = PackWriting(into: staging, formats: formats, options: options)
    progress("writing \(districts.count) district packs …")
    for district in districts {
      let mine = now[district] ?? []
      var snapshot = city.snapshot
      snapshot.programCount = mine.count
      let comparison = city.compareTo.map { info -> (info: SnapshotInfo, programs: [Program]) in
        var restricted = info
        let theirs = then?[district] ?? []
        restricted.programCount = theirs.count
        return (restricted, theirs)
      }
      var report = try ReportAssembler.assemble(
        snapshot: snapshot, programs: mine, compareTo: comparison, week: city.week)
      report.trend = trends[district] ?? []
      report.district = DistrictScope.of(district, in: city.weekView, among: options.profile.regions.names)
      pageOne(district, report)
      try packs.writePack(relative: "\(options.profile.words.files.packFolder)/\(district)", report: report, programs: mine)
    }
    return packs.combined
  }

  /// The programs of the wanted districts, by district, in one pass.
  private static func grouped(_ programs: ProgramChunks, _ wanted: Set<String>) throws -> [String: [Program]] {
    var out: [String: [Program]] = [:]
    try programs.forEach { chunk in
      for p in chunk where wanted.contains(p.district) { out[p.district, default: []].append(p) }
    }
    return out
  }
}
