import Foundation
import RaonAnalytics
import RaonCore
import RaonErrors
import RaonStore

/// A national comparison whose snapshots must be read again under another lineage
/// (``EventComparison/checkLineage(old:new:profile:between:)``): thrown by the comparison, caught
/// by the report or `raon diff`, which then does its work again over a ``RelinedStore``.
/// Never reaches the command line: a job that catches it redoes the comparison once, under
/// the lineage found, without checking again.
struct LineageFound: RaonError, CustomStringConvertible {
  var exitStatus: ExitStatus { .failure }
  var check: EventComparison.LineageCheck
  var description: String {
    "the national comparison must be read again under the lineage found in the data (an internal step that was not taken)"
  }

  /// How many snapshots before the compared one are read to find where a 시·도's unknown
  /// new name first appeared (a quarter of weekly snapshots).
  static let lookBack = 12

  /// The comparison's check, thrown when it calls for reading the snapshots again: a
  /// lineage found between `old` and `new`, stale keys, or a 시·도 name `new`'s providers use
  /// that the lineage does not know, found where it first appeared in `store`'s history.
  static func check(
    old: EventComparison.Snapshot, new: EventComparison.Snapshot, profile: CatalogProfile,
    compared: SnapshotInfo, reported: CalendarDay, store: any SnapshotStoring
  ) throws {
    let between = LineageBetween(old: compared.koreaDay, new: reported)
    if let check = EventComparison.checkLineage(old: old, new: new, profile: profile, between: between) {
      throw LineageFound(check: check)
    }
    let lineage = profile.regions.lineage ?? .shipped
    guard lineage.detection.enabled else { return }
    let unknown = EventComparison.unknownProvinces(in: new, lineage: lineage)
    guard !unknown.isEmpty, !unknown.isDisjoint(with: EventComparison.unknownProvinces(in: old, lineage: lineage)),
      let check = try firstSeen(unknown, before: compared, in: store, lineage: lineage)
    else { return }
    throw LineageFound(check: check)
  }

  /// The lineage found where the providers first named themselves under `words`: between
  /// the latest snapshot before `compared` whose providers do not, and the one after it.
  static func firstSeen(
    _ words: Set<String>, before compared: SnapshotInfo, in store: any SnapshotStoring, lineage: RegionLineage
  ) throws -> EventComparison.LineageCheck? {
    let earlier = try store.snapshots().filter { $0.takenAt < compared.takenAt }.sorted { $0.takenAt > $1.takenAt }
    var later = (info: compared, rows: try store.rawRecords(inSnapshot: compared.id).map(\.record))
    for info in earlier.prefix(lookBack) {
      let rows = try store.rawRecords(inSnapshot: info.id).map(\.record)
      guard LineageDetection.unknownProvinces(rows, lineage: lineage).isDisjoint(with: words) else {
        later = (info, rows)
        continue
      }
      let (findings, found) = LineageDetection.detect(old: rows, new: later.rows, lineage: lineage, on: later.info.koreaDay)
      // Only what names one of the words: an older week's other findings are that week's.
      guard words.contains(where: { found.province(spelledAs: $0) != nil }) else { return nil }
      return EventComparison.LineageCheck(
        findings: findings, lineage: found, between: LineageBetween(old: info.koreaDay, new: later.info.koreaDay))
    }
    return nil
  }

  /// The profile with the lineage to read under.
  func profile(over profile: CatalogProfile) -> CatalogProfile { profile.with(lineage: check.lineage) }

  /// What the report and the warnings say (`nil` when only the stored keys were stale).
  var note: LineageNote? {
    check.findings.isEmpty ? nil : NationalConfig.note(check.findings, between: check.between)
  }
}

extension SnapshotReading {
  /// ``diff(from:to:in:profile:)`` of the national data, first checking (unless not
  /// `checking`) that its keys can be trusted as stored (``LineageFound``).
  static func diffCheckingLineage(
    from old: SnapshotInfo, to new: SnapshotInfo, in store: any SnapshotStoring, profile: CatalogProfile,
    checking: Bool = true
  ) throws -> SnapshotDiff {
    let before = try events(of: old, in: store, profile: profile).events
    let after = try events(of: new, in: store, profile: profile).events
    if checking {
      try LineageFound.check(
        old: before, new: after, profile: profile, compared: old, reported: new.koreaDay, store: store)
    }
    return EventComparison.diff(old: before, new: after, profile: profile)
  }
}

