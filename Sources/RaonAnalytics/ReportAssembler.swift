import RaonCore

/// Builds the one value every report writer takes.
public enum ReportAssembler {
  /// The report's data for a snapshot, optionally compared with another one.
  ///
  /// The tables count every program of the snapshot whatever its dates; `week` selects the
  /// headline figures. With a comparison, the compared catalog's tables and its figures for
  /// the *same* week are filled in, so the headline can say how the catalog's view of this
  /// week changed, and `changes` is `diff(old: compared, new: snapshot)`.
  ///
  /// - Parameters:
  ///   - snapshot: The chosen snapshot.
  ///   - programs: Its programs, in any order.
  ///   - compareTo: The snapshot to compare with and its programs, or `nil`.
  ///   - week: The week of the headline figures.
  /// - Returns: The report's figures (the programs sorted by id for the pass).
  public static func assemble(
    snapshot: SnapshotInfo, programs: [Program],
    compareTo: (info: SnapshotInfo, programs: [Program])?, week: ISOWeek
  ) throws -> ReportData {
    let changes = compareTo.map { SnapshotComparison.diff(old: $0.programs, new: programs) }
    return try assemble(
      snapshot: snapshot, programs: ProgramChunks(sortedByID(programs)),
      compareTo: compareTo.map { compared in
        (compared.info, ProgramChunks(compared.programs),
         changes ?? SnapshotDiff(added: [], removed: [], changed: []))
      },
      week: week)
  }

  /// The report's data from programs read in chunks: one pass over each snapshot.
  ///
  /// - Parameters:
  ///   - programs: The snapshot's programs, sorted by id. Whole programs: the week's lists
  ///     show titles, places and fees, so statistics are taken in the same pass (a pass
  ///     over the store's cheaper column-only programs besides it cost a million-program
  ///     report a second read of its snapshot).
  ///   - compareTo: The compared snapshot, its programs (at least the fields statistics
  ///     read) and `diff(old: compared, new: snapshot)` (which the store computes from the
  ///     programs that differ alone).
  ///   - each: Given each chunk of `programs` as the pass reads it (a job writes a file
  ///     of the programs in the same pass rather than read them again).
  /// - Throws: What reading the chunks or `each` throws.
  public static func assemble(
    snapshot: SnapshotInfo, programs: ProgramChunks,
    compareTo: (info: SnapshotInfo, programs: ProgramChunks, changes: SnapshotDiff)?,
    week: ISOWeek, trend: [WeeklyTrendPoint] = [], each: (([Program]) throws -> Void)? = nil
  ) throws -> ReportData {
    let day = snapshot.koreaDay
    var tables = CatalogStatistics.Accumulator()
    var figures = WeekFigures.Accumulator(week: week)
    var view = WeekView.Accumulator(week: week, day: day)
    var listed = WeekLists.Collector(week: week, day: day)
    var examples = QualityExamples()
    try programs.forEach { chunk in
      tables.add(chunk)
      figures.add(chunk)
      view.add(chunk)
      listed.add(chunk)
      for p in chunk where !examples.isComplete { examples.add(p) }
      try each?(chunk)
    }

    var compared: (tables: CatalogTables, week: WeekFigures, own: WeekView)?
    if let compareTo {
      var oldTables = CatalogStatistics.Accumulator()
      var oldFigures = WeekFigures.Accumulator(week: week)
      var ownWeek = WeekView.Accumulator(ownWeekOf: compareTo.info)
      try compareTo.programs.forEach { chunk in
        oldTables.add(chunk)
        oldFigures.add(chunk)
        ownWeek.add(chunk)
      }
      compared = (oldTables.tables, oldFigures.figures, ownWeek.view)
    }
    var report = ReportData(
      snapshot: snapshot, compareTo: compareTo?.info, week: week, programCount: programs.count,
      tables: tables.tables, thisWeek: figures.figures, compareTables: compared?.tables,
      compareWeek: compared?.week, changes: compareTo?.changes)
    report.weekView = view.view
    report.previousWeek = compared?.own
    report.lists = listed.finish()
    report.trend = trend
    report.qualityExamples = examples
    return report
  }

  /// A catalog's tables and week figures, in one pass.
  static func figures(of programs: ProgramChunks, week: ISOWeek) throws
    -> (tables: CatalogTables, week: WeekFigures)
  {
    var tables = CatalogStatistics.Accumulator()
    var figures = WeekFigures.Accumulator(week: week)
    try programs.forEach { chunk in
      tables.add(chunk)
      figures.add(chunk)
    }
    return (tables.tables, figures.figures)
  }

  /// ``figures(of:week:)`` of programs held in memory (nothing to read, nothing to fail).
  static func figures(of programs: [Program], week: ISOWeek) -> (tables: CatalogTables, week: WeekFigures) {
    var tables = CatalogStatistics.Accumulator()
    var figures = WeekFigures.Accumulator(week: week)
    tables.add(programs)
    figures.add(programs)
    return (tables.tables, figures.figures)
  }

  /// `programs` in id order. The store already reads them in that order: then the same
  /// array is returned rather than a sorted copy (a million programs are ~300 MB of array).
  static func sortedByID(_ programs: [Program]) -> [Program] {
    let inOrder = zip(programs, programs.dropFirst()).allSatisfy { $0.id <= $1.id }
    return inOrder ? programs : programs.sorted { $0.id < $1.id }
  }
}
