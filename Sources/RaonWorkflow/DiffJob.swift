import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import RaonExport
import RaonStore

/// `raon diff FROM TO`: the comparison of two snapshots alone.
public struct DiffJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment
  /// The catalog the store holds.
  public let profile: CatalogProfile

  public init(
    store: any SnapshotStoring, storePath: String, environment: RaonEnvironment,
    profile: CatalogProfile = .seoul
  ) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
    self.profile = profile
  }

  public struct Outcome: Sendable {
    public var from: SnapshotInfo
    public var to: SnapshotInfo
    public var diff: SnapshotDiff
    /// The report's split of the removed and changed programs (D = `to`'s day).
    public var kinds: ChangeKinds
    /// `nil` when nothing was written (no `--out`, or no formats).
    public var directory: URL?
    public var files: [String]
    public var warnings: [String]
    /// Renames and mergers of regions found in the national data and applied to the
    /// comparison (DiffJob+Lineage.swift).
    public var lineage: LineageNote?

    /// `snapshot 1 → 2: 3 added, 1 removed, 2 changed (removed: 1 ended, 0 withdrawn;
    /// changed: 1 material, 1 minor)`.
    public var summary: String {
      "snapshot \(from.id) → \(to.id): \(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed"
        + " (removed: \(kinds.removedEnded) ended, \(kinds.removedWithdrawn) withdrawn;"
        + " changed: \(kinds.changedMaterial) material, \(kinds.changedMinor) minor)"
    }
  }

  /// Compares `from` with `to` (ids, `latest`, or `previous` for the one before latest;
  /// both by `taken_at`, not by id).
  ///
  /// Writes the comparison in `formats` into `out` only: without `out` (or without
  /// formats) nothing is written and the outcome carries the figures alone.
  public func run(
    from fromReference: String, to toReference: String, formats: [ReportFormat], out: String?,
    options: ExportOptions
  ) throws -> Outcome {
    let snapshots = try store.snapshots()
    var from = try resolve(fromReference, in: snapshots)
    var to = try resolve(toReference, in: snapshots)
    let compared = try comparedCheckingLineage(from, to)
    // The national data's collections are said in events, as its comparison counts them.
    if profile.countsEvents {
      from = try NationalWeek.inEvents(from, in: compared.store)
      to = try NationalWeek.inEvents(to, in: compared.store)
    }
    var diff = compared.diff
    if profile.tracesLineage { diff = NationalAnalysis.named(diff, profile: compared.profile, on: to.koreaDay) }
    let kinds = ChangeKinds.classify(diff, day: to.koreaDay)
    let said = compared.note?.warnings ?? []
    guard let out, !formats.isEmpty else {
      return Outcome(
        from: from, to: to, diff: diff, kinds: kinds, directory: nil, files: [], warnings: said, lineage: compared.note)
    }
    var options = options
    options.lineage = compared.note
    let target = environment.url(forPath: out)
    let result = try OutputPublisher.publish(target) { staging -> ExportResult in
      let document = ReportDocument.comparison(diff, from: from, to: to, options: options.document)
      let written = ReportFormat.render(formats, document, into: staging.folder, options: options)
      var combined = ExportResult()
      for format in FormatRegistry.standard.ordered(formats) {
        if let result = written[format] { combined.append(try result.get()) }
      }
      try PDFJob.print(combined.printing, variables: environment.variables, into: staging)
      combined.printing = []
      return combined
    }
    return Outcome(
      from: from, to: to, diff: diff, kinds: kinds, directory: target, files: result.files,
      warnings: said + result.warnings, lineage: compared.note)
  }

  private func resolve(_ reference: String, in snapshots: [SnapshotInfo]) throws -> SnapshotInfo {
    guard let latest = SnapshotSelection.latest(of: snapshots) else {
      throw WorkflowError.noSnapshots(store: storePath)
    }
    switch reference.lowercased() {
    case "latest": return latest
    case "previous":
      guard
        let previous = SnapshotSelection.previous(of: latest, in: snapshots)
          ?? SnapshotSelection.before(latest, in: snapshots)
      else {
        throw WorkflowError.noPreviousSnapshot(
          latest: latest.id, takenAt: latest.takenAt.koreaDisplay, store: storePath)
      }
      return previous
    default:
      return try SnapshotSelection.chooseSnapshot(reference, week: nil, in: snapshots, store: storePath)
    }
  }
}
