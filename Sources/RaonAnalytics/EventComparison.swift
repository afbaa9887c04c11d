import RaonCore

/// Compares two snapshots of a catalog without ids (the national data) event by event:
/// by the natural key each program carries as its id, and by the rows (sessions) each
/// event holds (docs/NATIONAL.md, "What counts as a change").
///
/// - An event is **added** or **removed** when its key is in one snapshot only.
/// - An event in both is **changed** when its rows differ: each row is the values of
///   every compared field (``comparedFields``: every field of the catalog but the
///   provider's name and code and 데이터기준일자), each trimmed of surrounding white space,
///   the two addresses with their regions written by lineage (``RegionLineage/addressKey(_:)``);
///   the event's rows are compared as a multiset, so their order in the file never
///   matters and a session added, removed or edited is a change of the event.
/// - A region renamed or merged, or a provider's code changed, changes no compared field
///   and no key: it is neither a change nor a removal and an addition.
///
/// Rows are matched by field meaning (``CanonicalField``), so a CSV download compares with
/// an Open API fetch of the same data; a field that one of the two snapshots lacks
/// altogether (a column the portal added or dropped) is not compared.
public enum EventComparison {
  /// The fields whose values make an event's rows (all of the profile's but the
  /// provider's name and code and the data's reference day).
  public static func comparedFields(_ profile: CatalogProfile) -> [CanonicalField] {
    profile.fields.map(\.field).filter { ![.provider, .providerCode, .referenceDate].contains($0) }
  }

  /// The events of a snapshot: each program id with its program and its rows.
  public struct Event: Sendable {
    public var program: Program
    /// The rows' compared values (``comparedFields``' order), sorted.
    public var rows: [[String]]
  }

  /// A snapshot's events, and the compared fields its rows carry at all.
  public struct Snapshot: Sendable {
    public var events: [String: Event]
    public var fields: Set<CanonicalField>
  }

  /// The events of a snapshot: its programs (every row of an event carries the event's
  /// program) and its raw records, each with the id of the program it belongs to.
  public static func events(
    programs: [Program], rows: [(id: String, raw: RawRecord)], profile: CatalogProfile
  ) -> Snapshot {
    let fields = comparedFields(profile)
    let lineage = profile.regions.lineage ?? .shipped
    var present: Set<CanonicalField> = []
    var seenNames: Set<ObjectIdentifier> = []
    var events: [String: Event] = [:]
    for program in programs where events[program.id] == nil {
      events[program.id] = Event(program: program, rows: [])
    }
    for (id, raw) in rows {
      if seenNames.insert(ObjectIdentifier(raw.names)).inserted { present.formUnion(raw.names.fields) }
      let row = fields.map { field -> String in
        let value = CatalogText.trimmed(raw[field] ?? "")
        return field == .roadAddress || field == .lotAddress ? lineage.addressKey(value) : value
      }
      events[id, default: Event(program: Program(id: id), rows: [])].rows.append(row)
    }
    for id in events.keys { events[id]?.rows.sort { $0.lexicographicallyPrecedes($1, by: utf8Less) } }
    return Snapshot(events: events, fields: present.intersection(fields))
  }

  /// What was added, removed and changed from `old` to `new` (lists sorted by id, as
  /// ``SnapshotComparison/diff(old:new:)``'s).
  public static func diff(old: Snapshot, new: Snapshot, profile: CatalogProfile) -> SnapshotDiff {
    let all = comparedFields(profile)
    // The fields both snapshots carry, by their place in a row.
    let shared = all.indices.filter { old.fields.contains(all[$0]) && new.fields.contains(all[$0]) }
    let together = shared.count == all.count
    func rows(_ event: Event) -> [[String]] {
      together ? event.rows : event.rows.map { row in shared.map { row[$0] } }.sorted { $0.lexicographicallyPrecedes($1, by: utf8Less) }
    }
    var added: [Program] = []
    var removed: [Program] = []
    var changed: [ChangedProgram] = []
    for (id, event) in new.events where old.events[id] == nil { added.append(event.program) }
    for (id, event) in old.events {
      guard let now = new.events[id] else {
        removed.append(event.program)
        continue
      }
      if rows(now) == rows(event) { continue }
      changed.append(
        ChangedProgram(
          old: event.program, new: now.program,
          fields: fieldChanges(event, now, fields: all, comparing: Set(shared))))
    }
    added.sort { $0.id < $1.id }
    removed.sort { $0.id < $1.id }
    changed.sort { $0.id < $1.id }
    return SnapshotDiff(added: added, removed: removed, changed: changed)
  }

  /// The fields whose sets of values differ between an event's two sets of rows, each as
  /// its distinct values in row order joined by ` / ` (the coordinates named
  /// `latitude`/`longitude`, the others by their ``CanonicalField`` name), and `sessions`
  /// when the number of rows changed.
  static func fieldChanges(
    _ old: Event, _ new: Event, fields: [CanonicalField], comparing: Set<Int>
  ) -> [FieldChange] {
    var changes: [FieldChange] = []
    if old.rows.count != new.rows.count {
      changes.append(FieldChange(field: "sessions", old: String(old.rows.count), new: String(new.rows.count)))
    }
    for (i, field) in fields.enumerated() where comparing.contains(i) {
      guard Set(old.rows.map { $0[i] }) != Set(new.rows.map { $0[i] }) else { continue }
      changes.append(
        FieldChange(
          field: name(of: field), old: distinct(old.rows.map { $0[i] }), new: distinct(new.rows.map { $0[i] })))
    }
    return changes
  }

  /// A field's name in a change.
  static func name(of field: CanonicalField) -> String {
    switch field {
    case .coordinateA: return "latitude"
    case .coordinateB: return "longitude"
    default: return field.rawValue
    }
  }

  private static func distinct(_ values: [String]) -> String {
    var seen: [String] = []
    for value in values where !seen.contains(value) { seen.append(value) }
    return seen.joined(separator: " / ")
  }

  /// Byte order (as the store and Python sort), not Swift's Unicode order.
  static func utf8Less(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }
}