/// A store read as if some of its national snapshots had been recorded under `profile`'s
/// lineage: their rows keyed and their events made again from the raw rows
/// (``NationalNormalizer``), exactly as recording them under that lineage would have.
/// Nothing is written: the store keeps what it recorded, and every other read passes through.
struct RelinedStore: SnapshotStoring {
  let base: any SnapshotStoring
  /// Each re-read snapshot's programs and raw rows, in the store's order (by id).
  let relined: [Int64: (programs: [Program], rows: [StoredRawRecord])]

  init(_ base: any SnapshotStoring, snapshots: [Int64], profile: CatalogProfile) throws {
    self.base = base
    var relined: [Int64: (programs: [Program], rows: [StoredRawRecord])] = [:]
    for id in Set(snapshots) {
      let rows = try base.rawRecords(inSnapshot: id)
      let programs = NationalNormalizer.normalize(rows.map(\.record), profile: profile)
      // By id, rows of one event in the order stored, as the store gives them.
      let order = programs.indices.sorted {
        programs[$0].id != programs[$1].id
          ? programs[$0].id.utf8.lexicographicallyPrecedes(programs[$1].id.utf8) : $0 < $1
      }
      relined[id] = (
        order.map { programs[$0] },
        order.map { i in
          var row = rows[i]
          row.programID = programs[i].id
          return row
        })
    }
    self.relined = relined
  }

  /// Why it records nothing: it is a reading of the store, never written through.
  static let readOnly = "a store read under a lineage found in the data is never written through"

  var location: String { base.location }
  var shrinkGuard: ShrinkGuard? {
    get { base.shrinkGuard }
    set {}
  }
  var storeAccess: StoreAccess { base.storeAccess }

  func snapshots() throws -> [SnapshotInfo] { try base.snapshots() }

  func details(snapshot id: Int64) throws -> SnapshotDetails {
    let details = try base.details(snapshot: id)
    guard let programs = relined[id]?.programs else { return details }
    return SnapshotDetails(
      snapshot: details.snapshot, inputSHA256: details.inputSHA256, distinctPrograms: Set(programs.map(\.id)).count,
      versionCount: details.versionCount, versionsFirstSeen: details.versionsFirstSeen,
      unchangedSince: details.unchangedSince, fieldSets: details.fieldSets)
  }

  func deleteSnapshot(id: Int64, dryRun: Bool) throws -> SnapshotDeletion {
    throw StoreError.recordFailed(path: base.location, reason: Self.readOnly)
  }

  func unchangedSince(snapshot id: Int64) throws -> Int64? { try base.unchangedSince(snapshot: id) }

  func programs(inSnapshot id: Int64) throws -> [Program] {
    try relined[id]?.programs ?? base.programs(inSnapshot: id)
  }

  func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord] {
    try relined[id]?.rows ?? base.rawRecords(inSnapshot: id)
  }

  func programsAndRawRecords(inSnapshot id: Int64) throws -> (programs: [Program], records: [StoredRawRecord]) {
    try relined[id].map { ($0.programs, $0.rows) } ?? base.programsAndRawRecords(inSnapshot: id)
  }

  func programChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    guard let programs = relined[id]?.programs else { return try base.programChunks(inSnapshot: id, chunkSize: chunkSize) }
    return ProgramChunks(programs)
  }

  func programColumnChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks {
    guard let programs = relined[id]?.programs else {
      return try base.programColumnChunks(inSnapshot: id, chunkSize: chunkSize)
    }
    return ProgramChunks(programs.map(\.statisticsColumns))
  }

  func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program]) {
    try base.programsThatDiffer(old: old, new: new)
  }

  func trendSteps(_ snapshots: [SnapshotInfo]) throws -> [TrendStep] { try base.trendSteps(snapshots) }

  func recordingTogether<T>(_ body: (any SnapshotRecording) throws -> T) throws -> T {
    throw StoreError.recordFailed(path: base.location, reason: Self.readOnly)
  }

  func foldLog() -> String? { base.foldLog() }
}
