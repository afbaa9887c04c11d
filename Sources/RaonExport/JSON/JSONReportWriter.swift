import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// Writes `report.json` (the contract of DESIGN.md, plus documented extensions) and, for
/// `raon diff`, `changes.json`.
///
/// `report.json`, keys in this order (★ = extension beyond the contract):
/// ```
/// snapshot      {id, takenAt, source, programCount, ★sourceTotal (int|null)}
/// compareTo     null | {id, takenAt, ★source, programCount}
/// ★week         "2024-W37"            ★weekStart "2024-09-09"   ★weekEnd "2024-09-15"
/// ★totals       {programs, free, paid, freeShare}
/// ★thisWeek     {active, starting, activeFree, activeFreeShare,
///                activeByCategory, activeByDistrict, startingByCategory,
///                startingByDistrict: [{key, count}]}
/// ★compareWeek  null | same shape, the compared snapshot's figures for the same week
/// byCategory    [{key, count, free, paid, medianDurationDays, medianFeeMinKrw, ★share}]
/// byDistrict    same shape
/// byFee         [{key, count}]        (all seven bands, contract order)
/// byDuration    [{key, count}]        (all seven bands, contract order)
/// ★categoryByDistrict {categories: [..], districts: [..], counts: [[..]]}
///                      counts[i][j] = programs of categories[i] in districts[j]
/// changes       null | {added, removed, changed (counts), addedIds, removedIds,
///                changedIds, ★changedFields: {id: [{field, old, new}]}}
/// quality       [{flag, count}]
/// ```
/// - `takenAt` is ISO 8601 UTC with whole seconds and `Z` (`2024-09-08T15:00:00Z`).
/// - Counts are JSON integers; medians, shares (fractions 0…1) are numbers printed
///   shortest (`2.5`, `3`, never `3.0`); a median with no values is `null`.
/// - Ids lists are sorted by id, as the analytics give them.
/// - Deterministic: no clock, fixed key order, two-space indentation, UTF-8 without
///   `\u` escapes for Korean.
///
/// `changes.json`: `{from, to, added, removed, changed, addedIds, removedIds, changedIds,
/// changedFields}` and the report's kinds (`removedEnded`, `removedWithdrawn`,
/// `removedEndedIds`, `removedWithdrawnIds`, `changedMaterial`, `changedMinor`,
/// `changedMaterialIds`, `changedMinorIds`, D being `to`'s day), where `from`/`to` are
/// `{id, takenAt, source, programCount}`.
public struct JSONReportWriter: TextRenderer {
  public init() {}

  /// `report.json`, `changes.json` or `trend.json`.
  public func files(for document: ReportDocument, options: ExportOptions) throws -> [OutputFile] {
    switch document {
    case .report(let report):
      return [OutputFile("report.json", Self.reportDocument(report.figures, labels: options.labels).pretty())]
    case .comparison(let c):
      let value = Self.comparisonDocument(c.diff, from: c.from, to: c.to, labels: options.labels)
      return [OutputFile("changes.json", value.pretty())]
    case .trend(let t):
      return [OutputFile(TrendWriters.jsonFileName, TrendJSON.value(points: t.points).pretty())]
    }
  }

  // MARK: - Documents

  /// `report.json`, its keys in the catalog's words (``FileWords``: `byDistrict`, or the
  /// national data's `byRegion`, `byProvider`, `providerByRegion`, `region` for a pack's
  /// place, `catalog` and `unit` first, its extra tables last).
  static func reportDocument(_ r: ReportData, labels: ReportLabels) -> JSONValue {
    let t = r.tables
    let keys = JSONKeys(labels.words.files)
    let previous: JSONValue =
      r.previousWeek.flatMap { v in r.compareTo.map { previousWeek(v, snapshotId: $0.id) } } ?? .null
    let changes: JSONValue =
      r.changes.map { .object(changeMembers($0, labels: labels) + (r.changeKinds.map(changeKindMembers) ?? [])) }
      ?? .null
    let quality: [JSONValue] = t.quality.map {
      .object([("flag", .string($0.key)), ("count", .int($0.count))])
    }
    let files = labels.words.files
    let head: [(String, JSONValue)] =
      files.jsonNamesCatalog
      ? [("catalog", .string(labels.profile.name.rawValue)), ("unit", .string(labels.words.item.enPlural))] : []
    let extras: [(String, JSONValue)] = r.extras.map { ($0.extra.jsonKey, .array($0.rows.map(band))) }
    return .object(head + [
      (
        "snapshot",
        .object([
          ("id", .int(Int(r.snapshot.id))),
          ("takenAt", .string(ReportTime.iso8601UTC(r.snapshot.takenAt))),
          ("source", .string(r.snapshot.source)),
          ("programCount", .int(r.snapshot.programCount)),
          ("sourceTotal", .int(r.snapshot.sourceTotal)),
        ])
      ),
      ("compareTo", r.compareTo.map(snapshotRef) ?? .null),
      ("week", .string(r.week.description)),
      ("weekStart", .string(r.week.start.description)),
      ("weekEnd", .string(r.week.end.description)),
      (
        "totals",
        .object([
          ("programs", .int(t.total)),
          ("free", .int(t.free)),
          ("paid", .int(t.total - t.free - t.unknown)),
          ("unknown", .int(t.unknown)),
          ("freeShare", .number(t.total > 0 ? Double(t.free) / Double(t.total) : 0)),
        ])
      ),
      ("thisWeek", thisWeek(r, keys)),
      ("previousWeek", previous),
      (keys.place, r.district.map(district) ?? .null),
      ("trend", .array(r.trend.map(trendPoint))),
      ("compareWeek", r.compareWeek.map { weekFigures($0, keys) } ?? .null),
      (keys.by(group: ""), .array(t.byCategory.map(group))),
      (keys.by(region: ""), .array(t.byDistrict.map(group))),
      ("byFee", .array(t.byFee.map(band))),
      ("byDuration", .array(t.byDuration.map(band))),
      (keys.cross, cross(t.categoryByDistrict)),
      ("changes", changes),
      ("quality", .array(quality)),
    ] + extras)
  }

