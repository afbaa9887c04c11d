import RaonCore

/// The tables of one snapshot's catalog: by category, by district, by fee and duration band,
/// category × district, and data quality.
///
/// Every program counts in every table, whatever its dates (the week only selects the
/// headline figures; see ``WeekFigures/compute(programs:week:)``).
///
/// ```swift
/// let tables = CatalogStatistics.tables(for: programs)
/// tables.byCategory.first?.key   // the largest category
/// ```
public enum CatalogStatistics {
  /// Every table of a catalog, computed in one pass over the programs.
  ///
  /// - `byCategory`/`byDistrict`: every group present, ranked by count descending then key;
  ///   medians as in the contract (duration over rows having one, lowest fee over paid rows
  ///   having one; the mean of the two middle values for an even count; `nil` when none).
  /// - `byFee`/`byDuration`: all seven bands in contract order, zeros included.
  /// - `categoryByDistrict`: rows and columns ranked by their totals, then key.
  /// - `quality`: flags carried by at least one program.
  ///
  /// An empty catalog gives empty group lists and tables, and bands of zero.
  ///
  /// - Parameter programs: The snapshot's programs, in any order.
  /// - Returns: The tables.
  public static func tables(for programs: [Program]) -> CatalogTables {
    var tables = Accumulator()
    tables.add(programs)
    return tables.tables
  }

  /// ``tables(for:)`` fed a chunk at a time, for catalogs read in chunks
  /// (``ProgramChunks``): the same tables as from all the programs at once.
  public struct Accumulator: Sendable {
    private var categories = GroupAccumulator()
    private var districts = GroupAccumulator()
    private var bands = BandAccumulator()
    private var cross = CrossAccumulator()
    private var quality = QualityAccumulator()
    private var free = 0
    private var unknown = 0
    private var total = 0

    public init() {}

    /// Counts `programs` in.
    public mutating func add(_ programs: [Program]) {
      total += programs.count
      // Field reads through the buffer borrow each program in place; iterating the array
      // would copy every program (a dozen reference counts each).
      programs.withUnsafeBufferPointer { rows in
        for i in rows.indices {
          let isFree = rows[i].isFree
          let fee = rows[i].feeMinKRW
          let days = rows[i].durationDays
          let c = categories.add(
            key: rows[i].category, isFree: isFree, feeMinKRW: fee, durationDays: days)
          let d = districts.add(
            key: rows[i].district, isFree: isFree, feeMinKRW: fee, durationDays: days)
          cross.add(row: c, column: d)
          bands.add(isFree: isFree, feeMinKRW: fee, durationDays: days)
          quality.add(rows[i].qualityFlags)
          switch isFree {
          case true?: free += 1
          case nil: unknown += 1
          case false?: break
          }
        }
      }
    }

    /// The tables of every program added so far.
    public var tables: CatalogTables {
      var categories = categories
      var districts = districts
      let crossTable = cross.table(rowKeys: categories.index.keys, columnKeys: districts.index.keys)
      return CatalogTables(
        total: total, free: free, unknown: unknown, byCategory: categories.stats(total: total),
        byDistrict: districts.stats(total: total), byFee: bands.feeBands,
        byDuration: bands.durationBands, categoryByDistrict: crossTable, quality: quality.ranked)
    }
  }

  /// Group statistics of the programs grouped by any text field.
  ///
  /// ```swift
  /// CatalogStatistics.groupStats(for: programs, by: \.theme)
  /// ```
  ///
  /// - Parameters:
  ///   - programs: The programs.
  ///   - key: The field to group by.
  /// - Returns: One row per distinct value, ranked by count descending then key.
  public static func groupStats(for programs: [Program], by key: KeyPath<Program, String>)
    -> [GroupStats]
  {
    var groups = GroupAccumulator()
    programs.withUnsafeBufferPointer { rows in
      for i in rows.indices {
        groups.add(
          key: rows[i][keyPath: key], isFree: rows[i].isFree, feeMinKRW: rows[i].feeMinKRW,
          durationDays: rows[i].durationDays)
      }
    }
    return groups.stats(total: programs.count)
  }

  /// The category × district count table alone (it is also part of ``tables(for:)``).
  ///
  /// - Parameter programs: The programs.
  /// - Returns: Rows are categories, columns districts, each ranked by total then key.
  public static func crossTable(for programs: [Program]) -> CrossTable {
    var rows = KeyIndex()
    var columns = KeyIndex()
    var cross = CrossAccumulator()
    programs.withUnsafeBufferPointer { programs in
      for i in programs.indices {
        cross.add(
          row: rows.index(of: programs[i].category), column: columns.index(of: programs[i].district))
      }
    }
    return cross.table(rowKeys: rows.keys, columnKeys: columns.keys)
  }

  /// Programs per fee band: all seven bands in contract order, zeros included.
  public static func feeBands(for programs: [Program]) -> [BandCount] {
    bands(for: programs).feeBands
  }

  /// Programs per duration band: all seven bands in contract order, zeros included.
  public static func durationBands(for programs: [Program]) -> [BandCount] {
    bands(for: programs).durationBands
  }

  private static func bands(for programs: [Program]) -> BandAccumulator {
    var bands = BandAccumulator()
    programs.withUnsafeBufferPointer { rows in
      for i in rows.indices {
        bands.add(
          isFree: rows[i].isFree, feeMinKRW: rows[i].feeMinKRW, durationDays: rows[i].durationDays)
      }
    }
    return bands
  }
}
