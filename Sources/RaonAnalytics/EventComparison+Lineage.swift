import RaonCore

/// Whether a comparison of the national data may trust its two snapshots' keys as stored.
///
/// A key names its provider's lineage as it was when the snapshot was recorded. Two things
/// make a stored key not the one the lineage in force gives: a rename or merger found in the
/// data (``LineageDetection``), and a lineage that changed since the recording (`raon.toml`'s
/// `renames`/`merges` written after it, or a newer table). Either way the two snapshots must
/// be read again under that lineage (their rows keyed and their events named by it), or a
/// region's every event would count as removed and added again.
extension EventComparison {
  /// What a comparison must be redone under.
  public struct LineageCheck: Sendable {
    /// The renames and mergers found in the data (none when only the keys were stale).
    public var findings: [LineageFinding]
    /// The lineage in force with the findings applied: what both snapshots are read under.
    public var lineage: RegionLineage
    /// The days of the snapshots the findings were made between.
    public var between: LineageBetween

    public init(findings: [LineageFinding], lineage: RegionLineage, between: LineageBetween) {
      self.findings = findings
      self.lineage = lineage
      self.between = between
    }
  }

  /// `nil` when `old` and `new` compare as they are: nothing found in the data, and every
  /// stored key the one the profile's lineage gives. Otherwise what to redo them under.
  ///
  /// - Parameter between: The days of `old` and `new`.
  public static func checkLineage(old: Snapshot, new: Snapshot, profile: CatalogProfile, between: LineageBetween)
    -> LineageCheck?
  {
    let base = profile.regions.lineage ?? .shipped
    let (findings, lineage) = LineageDetection.detect(old: old.rows, new: new.rows, lineage: base, on: between.new)
    if findings.isEmpty, keysHold(old, lineage: base), keysHold(new, lineage: base) { return nil }
    return LineageCheck(findings: findings, lineage: lineage, between: between)
  }

  /// The words a snapshot's providers are named under that read as a 시·도 the lineage does
  /// not know (`충북특별자치도` of `충북특별자치도 청주시`): a 시·도 renamed before the compared
  /// snapshot, whose rename the comparison itself cannot see (``LineageDetection/unknownProvinces(_:lineage:)``).
  public static func unknownProvinces(in snapshot: Snapshot, lineage: RegionLineage) -> Set<String> {
    LineageDetection.unknownProvinces(snapshot.rows, lineage: lineage)
  }

  /// Whether a snapshot's stored keys are those `lineage` gives. A key depends on the
  /// lineage only through the row's provider, so one row of each provider spelling is keyed
  /// again (some 220 hashes, not one per row).
  static func keysHold(_ snapshot: Snapshot, lineage: RegionLineage) -> Bool {
    var seen: Set<LineageDetection.Spelling> = []
    for (id, event) in snapshot.events {
      for index in event.rowIndexes {
        let row = snapshot.rows[index]
        guard seen.insert(LineageDetection.Spelling(row)).inserted else { continue }
        if NationalKey.id(of: row, lineage: lineage) != id { return false }
      }
    }
    return true
  }
}
