import RaonCore

/// The figures of one snapshot in a series, for trend tables and charts.
public struct TrendPoint: Sendable, Hashable {
  public var snapshot: SnapshotInfo
  public var total: Int
  public var free: Int
  public var paid: Int
  /// Programs per category, ranked by count descending then key.
  public var byCategory: [BandCount]
  /// Programs per district, ranked by count descending then key.
  public var byDistrict: [BandCount]
  /// Ids present here and not in the previous point; `nil` for the first point.
  public var added: Int?
  /// Ids present in the previous point and not here; `nil` for the first point.
  public var removed: Int?

  public init(
    snapshot: SnapshotInfo, total: Int, free: Int, paid: Int, byCategory: [BandCount],
    byDistrict: [BandCount], added: Int?, removed: Int?
  ) {
    self.snapshot = snapshot
    self.total = total
    self.free = free
    self.paid = paid
    self.byCategory = byCategory
    self.byDistrict = byDistrict
    self.added = added
    self.removed = removed
  }

  /// The count of one category (0 when absent), for lining points up by key.
  public func count(category: String) -> Int {
    byCategory.first { $0.key == category }?.count ?? 0
  }

  /// The count of one district (0 when absent), for lining points up by key.
  public func count(district: String) -> Int {
    byDistrict.first { $0.key == district }?.count ?? 0
  }
}

/// Figures over a series of snapshots.
public enum Trends {
  /// One point per snapshot, in the order given (the store gives them oldest first).
  ///
  /// `total` counts the summaries as given; `added`/`removed` compare distinct ids with the
  /// previous point's.
  ///
  /// - Parameter snapshots: Each snapshot's information and program summaries.
  /// - Returns: The points, in the same order.
  public static func points(
    _ snapshots: [(info: SnapshotInfo, programs: [ProgramSummary])]
  ) -> [TrendPoint] {
    var points: [TrendPoint] = []
    points.reserveCapacity(snapshots.count)
    var previousIds: Set<String>?
    for snapshot in snapshots {
      var free = 0
      var paid = 0
      var byCategory = KeyCounter()
      var byDistrict = KeyCounter()
      var ids = Set<String>(minimumCapacity: snapshot.programs.count)
      // Distinct ids not in the previous point, counted while inserting: no set differences.
      var new = 0
      for program in snapshot.programs {
        switch program.isFree {
        case true?: free += 1
        case false?: paid += 1
        case nil: break
        }
        byCategory.add(program.category)
        byDistrict.add(program.district)
        if ids.insert(program.id).inserted, let previous = previousIds, !previous.contains(program.id) {
          new += 1
        }
      }
      let total = snapshot.programs.count
      points.append(
        TrendPoint(
          snapshot: snapshot.info, total: total, free: free, paid: paid,
          byCategory: byCategory.ranked, byDistrict: byDistrict.ranked,
          added: previousIds.map { _ in new },
          // |previous \ ids| = |previous| − |previous ∩ ids| = |previous| − (|ids| − new).
          removed: previousIds.map { $0.count - (ids.count - new) }))
      previousIds = ids
    }
    return points
  }
}
