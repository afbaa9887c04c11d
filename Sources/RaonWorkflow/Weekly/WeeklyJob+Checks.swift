import Foundation
import RaonCore
import RaonDocument
import RaonStore

/// The gates of a week, with the figures they were checked on.
struct CheckedGates: Equatable {
  var figures: GateFigures
  var gates: [WeeklyGate]

  /// The gates as the ledger keeps them (`weekly_run.gates`).
  var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(gates)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }
}

extension WeeklyJob {
  /// Checks the gates of the week's snapshot against the one its report compares it with
  /// (the latest taken a day or more before it); notes them on the run. `nil` when there is
  /// nothing to compare with (the first week).
  func checkGates(
    _ snapshot: SnapshotInfo, settings: WeeklySettings, runID: Int64, into outcome: inout WeeklyOutcome
  ) throws -> CheckedGates? {
    guard let old = SnapshotSelection.previous(of: snapshot, in: try store.snapshots()) else {
      outcome.lines.append("gates: nothing to compare with yet (the first week) — not checked")
      return nil
    }
    let figures = try GateFigures.fromStore(store, old: old, new: snapshot)
    let checked = CheckedGates(
      figures: figures,
      gates: WeeklyGates.check(figures, settings: settings.gates, language: options.language, region: options.profile.words.region, unplaced: options.profile.unplacedRegions))
    try store.ledger.note(run: runID, .init(gates: checked.json))
    outcome.lines += Self.gateLines(checked)
    return checked
  }

  /// `gates (snapshot 2 → 3):` and a line per gate, for the run's output and the dry run.
  static func gateLines(_ checked: CheckedGates) -> [String] {
    let old = checked.figures.old.id.map { "snapshot \($0)" } ?? "?"
    let new = checked.figures.new.id.map { "snapshot \($0)" } ?? "the catalog pulled"
    var lines = ["gates (\(old) of \(checked.figures.old.takenAt.koreaDisplay) → \(new)):"]
    for gate in checked.gates {
      lines.append("  \(gate.tripped ? "TRIPPED" : "passes ") \(gate.gate.rawValue): \(gate.figure) — \(gate.label)")
    }
    if checked.gates.isEmpty { lines.append("  every gate is off ([weekly.gates])") }
    return lines
  }
}

extension GateFigures {
  /// Two recorded snapshots' figures, from small queries of the store.
  static func fromStore(_ store: any SnapshotStoring, old: SnapshotInfo, new: SnapshotInfo) throws -> GateFigures {
    let (changed, gone) = changes(
      oldDiffering: try store.programIDs(inSnapshot: old.id, notIn: new.id),
      newDiffering: try store.programIDs(inSnapshot: new.id, notIn: old.id))
    return GateFigures(old: try side(store, old), new: try side(store, new), changed: changed, gone: gone)
  }

  /// A recorded snapshot's side.
  static func side(_ store: any SnapshotStoring, _ snapshot: SnapshotInfo) throws -> Side {
    let details = try store.details(snapshot: snapshot.id)
    return Side(
      id: snapshot.id, takenAt: snapshot.takenAt, programs: snapshot.programCount,
      distinctPrograms: details.distinctPrograms, byRegion: try store.programsByRegion(inSnapshot: snapshot.id),
      columns: Set(details.fieldSets.flatMap(\.names)))
  }

  /// A catalog not recorded yet (a dry run) against a recorded snapshot: the same figures
  /// as once it is recorded (its versions told apart by the same content hash).
  static func fromCatalog(
    _ store: any SnapshotStoring, old: SnapshotInfo, entries: [NewSnapshot.Entry], takenAt: Date
  ) throws -> GateFigures {
    let oldVersions = try store.versionHashes(inSnapshot: old.id)
    let newVersions = entries.map { (programID: $0.program.id, hash: $0.contentHash) }
    let oldHashes = Set(oldVersions.map(\.hash))
    let newHashes = Set(newVersions.map(\.hash))
    let (changed, gone) = changes(
      oldDiffering: Set(oldVersions.filter { !newHashes.contains($0.hash) }.map(\.programID)),
      newDiffering: Set(newVersions.filter { !oldHashes.contains($0.hash) }.map(\.programID)))
    var byRegion: [String: Int] = [:]
    var columns = Set<String>()
    for entry in entries {
      byRegion[entry.program.district, default: 0] += 1
      columns.formUnion(entry.raw.names.names)
    }
    let new = Side(
      id: nil, takenAt: takenAt, programs: entries.count, distinctPrograms: Set(entries.map(\.program.id)).count,
      byRegion: byRegion, columns: columns)
    return GateFigures(old: try side(store, old), new: new, changed: changed, gone: gone)
  }
}
