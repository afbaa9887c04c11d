import Foundation
import RaonCore

/// Which snapshot a report is about, what it is compared with and which week it shows —
/// pure decisions over the list of snapshots.
public enum SnapshotSelection {
  /// `--snapshot`: an id or `latest` (the snapshot taken last, whatever its id: a
  /// backfilled one gets a higher id than newer ones). With only `--week`, the latest
  /// snapshot taken by the end of that week (Korea time).
  public static func chooseSnapshot(
    _ reference: String?, week: ISOWeek?, in snapshots: [SnapshotInfo], store: String
  ) throws -> SnapshotInfo {
    guard let latest = latest(of: snapshots) else { throw WorkflowError.noSnapshots(store: store) }
    switch reference?.lowercased() {
    case nil:
      guard let week else { return latest }
      let endOfWeek = week.end
      guard let chosen = Self.latest(of: snapshots.filter { $0.koreaDay <= endOfWeek }) else {
        let first = snapshots.first.map { $0.takenAt.koreaDisplay } ?? "?"
        throw WorkflowError.weekBeforeFirstSnapshot(week: week.description, first: first)
      }
      return chosen
    case "latest":
      return latest
    case let text?:
      guard let id = Int64(text), id > 0 else { throw WorkflowError.invalidSnapshotReference(text) }
      guard let found = snapshots.first(where: { $0.id == id }) else {
        throw WorkflowError.unknownSnapshot(id: id, store: store)
      }
      return found
    }
  }

  /// `--compare-to`: an id, `previous` (the default: the latest snapshot taken at least one
  /// day before the chosen one) or `none`.
  public static func chooseComparison(
    _ reference: String?, for chosen: SnapshotInfo, in snapshots: [SnapshotInfo], store: String
  ) throws -> SnapshotInfo? {
    switch reference?.lowercased() ?? "previous" {
    case "none":
      return nil
    case "previous":
      return previous(of: chosen, in: snapshots)
    case let text:
      guard let id = Int64(text), id > 0 else { throw WorkflowError.invalidCompareReference(text) }
      guard let found = snapshots.first(where: { $0.id == id }) else {
        throw WorkflowError.unknownSnapshot(id: id, store: store)
      }
      guard found.id != chosen.id else { throw WorkflowError.compareToSelf(id: id) }
      return found
    }
  }

  /// Checks a `--compare-to` before the snapshot it is for exists (it is about to be
  /// recorded): the same errors ``chooseComparison(_:for:in:store:)`` would give.
  public static func checkComparisonReference(
    _ reference: String, in snapshots: [SnapshotInfo], store: String
  ) throws {
    switch reference.lowercased() {
    case "none", "previous": return
    case let text:
      guard let id = Int64(text), id > 0 else { throw WorkflowError.invalidCompareReference(text) }
      guard snapshots.contains(where: { $0.id == id }) else {
        throw WorkflowError.unknownSnapshot(id: id, store: store)
      }
    }
  }

  /// The snapshot taken last (`taken_at`, as the trend orders them; of snapshots taken at
  /// one instant, the one recorded last), not the one with the highest id.
  public static func latest(of snapshots: [SnapshotInfo]) -> SnapshotInfo? {
    snapshots.max { ($0.takenAt, $0.id) < ($1.takenAt, $1.id) }
  }

  /// The snapshot taken last before `chosen` (by `taken_at`, then id), whatever the gap.
  public static func before(_ chosen: SnapshotInfo, in snapshots: [SnapshotInfo]) -> SnapshotInfo? {
    latest(of: snapshots.filter { ($0.takenAt, $0.id) < (chosen.takenAt, chosen.id) })
  }

  /// The latest snapshot taken at least 24 hours before `chosen`.
  public static func previous(of chosen: SnapshotInfo, in snapshots: [SnapshotInfo]) -> SnapshotInfo? {
    let cutoff = chosen.takenAt.addingTimeInterval(-86_400)
    return snapshots.filter { $0.id != chosen.id && $0.takenAt <= cutoff }
      .max { ($0.takenAt, $0.id) < ($1.takenAt, $1.id) }
  }

  /// `--week`, or the ISO week (Korea time) containing the snapshot's time.
  public static func parseWeek(_ text: String?) throws -> ISOWeek? {
    guard let text else { return nil }
    guard let week = ISOWeek(text) else { throw WorkflowError.invalidWeek(text) }
    return week
  }

  public static func defaultWeek(for snapshot: SnapshotInfo) -> ISOWeek {
    ISOWeek(containing: snapshot.koreaDay)
  }
}
