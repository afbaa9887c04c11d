/// Keeps the largest rows of a ranking and folds the rest into one row, for charts.
public enum TopN {
  /// The `n` rows with the highest counts, then one `otherKey` row summing the rest.
  ///
  /// Ties keep their input order. When nothing is left over (`n` ≥ the number of rows), the
  /// rows are returned unchanged. An input row already named `otherKey` is folded in like
  /// any other left-over row.
  ///
  /// ```swift
  /// TopN.collapse(byCategory, keep: 8, otherKey: "기타 합계")
  /// ```
  ///
  /// - Parameters:
  ///   - rows: The rows, in any order.
  ///   - n: How many rows to keep (below 0 counts as 0).
  ///   - otherKey: The key of the row holding the rest.
  /// - Returns: At most `n + 1` rows.
  public static func collapse(_ rows: [BandCount], keep n: Int, otherKey: String) -> [BandCount] {
    guard n < rows.count else { return rows }
    let ranked = stableRanked(rows) { $0.count }
    let kept = ranked.prefix(max(n, 0))
    let rest = ranked.dropFirst(kept.count).reduce(0) { $0 + $1.count }
    return Array(kept) + [BandCount(key: otherKey, count: rest)]
  }

  /// The `n` groups with the highest counts, then one `otherKey` group summing the rest.
  ///
  /// The other row sums `count`, `free`, `paid` and `share`; its medians are `nil`, since a
  /// median cannot be rebuilt from the groups' medians.
  ///
  /// - Parameters:
  ///   - rows: The groups, in any order.
  ///   - n: How many groups to keep (below 0 counts as 0).
  ///   - otherKey: The key of the group holding the rest.
  /// - Returns: At most `n + 1` groups.
  public static func collapse(_ rows: [GroupStats], keep n: Int, otherKey: String) -> [GroupStats] {
    guard n < rows.count else { return rows }
    let ranked = stableRanked(rows) { $0.count }
    let kept = ranked.prefix(max(n, 0))
    var other = GroupStats(
      key: otherKey, count: 0, free: 0, paid: 0, medianDurationDays: nil, medianFeeMinKrw: nil,
      share: 0)
    for row in ranked.dropFirst(kept.count) {
      other.count += row.count
      other.free += row.free
      other.paid += row.paid
      other.share += row.share
    }
    return Array(kept) + [other]
  }

  /// The one rule every chart follows (Markdown, workbook, HTML): rows ranked by count
  /// descending, then key; the first `n` kept and the rest summed under `otherKey` — unless
  /// only one row is left over, which is shown as itself (an "other" of one row would only
  /// hide its name). `n` ≤ 0 keeps every row.
  ///
  /// ```swift
  /// TopN.forChart(byDistrict, keep: 10, otherKey: "기타")   // 10 districts + 기타
  /// ```
  ///
  /// - Returns: The rows to draw, and whether the last one is the folded rest.
  public static func forChart(_ rows: [BandCount], keep n: Int, otherKey: String)
    -> (rows: [BandCount], folded: Bool)
  {
    let ranked = rows.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
    guard n > 0, ranked.count > n + 1 else { return (ranked, false) }
    let rest = ranked.dropFirst(n).reduce(0) { $0 + $1.count }
    return (Array(ranked.prefix(n)) + [BandCount(key: otherKey, count: rest)], true)
  }

  /// Sorted by count descending; equal counts keep their input order.
  private static func stableRanked<Row>(_ rows: [Row], count: (Row) -> Int) -> [Row] {
    rows.enumerated()
      .sorted { a, b in
        let (ca, cb) = (count(a.element), count(b.element))
        return ca != cb ? ca > cb : a.offset < b.offset
      }
      .map(\.element)
  }
}
