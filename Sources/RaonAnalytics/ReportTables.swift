import RaonCore

/// Statistics of one group (a category or a district): a row of `byCategory`/`byDistrict`.
public struct GroupStats: Sendable, Hashable, Codable {
  public var key: String
  public var count: Int
  public var free: Int
  public var paid: Int
  /// Neither free nor paid: no 유무료 and an ambiguous fee text (`free + paid + unknown = count`).
  public var unknown: Int = 0
  /// Median of `duration_days` over the group's rows that have one; `nil` when none.
  public var medianDurationDays: Double?
  /// Median of `fee_min_krw` over the group's paid rows that have one; `nil` when none.
  public var medianFeeMinKrw: Double?
  /// `count` / total programs (0…1); 0 for an empty catalog.
  public var share: Double

  /// The group's key and count alone, for the tables and charts that rank by count.
  public var keyCount: BandCount { BandCount(key: key, count: count) }
}

/// A band and how many programs fall in it: a row of `byFee`/`byDuration`.
public struct BandCount: Sendable, Hashable, Codable {
  public var key: String
  public var count: Int
}

/// How many programs carry a quality flag: the flag's contract code is the key.
public typealias QualityCount = BandCount

/// A two-way count table (category × district).
public struct CrossTable: Sendable, Hashable {
  /// Row keys (categories), ordered by row total descending, then key.
  public var rowKeys: [String]
  /// Column keys (districts), ordered by column total descending, then key.
  public var columnKeys: [String]
  /// `counts[row][column]`.
  public var counts: [[Int]]

  public var rowTotals: [Int] { counts.map { $0.reduce(0, +) } }
  public var columnTotals: [Int] {
    columnKeys.indices.map { c in counts.reduce(0) { $0 + $1[c] } }
  }
}

/// One field of a program that differs between two snapshots.
public struct FieldChange: Sendable, Hashable, Codable {
  /// The `programs.csv` column name (`title`, `fee_text`, …).
  public var field: String
  public var old: String
  public var new: String
}

/// A program present in both snapshots whose normalised fields differ.
public struct ChangedProgram: Sendable, Hashable {
  public var old: Program
  public var new: Program
  public var fields: [FieldChange]
  public var id: String { new.id }
}

/// The comparison of two snapshots by program id. Every list is sorted by id.
public struct SnapshotDiff: Sendable, Hashable {
  public var added: [Program]
  public var removed: [Program]
  public var changed: [ChangedProgram]

  public var addedIds: [String] { added.map(\.id) }
  public var removedIds: [String] { removed.map(\.id) }
  public var changedIds: [String] { changed.map(\.id) }
  public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

  /// The changes of the programs `belongs` keeps (a changed program by its newer version):
  /// a pack's share of a whole comparison.
  public func restricted(to belongs: (Program) -> Bool) -> SnapshotDiff {
    SnapshotDiff(added: added.filter(belongs), removed: removed.filter(belongs), changed: changed.filter { belongs($0.new) })
  }
}

/// The headline figures of one ISO week (Korea time).
public struct WeekFigures: Sendable, Hashable {
  public var week: ISOWeek
  /// Programs running at some point of the week (start ≤ week end and end ≥ week start).
  public var active: Int
  /// Programs whose start date falls in the week.
  public var starting: Int
  public var activeFree: Int
  public var activeByCategory: [BandCount]
  public var activeByDistrict: [BandCount]
  public var startingByCategory: [BandCount]
  public var startingByDistrict: [BandCount]
}

/// Every table of one snapshot's catalog.
public struct CatalogTables: Sendable, Hashable {
  public var total: Int
  public var free: Int
  /// Programs whose free flag is unknown (paid = total − free − unknown).
  public var unknown: Int = 0
  public var byCategory: [GroupStats]
  public var byDistrict: [GroupStats]
  /// All seven fee bands in contract order (zero counts included).
  public var byFee: [BandCount]
  /// All seven duration bands in contract order (zero counts included).
  public var byDuration: [BandCount]
  public var categoryByDistrict: CrossTable
  /// Flags with at least one program, by count descending then name.
  public var quality: [QualityCount]
}

