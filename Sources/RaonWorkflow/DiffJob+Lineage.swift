import RaonAnalytics
import RaonCore
import RaonStore

/// `raon diff` of the national data under the lineage found in the data (``LineageFound``):
/// both snapshots read again under it (``RelinedStore``), as the report does
/// (ReportJob+Lineage.swift); the store is not changed.
extension DiffJob {
  /// The changes from `from` to `to`; the profile whose lineage names their events; the
  /// store as they were read; and what was found in the data (`nil`: nothing).
  func comparedCheckingLineage(_ from: SnapshotInfo, _ to: SnapshotInfo) throws
    -> (diff: SnapshotDiff, profile: CatalogProfile, store: any SnapshotStoring, note: LineageNote?)
  {
    guard profile.tracesLineage else {
      return (try SnapshotReading.diff(from: from, to: to, in: store, profile: profile), profile, store, nil)
    }
    do {
      return (try SnapshotReading.diffCheckingLineage(from: from, to: to, in: store, profile: profile), profile, store, nil)
    } catch let found as LineageFound {
      let relined = found.profile(over: profile)
      let view = try RelinedStore(store, snapshots: [from.id, to.id], profile: relined)
      return (try SnapshotReading.diff(from: from, to: to, in: view, profile: relined), relined, view, found.note)
    }
  }
}
