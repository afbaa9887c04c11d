import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonStore

/// What a week's report and the site are made from, as one digest each: when an earlier
/// run published them from the same, they are not written again.
enum WeeklyKeys {
  /// Changes whenever the same inputs would give other files.
  static let generator = "raon-weekly-1"

  /// The report of `week` about `snapshot`: the snapshots taken up to it (its comparison and
  /// trend are chosen among them), the formats, the packs, the options and the Raon.
  static func report(
    week: ISOWeek, snapshot: SnapshotInfo, snapshots: [SnapshotInfo], formats: [ReportFormat], districts: [String],
    options: ExportOptions, version: String
  ) -> String {
    var parts = [generator, version, week.description, String(snapshot.id)]
    parts += FormatRegistry.standard.ordered(formats).map(\.rawValue) + districts
    parts.append(String(describing: options))
    parts += history(snapshots.filter { ($0.takenAt, $0.id) <= (snapshot.takenAt, snapshot.id) })
    return SHA256.hex(parts.joined(separator: "\u{1F}"))
  }

  /// The site: every snapshot, its options and the Raon.
  static func site(snapshots: [SnapshotInfo], options: ExportOptions, version: String) -> String {
    let parts = [generator, "site", version, String(describing: options)] + history(snapshots)
    return SHA256.hex(parts.joined(separator: "\u{1F}"))
  }

  private static func history(_ snapshots: [SnapshotInfo]) -> [String] {
    snapshots.map { "\($0.id)@\($0.takenAt.timeIntervalSince1970)#\($0.programCount)" }
  }
}
