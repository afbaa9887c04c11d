import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore

/// `raon diff FROM TO`: the comparison of two snapshots alone.
public struct DiffJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment

  public init(store: any SnapshotStoring, storePath: String, environment: RaonEnvironment) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
  }

  public struct Outcome: Sendable {
    public var from: SnapshotInfo
    public var to: SnapshotInfo
    public var diff: SnapshotDiff
    /// `nil` when nothing was written (no formats).
    public var directory: URL?
    public var files: [String]
    public var warnings: [String]

    /// `snapshot 1 → 2: 3 added, 1 removed, 2 changed`.
    public var summary: String {
      "snapshot \(from.id) → \(to.id): \(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed"
    }
  }

  /// Compares `from` with `to` (ids, `latest`, or `previous` for the one before latest;
  /// both by `taken_at`, not by id).
  public func run(
    from fromReference: String, to toReference: String, formats: [ReportFormat], out: String?,
    options: ExportOptions
  ) throws -> Outcome {
    let snapshots = try store.snapshots()
    let from = try resolve(fromReference, in: snapshots)
    let to = try resolve(toReference, in: snapshots)
    let diff = try SnapshotReading.diff(from: from, to: to, in: store)
    guard !formats.isEmpty else {
      return Outcome(from: from, to: to, diff: diff, directory: nil, files: [], warnings: [])
    }
    let target = environment.url(forPath: out ?? "reports/diff-\(from.id)-\(to.id)")
    let result = try OutputPublisher.publish(to: target) { directory -> ExportResult in
      var combined = ExportResult()
      for format in ReportFormat.allCases where formats.contains(format) {
        let r = try format.writer.writeComparison(diff, from: from, to: to, into: directory, options: options)
        combined.files += r.files
        combined.warnings += r.warnings
      }
      return combined
    }
    return Outcome(
      from: from, to: to, diff: diff, directory: target, files: result.files, warnings: result.warnings)
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
      else { throw WorkflowError.invalidSnapshotReference(reference) }
      return previous
    default:
      return try SnapshotSelection.chooseSnapshot(reference, week: nil, in: snapshots, store: storePath)
    }
  }
}
