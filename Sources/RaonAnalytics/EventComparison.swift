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
    /// Each row's ``RowDigest`` of its compared values, sorted: two events with the same
    /// multiset of rows have equal lists.
    var digests: [RowDigest]
    /// Where the event's rows are in ``Snapshot/rows``, for the events whose rows differ.
    var rowIndexes: [Int]
  }

  /// A snapshot's events, and the compared fields its rows carry at all.
  ///
  /// An event keeps a digest of each row, not the row's values: holding every value of
  /// every row of two snapshots was the largest part of the national report's memory
  /// (docs/PERFORMANCE.md), and only the few events that differ need their values, read
  /// again from ``rows``.
  public struct Snapshot: Sendable {
    public var events: [String: Event]
    public var fields: Set<CanonicalField>
    /// The raw rows, as given.
    let rows: [RawRecord]
    let lineage: RegionLineage

    /// A row's compared values (``comparedFields``' order, only those at `places`): each
    /// trimmed, an address keyed by lineage; and the values as a person reads them (the
    /// address as the row gives it, never its key).
    func values(_ index: Int, compared: [CanonicalField], places: [Int]) -> Row {
      let raw = rows[index]
      var row = Row(key: [], shown: [])
      for n in places {
        let value = CatalogText.trimmed(raw[compared[n]] ?? "")
        row.key.append(isAddress(compared[n]) ? lineage.addressKey(value) : value)
        row.shown.append(value)
      }
      return row
    }

    /// An event's rows (``values(_:compared:places:)``), sorted by their keys' bytes.
    func rows(of event: Event, compared: [CanonicalField], places: [Int]) -> [Row] {
      event.rowIndexes.map { values($0, compared: compared, places: places) }
        .sorted { $0.key.lexicographicallyPrecedes($1.key, by: utf8Less) }
    }
  }

  /// A row's compared values: what is compared (``key``, addresses keyed by lineage) and
  /// what a change shows (``shown``, the values as given).
  struct Row: Sendable {
    var key: [String]
    var shown: [String]
  }

  /// A row's compared values in 128 bits: two SipHashes (Swift's `Hasher`, seeded once per
  /// process, so digests compare only within one run) over the values' bytes, each keyed
  /// apart. Two rows that differ share a digest with a chance of about 2⁻¹²⁸; rows that
  /// differ only in bytes, not as text (a decomposed 한글), get different digests and are
  /// then compared as text.
  struct RowDigest: Hashable, Comparable, Sendable {
    var high: Int
    var low: Int
    static func < (a: RowDigest, b: RowDigest) -> Bool { (a.high, a.low) < (b.high, b.low) }
  }

  static func isAddress(_ field: CanonicalField) -> Bool { field == .roadAddress || field == .lotAddress }

  /// The events of a snapshot: its programs (every row of an event carries the event's
  /// program) and its raw records, each with the id of the program it belongs to.
  public static func events(
    programs: [Program], rows: [(id: String, raw: RawRecord)], profile: CatalogProfile
  ) -> Snapshot {
    let fields = comparedFields(profile)
    let lineage = profile.regions.lineage ?? .shipped
    let isAddress = fields.map(isAddress)
    var present: Set<CanonicalField> = []
    // Where each compared field sits in a row, worked out once per set of names (a snapshot
    // has one or two), and each address's key once (many sessions share a place).
    var places: [ObjectIdentifier: [Int?]] = [:]
    var addressKeys: [String: String] = [:]
    var events: [String: Event] = [:]
    for program in programs where events[program.id] == nil {
      events[program.id] = Event(program: program, digests: [], rowIndexes: [])
    }
    for (index, (id, raw)) in rows.enumerated() {
      let names = ObjectIdentifier(raw.names)
      let indexes = places[names] ?? {
        present.formUnion(raw.names.fields)
        let indexes = fields.map { raw.names.index(of: $0) }
        places[names] = indexes
        return indexes
      }()
      var high = Hasher()
      var low = Hasher()
      low.combine(0x5EED)
      for (n, place) in indexes.enumerated() {
        var value = CatalogText.trimmed(place.flatMap { raw.values[$0] } ?? "")
        if isAddress[n] {
          value = addressKeys[value] ?? {
            let key = lineage.addressKey(value)
            addressKeys[value] = key
            return key
          }()
        }
        // By bytes, not by String's canonical equivalence (which normalises every value
        // as it hashes): rows equal by bytes are equal; rows whose digests differ are
        // compared as Strings, so canonically equal rows are still no change.
        high.combine(value.utf8.count)
        low.combine(value.utf8.count)
        value.utf8.withContiguousStorageIfAvailable {
          high.combine(bytes: UnsafeRawBufferPointer($0))
          low.combine(bytes: UnsafeRawBufferPointer($0))
        } ?? {
          for byte in value.utf8 {
            high.combine(byte)
            low.combine(byte)
          }
        }()
      }
      let digest = RowDigest(high: high.finalize(), low: low.finalize())
      events[id, default: Event(program: Program(id: id), digests: [], rowIndexes: [])].digests.append(digest)
      events[id]?.rowIndexes.append(index)
    }
    for id in events.keys { events[id]?.digests.sort() }
    return Snapshot(events: events, fields: present.intersection(fields), rows: rows.map(\.raw), lineage: lineage)
  }

  /// What was added, removed and changed from `old` to `new` (lists sorted by id, as
  /// ``SnapshotComparison/diff(old:new:)``'s).
  public static func diff(old: Snapshot, new: Snapshot, profile: CatalogProfile) -> SnapshotDiff {
    let all = comparedFields(profile)
    // The fields both snapshots carry, by their place in a row.
    let shared = all.indices.filter { old.fields.contains(all[$0]) && new.fields.contains(all[$0]) }
    let together = shared.count == all.count
    var added: [Program] = []
    var removed: [Program] = []
    var changed: [ChangedProgram] = []
    for (id, event) in new.events where old.events[id] == nil { added.append(event.program) }
    for (id, event) in old.events {
      guard let now = new.events[id] else {
        removed.append(event.program)
        continue
      }
      // Equal digests: the same rows. Otherwise (or when a field is compared in one
      // snapshot only) the rows themselves decide.
      if together && now.digests == event.digests { continue }
      let before = old.rows(of: event, compared: all, places: shared)
      let after = new.rows(of: now, compared: all, places: shared)
      if before.map(\.key) == after.map(\.key) { continue }
      changed.append(
        ChangedProgram(
          old: event.program, new: now.program,
          fields: fieldChanges(before, after, fields: shared.map { all[$0] })))
    }
    added.sort { $0.id < $1.id }
    removed.sort { $0.id < $1.id }
    changed.sort { $0.id < $1.id }
    return SnapshotDiff(added: added, removed: removed, changed: changed)
  }

  /// The fields whose sets of compared values differ between an event's two sets of rows,
  /// each as its distinct values as given (an address as the row writes it, not its
  /// lineage key) in row order joined by ` / ` (the coordinates named
  /// `latitude`/`longitude`, the others by their ``CanonicalField`` name), and `sessions`
  /// when the number of rows changed.
  static func fieldChanges(_ old: [Row], _ new: [Row], fields: [CanonicalField]) -> [FieldChange] {
    var changes: [FieldChange] = []
    if old.count != new.count {
      changes.append(FieldChange(field: "sessions", old: String(old.count), new: String(new.count)))
    }
    for (i, field) in fields.enumerated() {
      guard Set(old.map { $0.key[i] }) != Set(new.map { $0.key[i] }) else { continue }
      changes.append(
        FieldChange(
          field: name(of: field), old: distinct(old.map { $0.shown[i] }), new: distinct(new.map { $0.shown[i] })))
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