  /// The keys that name a region or a group, in the catalog's words: `runningByDistrict`,
  /// `runningByRegion`.
  struct JSONKeys {
    let region: String
    let group: String

    init(_ files: FileWords) {
      region = files.jsonRegion
      group = files.jsonGroup
    }

    /// `byDistrict` (`prefix` empty), `activeByDistrict` (`prefix` `active`).
    func by(region prefix: String) -> String { (prefix.isEmpty ? "by" : prefix + "By") + region }
    func by(group prefix: String) -> String { (prefix.isEmpty ? "by" : prefix + "By") + group }
    /// A pack's place: `district`, `region`.
    var place: String { region.prefix(1).lowercased() + region.dropFirst() }
    /// The cross table: `categoryByDistrict`, `providerByRegion`.
    var cross: String { group.prefix(1).lowercased() + group.dropFirst() + "By" + region }
  }

  static func comparisonDocument(_ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, labels: ReportLabels)
    -> JSONValue
  {
    // The report's change analysis and keys (DESIGN.md, report.json `changes`): D is the
    // newer snapshot's day.
    .object(
      [("from", snapshotRef(from)), ("to", snapshotRef(to))] + changeMembers(diff, labels: labels)
        + changeKindMembers(ChangeKinds.classify(diff, day: to.koreaDay)))
  }

  // MARK: - Parts

  private static func snapshotRef(_ s: SnapshotInfo) -> JSONValue {
    .object([
      ("id", .int(Int(s.id))),
      ("takenAt", .string(ReportTime.iso8601UTC(s.takenAt))),
      ("source", .string(s.source)),
      ("programCount", .int(s.programCount)),
    ])
  }

  private static func group(_ g: GroupStats) -> JSONValue {
    .object([
      ("key", .string(g.key)),
      ("count", .int(g.count)),
      ("free", .int(g.free)),
      ("paid", .int(g.paid)),
      ("unknown", .int(g.unknown)),
      ("medianDurationDays", .number(g.medianDurationDays)),
      ("medianFeeMinKrw", .number(g.medianFeeMinKrw)),
      ("share", .number(g.share)),
    ])
  }

  private static func band(_ b: BandCount) -> JSONValue {
    .object([("key", .string(b.key)), ("count", .int(b.count))])
  }

  private static func weekFigures(_ w: WeekFigures, _ keys: JSONKeys) -> JSONValue {
    .object([
      ("active", .int(w.active)),
      ("starting", .int(w.starting)),
      ("activeFree", .int(w.activeFree)),
      ("activeFreeShare", .number(w.active > 0 ? Double(w.activeFree) / Double(w.active) : 0)),
      (keys.by(group: "active"), .array(w.activeByCategory.map(band))),
      (keys.by(region: "active"), .array(w.activeByDistrict.map(band))),
      (keys.by(group: "starting"), .array(w.startingByCategory.map(band))),
      (keys.by(region: "starting"), .array(w.startingByDistrict.map(band))),
    ])
  }