/// A report's figures: everything the analysis found in one pass over a snapshot's
/// programs (and its comparison's), and nothing that reads them again. The document is
/// composed from this value (RaonDocument); no program list beyond the week's is held.
public struct ReportData: Sendable {
  public var snapshot: SnapshotInfo
  public var compareTo: SnapshotInfo?
  public var week: ISOWeek
  /// How many programs the snapshot has (a pack: the district's).
  public var programCount: Int
  public var tables: CatalogTables
  public var thisWeek: WeekFigures
  /// The compared snapshot's tables and week figures (for headline changes).
  public var compareTables: CatalogTables?
  public var compareWeek: WeekFigures?
  /// `nil` when there is no comparison.
  public var changes: SnapshotDiff?

  // MARK: The week (what the report leads with)

  /// The report's week over its snapshot: current, running, starting, ending, registered.
  public var weekView: WeekView
  /// The compared snapshot's figures for its own ISO week and day (what last week's report
  /// said); `nil` without a comparison.
  public var previousWeek: WeekView?
  /// This week's programs starting, ending and newly registered, in report order.
  public var lists: WeekLists
  /// Removed programs split into ended and withdrawn, changed ones into material and
  /// minor; `nil` without a comparison.
  public var changeKinds: ChangeKinds?
  /// One point per ISO week that has a snapshot, oldest first (empty when off).
  public var trend: [WeeklyTrendPoint]
  /// Set when the report is one district's pack: everything above is restricted to it.
  public var district: DistrictScope?
  /// The first programs (by id) of each quality flag: the examples every format shows.
  public var qualityExamples: QualityExamples
  /// The tables the catalog's profile adds (``ReportExtra``: the national data's 요금정보
  /// and 입장연령); none for Seoul's catalog.
  public var extras: [ExtraTable] = []

  /// Programs added since the compared snapshot, in report order (start, district, title).
  public var addedInReportOrder: [Program] { WeekLists.ordered(changes?.added ?? []) }

  /// The figures of programs held in memory (sorted by id): the week's view, lists and
  /// quality examples are taken from them here.
  public init(
    snapshot: SnapshotInfo, compareTo: SnapshotInfo?, week: ISOWeek, programs: [Program],
    tables: CatalogTables, thisWeek: WeekFigures, compareTables: CatalogTables?,
    compareWeek: WeekFigures?, changes: SnapshotDiff?
  ) {
    self.init(
      snapshot: snapshot, compareTo: compareTo, week: week, programCount: programs.count,
      tables: tables, thisWeek: thisWeek, compareTables: compareTables,
      compareWeek: compareWeek, changes: changes)
    weekView = WeekView.compute(programs: programs, week: week, day: snapshot.koreaDay)
    lists = WeekLists.select(programs, week: week, day: snapshot.koreaDay)
    for p in programs { qualityExamples.add(p) }
  }

  /// Figures whose week, lists and examples the assembler fills in from its pass.
  init(
    snapshot: SnapshotInfo, compareTo: SnapshotInfo?, week: ISOWeek, programCount: Int,
    tables: CatalogTables, thisWeek: WeekFigures, compareTables: CatalogTables?,
    compareWeek: WeekFigures?, changes: SnapshotDiff?
  ) {
    self.snapshot = snapshot
    self.compareTo = compareTo
    self.week = week
    self.programCount = programCount
    self.tables = tables
    self.thisWeek = thisWeek
    self.compareTables = compareTables
    self.compareWeek = compareWeek
    self.changes = changes
    self.weekView = WeekView.Accumulator(week: week, day: snapshot.koreaDay).view
    self.previousWeek = nil
    self.lists = WeekLists(starting: [], ending: [], registered: [])
    self.changeKinds = changes.map { ChangeKinds.classify($0, day: snapshot.koreaDay) }
    self.trend = []
    self.district = nil
    self.qualityExamples = QualityExamples()
  }
}
