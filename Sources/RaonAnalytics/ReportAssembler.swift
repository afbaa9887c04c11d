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
  /// - Returns: The report's data, with `programs` sorted by id.
  public static func assemble(
    snapshot: SnapshotInfo, programs: [Program],
    compareTo: (info: SnapshotInfo, programs: [Program])?, week: ISOWeek
  ) -> ReportData {
    ReportData(
      snapshot: snapshot, compareTo: compareTo?.info, week: week,
      programs: programs.sorted { $0.id < $1.id },
      tables: CatalogStatistics.tables(for: programs),
      thisWeek: WeekFigures.compute(programs: programs, week: week),
      compareTables: compareTo.map { CatalogStatistics.tables(for: $0.programs) },
      compareWeek: compareTo.map { WeekFigures.compute(programs: $0.programs, week: week) },
      changes: compareTo.map { SnapshotComparison.diff(old: $0.programs, new: programs) })
  }
}