  /// The week's figures: the first round's keys, then the week-centred ones (one
  /// definition each, ``WeekView``); `starting` is the same figure in both.
  private static func thisWeek(_ r: ReportData, _ keys: JSONKeys) -> JSONValue {
    guard case .object(let first) = weekFigures(r.thisWeek, keys) else { return weekFigures(r.thisWeek, keys) }
    let v = r.weekView
    return .object(
      first + [
        ("current", .int(v.current)),
        ("running", .int(v.running)),
        ("ending", .int(v.ending)),
        ("registered", .int(v.registered)),
        ("runningFree", .int(v.runningFree)),
        (keys.by(group: "running"), .array(v.runningByCategory.map(band))),
        (keys.by(region: "running"), .array(v.runningByDistrict.map(band))),
        (keys.by(group: "current"), .array(v.currentByCategory.map(band))),
        (keys.by(region: "current"), .array(v.currentByDistrict.map(band))),
        ("startingIds", ids(v.startingIds)),
        ("endingIds", ids(v.endingIds)),
        ("registeredIds", ids(v.registeredIds)),
      ])
  }

  /// The compared snapshot's figures for its own week and day (what last week said).
  static func previousWeek(_ v: WeekView, snapshotId: Int64) -> JSONValue {
    .object([
      ("isoWeek", .string(v.isoWeek.description)),
      ("snapshotId", .int(Int(snapshotId))),
      ("current", .int(v.current)),
      ("running", .int(v.running)),
      ("starting", .int(v.starting)),
      ("ending", .int(v.ending)),
      ("registered", .int(v.registered)),
      ("runningFree", .int(v.runningFree)),
    ])
  }

  /// One point of the trend (also the shape of `raon trend`'s JSON).
  public static func trendPoint(_ p: WeeklyTrendPoint) -> JSONValue {
    .object([
      ("isoWeek", .string(p.isoWeek.description)),
      ("snapshotId", .int(Int(p.snapshotId))),
      ("takenAt", .string(ReportTime.iso8601UTC(p.takenAt))),
      ("programCount", .int(p.programCount)),
      ("current", .int(p.current)),
      ("running", .int(p.running)),
      ("starting", .int(p.starting)),
      ("registered", .int(p.registered)),
      ("added", .int(p.added)),
      ("removed", .int(p.removed)),
    ])
  }

  /// A district pack's place among the 25 (`null` in the city report).
  private static func district(_ d: DistrictScope) -> JSONValue {
    .object([
      ("name", .string(d.name)),
      ("runningRank", .int(d.runningRank)),
      ("currentRank", .int(d.currentRank)),
      ("runningShare", .number(d.runningShare)),
      ("currentShare", .number(d.currentShare)),
      ("districtCount", .int(d.districtCount)),
    ])
  }

  private static func changeKindMembers(_ k: ChangeKinds) -> [(String, JSONValue)] {
    [
      ("removedEnded", .int(k.removedEnded)),
      ("removedWithdrawn", .int(k.removedWithdrawn)),
      ("removedEndedIds", ids(k.removedEndedIds)),
      ("removedWithdrawnIds", ids(k.removedWithdrawnIds)),
      ("changedMaterial", .int(k.changedMaterial)),
      ("changedMinor", .int(k.changedMinor)),
      ("changedMaterialIds", ids(k.changedMaterialIds)),
      ("changedMinorIds", ids(k.changedMinorIds)),
    ]
  }

  private static func ids(_ ids: [String]) -> JSONValue { .array(ids.map(JSONValue.string)) }

  private static func cross(_ c: CrossTable) -> JSONValue {
    .object([
      ("categories", .array(c.rowKeys.map(JSONValue.string))),
      ("districts", .array(c.columnKeys.map(JSONValue.string))),
      ("counts", .array(c.counts.map { .array($0.map(JSONValue.int)) })),
    ])
  }

  /// The changes' members; a catalog that names changed fields for people
  /// (``FileWords/labelsChangedFields``) gives each its `label` after its code (`feeText`
  /// → 관람요금, `sessions` → 회차 수; in English its English label).
  private static func changeMembers(_ d: SnapshotDiff, labels: ReportLabels) -> [(String, JSONValue)] {
    let labelled = labels.words.files.labelsChangedFields
    func field(_ f: FieldChange) -> JSONValue {
      var members: [(String, JSONValue)] = [("field", .string(f.field))]
      if labelled { members.append(("label", .string(labels.fieldName(f.field)))) }
      return .object(members + [("old", .string(f.old)), ("new", .string(f.new))])
    }
    return [
      ("added", .int(d.added.count)),
      ("removed", .int(d.removed.count)),
      ("changed", .int(d.changed.count)),
      ("addedIds", .array(d.addedIds.map(JSONValue.string))),
      ("removedIds", .array(d.removedIds.map(JSONValue.string))),
      ("changedIds", .array(d.changedIds.map(JSONValue.string))),
      (
        "changedFields",
        .object(
          d.changed.map { c in (c.id, JSONValue.array(c.fields.map(field))) })
      ),
    ]
  }
}
