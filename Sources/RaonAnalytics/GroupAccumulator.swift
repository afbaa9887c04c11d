import RaonCore

/// Gathers one grouping's figures (by category or by district) in a single pass.
struct GroupAccumulator {
  private(set) var index = KeyIndex()
  private(set) var counts: [Int] = []
  private var free: [Int] = []
  private var unknown: [Int] = []
  // Raw values per group, for exact medians at the end; a few bytes per program.
  private var durations: [[Int]] = []
  private var paidFees: [[Int]] = []

  /// Adds a program's figures under `key` and returns the key's group number.
  ///
  /// Takes the few fields it needs rather than a `Program`, so the hot loops never copy a
  /// whole program (a dozen reference counts) per row.
  @discardableResult
  mutating func add(key: String, isFree: Bool?, feeMinKRW: Int?, durationDays: Int?) -> Int {
    let g = index.index(of: key)
    if g == counts.count {
      counts.append(0)
      free.append(0)
      unknown.append(0)
      durations.append([])
      paidFees.append([])
    }
    counts[g] += 1
    switch isFree {
    case true?: free[g] += 1
    case false?: if let fee = feeMinKRW { paidFees[g].append(fee) }
    case nil: unknown[g] += 1
    }
    if let days = durationDays { durations[g].append(days) }
    return g
  }

  /// The groups' statistics, ranked by count descending then key.
  ///
  /// Consumes the gathered values (selection reorders them in place).
  mutating func stats(total: Int) -> [GroupStats] {
    rankedPositions(keys: index.keys, totals: counts).map { g in
      GroupStats(
        key: index.keys[g], count: counts[g], free: free[g], paid: counts[g] - free[g] - unknown[g],
        unknown: unknown[g],
        medianDurationDays: Median.of(&durations[g]), medianFeeMinKrw: Median.of(&paidFees[g]),
        share: total > 0 ? Double(counts[g]) / Double(total) : 0)
    }
  }
}

/// Counts programs into the seven fee bands and the seven duration bands.
struct BandAccumulator {
  private var fee = [Int](repeating: 0, count: FeeBand.allCases.count)
  private var duration = [Int](repeating: 0, count: DurationBand.allCases.count)

  mutating func add(isFree: Bool?, feeMinKRW: Int?, durationDays: Int?) {
    fee[FeeBand(isFree: isFree, feeMinKRW: feeMinKRW).ordinal] += 1
    duration[DurationBand(durationDays: durationDays).ordinal] += 1
  }

  /// All seven fee bands in contract order, zeros included.
  var feeBands: [BandCount] {
    FeeBand.allCases.map { BandCount(key: $0.rawValue, count: fee[$0.ordinal]) }
  }

  /// All seven duration bands in contract order, zeros included.
  var durationBands: [BandCount] {
    DurationBand.allCases.map { BandCount(key: $0.rawValue, count: duration[$0.ordinal]) }
  }
}

/// Counts pairs of group numbers (row, column) into a growing matrix.
struct CrossAccumulator {
  private var cells: [[Int]] = []

  mutating func add(row: Int, column: Int) {
    while cells.count <= row { cells.append([]) }
    if cells[row].count <= column {
      cells[row].append(contentsOf: repeatElement(0, count: column + 1 - cells[row].count))
    }
    cells[row][column] += 1
  }

  /// The table with rows and columns ranked by their totals (descending), then key.
  func table(rowKeys: [String], columnKeys: [String]) -> CrossTable {
    func cell(_ r: Int, _ c: Int) -> Int {
      r < cells.count && c < cells[r].count ? cells[r][c] : 0
    }
    let rowTotals = rowKeys.indices.map { r in columnKeys.indices.reduce(0) { $0 + cell(r, $1) } }
    let columnTotals = columnKeys.indices.map { c in rowKeys.indices.reduce(0) { $0 + cell($1, c) } }
    let rows = rankedPositions(keys: rowKeys, totals: rowTotals)
    let columns = rankedPositions(keys: columnKeys, totals: columnTotals)
    return CrossTable(
      rowKeys: rows.map { rowKeys[$0] }, columnKeys: columns.map { columnKeys[$0] },
      counts: rows.map { r in columns.map { c in cell(r, c) } })
  }
}

/// Counts programs per quality flag.
struct QualityAccumulator {
  private var counts = [Int](repeating: 0, count: QualityFlags.named.count)

  mutating func add(_ flags: QualityFlags) {
    // Most programs carry no flag; skip the scan for them.
    guard !flags.isEmpty else { return }
    for (i, entry) in QualityFlags.named.enumerated() where flags.contains(entry.flag) {
      counts[i] += 1
    }
  }

  /// Flags with at least one program, by count descending, then in `QualityFlags.named` order.
  var ranked: [QualityCount] {
    QualityFlags.named.indices
      .filter { counts[$0] > 0 }
      .sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
      .map { QualityCount(key: QualityFlags.named[$0].name, count: counts[$0]) }
  }
}
