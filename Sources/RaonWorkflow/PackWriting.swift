import Foundation
import RaonAnalytics
import RaonCore
import RaonExport

/// Writes one pack of a report — a 자치구's (``DistrictPacks``) or a 시·도's or provider's
/// (``NationalPacks``) — into its folder of the staged report, and adds what it wrote to the
/// report's result: the one step both kinds of packs share.
struct PackWriting {
  let staging: OutputPublisher.Staging
  let formats: [ReportFormat]
  let options: ExportOptions
  /// The packs' files (relative to the report folder), warnings and PDFs queued for the
  /// job's post-step, in the order the packs were written.
  private(set) var combined = ExportResult()

  init(into staging: OutputPublisher.Staging, formats: [ReportFormat], options: ExportOptions) {
    self.staging = staging
    self.formats = formats
    self.options = options
  }

  /// Writes `report` in every format into `relative` (`districts/강동구`) of the report
  /// folder, with its programs (in id order).
  mutating func writePack(relative: String, report: ReportData, programs: [Program]) throws {
    let pack = OutputPublisher.Staging(
      target: staging.target.appendingPathComponent(relative),
      folder: staging.folder.appendingPathComponent(relative))
    try OutputDirectories.create(pack.folder)
    let written = try ReportRendering.write(
      report, programs: ProgramChunks(programs), formats: formats, into: pack, options: options)
    combined.files += written.files.map { "\(relative)/\($0)" }
    combined.warnings += written.warnings
    combined.printing += written.printing
  }
}
