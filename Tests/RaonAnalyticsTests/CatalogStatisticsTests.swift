import RaonCore
import TestSupport
import Testing

@testable import RaonAnalytics

/// Eight programs whose every figure is worked out by hand below.
///
/// | id | category  | district | free | fee min | dates                  | days  | flags |
/// |----|-----------|----------|------|---------|------------------------|-------|-------|
/// | p1 | 클래식     | 종로구    | no   | 50000   | 09-01…09-01            | 1     |       |
/// | p2 | 클래식     | 종로구    | no   | 20000   | 09-01…09-07            | 7     |       |
/// | p3 | 클래식     | 중구      | yes  | 0       | 09-01…09-30            | 30    |       |
/// | p4 | 클래식     | 미상      | no   | —       | 09-10…09-05            | —     | end_before_start, district_missing |
/// | p5 | 전시/미술  | 종로구    | yes  | 0       | 09-01…12-31            | 122   |       |
/// | p6 | 전시/미술  | 중구      | no   | 110000  | 09-01…09-01            | 1     |       |
/// | p7 | 교육/체험  | 중구      | yes  | 0       | 09-02…—                | —     | coords_missing |
/// | p8 | 교육/체험  | 종로구    | no   | 8000    | 2024-01-01…2099-12-31  | 27759 | coords_missing |
let handCatalog: [Program] = [
  Program(
    id: "p1", category: "클래식", district: "종로구", isFree: false, feeMinKRW: 50_000,
    startDate: day("2024-09-01"), endDate: day("2024-09-01")),
  Program(
    id: "p2", category: "클래식", district: "종로구", isFree: false, feeMinKRW: 20_000,
    startDate: day("2024-09-01"), endDate: day("2024-09-07")),
  Program(
    id: "p3", category: "클래식", district: "중구", isFree: true, feeMinKRW: 0,
    startDate: day("2024-09-01"), endDate: day("2024-09-30")),
  Program(
    id: "p4", category: "클래식", district: District.unknown, isFree: false, feeMinKRW: nil,
    startDate: day("2024-09-10"), endDate: day("2024-09-05"),
    qualityFlags: [.endBeforeStart, .districtMissing]),
  Program(
    id: "p5", category: "전시/미술", district: "종로구", isFree: true, feeMinKRW: 0,
    startDate: day("2024-09-01"), endDate: day("2024-12-31")),
  Program(
    id: "p6", category: "전시/미술", district: "중구", isFree: false, feeMinKRW: 110_000,
    startDate: day("2024-09-01"), endDate: day("2024-09-01")),
  Program(
    id: "p7", category: "교육/체험", district: "중구", isFree: true, feeMinKRW: 0,
    startDate: day("2024-09-02"), qualityFlags: [.coordsMissing]),
  Program(
    id: "p8", category: "교육/체험", district: "종로구", isFree: false, feeMinKRW: 8_000,
    startDate: day("2024-01-01"), endDate: day("2099-12-31"), qualityFlags: [.coordsMissing]),
]

@Test func handCatalogDurationOfTheOpenEndedProgram() {
  // 2024…2099 is 76 years with 19 leap years (2024, 2028, …, 2096): 76 × 365 + 19 = 27759.
  #expect(handCatalog[7].durationDays == 27_759)
}

@Test func handCatalogByCategory() {
  let tables = CatalogStatistics.tables(for: handCatalog)
  #expect(tables.total == 8)
  #expect(tables.free == 3)  // p3, p5, p7
  #expect(
    tables.byCategory == [
      // 4 programs, free p3; durations [1, 7, 30] → 7; paid fees [50000, 20000] → 35000.
      GroupStats(
        key: "클래식", count: 4, free: 1, paid: 3, medianDurationDays: 7, medianFeeMinKrw: 35_000,
        share: 0.5),
      // Tie at 2: 교 (U+AD50) sorts before 전 (U+C804).
      // Durations [27759] (p7 has none) → 27759; paid fees [8000] → 8000.
      GroupStats(
        key: "교육/체험", count: 2, free: 1, paid: 1, medianDurationDays: 27_759,
        medianFeeMinKrw: 8_000, share: 0.25),
      // Durations [122, 1] → (1 + 122) / 2 = 61.5; paid fees [110000].
      GroupStats(
        key: "전시/미술", count: 2, free: 1, paid: 1, medianDurationDays: 61.5,
        medianFeeMinKrw: 110_000, share: 0.25),
    ])
}

@Test func handCatalogByDistrict() {
  let tables = CatalogStatistics.tables(for: handCatalog)
  #expect(
    tables.byDistrict == [
      // p1 p2 p5 p8; durations [1, 7, 122, 27759] → (7 + 122) / 2 = 64.5;
      // paid fees [50000, 20000, 8000] → 20000.
      GroupStats(
        key: "종로구", count: 4, free: 1, paid: 3, medianDurationDays: 64.5,
        medianFeeMinKrw: 20_000, share: 0.5),
      // p3 p6 p7; durations [30, 1] → 15.5; paid fees [110000].
      GroupStats(
        key: "중구", count: 3, free: 2, paid: 1, medianDurationDays: 15.5,
        medianFeeMinKrw: 110_000, share: 0.375),
      // p4 only: no duration (end before start), no fee → both medians nil.
      GroupStats(
        key: "미상", count: 1, free: 0, paid: 1, medianDurationDays: nil, medianFeeMinKrw: nil,
        share: 0.125),
    ])
}

@Test func handCatalogBands() {
  let tables = CatalogStatistics.tables(for: handCatalog)
  // free p3 p5 p7; 8000 p8; 20000 p2; 50000 p1; none 50001-100000; 110000 p6; unknown p4.
  #expect(
    tables.byFee == [
      BandCount(key: "free", count: 3), BandCount(key: "1-10000", count: 1),
      BandCount(key: "10001-30000", count: 1), BandCount(key: "30001-50000", count: 1),
      BandCount(key: "50001-100000", count: 0), BandCount(key: "100001+", count: 1),
      BandCount(key: "unknown", count: 1),
    ])
  // 1 day p1 p6; 7 p2; 30 p3; none 31-90; 122 p5; 27759 p8; invalid p4 p7.
  #expect(
    tables.byDuration == [
      BandCount(key: "1", count: 2), BandCount(key: "2-7", count: 1),
      BandCount(key: "8-30", count: 1), BandCount(key: "31-90", count: 0),
      BandCount(key: "91-365", count: 1), BandCount(key: "366+", count: 1),
      BandCount(key: "invalid", count: 2),
    ])
  #expect(CatalogStatistics.feeBands(for: handCatalog) == tables.byFee)
  #expect(CatalogStatistics.durationBands(for: handCatalog) == tables.byDuration)
}

@Test func handCatalogCrossTable() {
  let table = CatalogStatistics.tables(for: handCatalog).categoryByDistrict
  #expect(table.rowKeys == ["클래식", "교육/체험", "전시/미술"])  // totals 4, 2, 2
  #expect(table.columnKeys == ["종로구", "중구", "미상"])  // totals 4, 3, 1
  #expect(
    table.counts == [
      [2, 1, 1],  // 클래식: p1 p2 | p3 | p4
      [1, 1, 0],  // 교육/체험: p8 | p7 | —
      [1, 1, 0],  // 전시/미술: p5 | p6 | —
    ])
  #expect(table.rowTotals == [4, 2, 2])
  #expect(table.columnTotals == [4, 3, 1])
  #expect(CatalogStatistics.crossTable(for: handCatalog) == table)
}

@Test func handCatalogQuality() {
  let tables = CatalogStatistics.tables(for: handCatalog)
  // coords_missing p7 p8 first; then the two single flags in QualityFlags.named order.
  #expect(
    tables.quality == [
      QualityCount(key: "coords_missing", count: 2),
      QualityCount(key: "end_before_start", count: 1),
      QualityCount(key: "district_missing", count: 1),
    ])
  #expect(DataQuality.counts(for: handCatalog) == tables.quality)
}

@Test func emptyCatalogGivesEmptyTables() {
  let tables = CatalogStatistics.tables(for: [])
  #expect(tables.total == 0)
  #expect(tables.free == 0)
  #expect(tables.byCategory.isEmpty)
  #expect(tables.byDistrict.isEmpty)
  #expect(tables.byFee.map(\.key) == FeeBand.allCases.map(\.rawValue))
  #expect(tables.byFee.allSatisfy { $0.count == 0 })
  #expect(tables.byDuration.map(\.key) == DurationBand.allCases.map(\.rawValue))
  #expect(tables.byDuration.allSatisfy { $0.count == 0 })
  #expect(tables.categoryByDistrict == CrossTable(rowKeys: [], columnKeys: [], counts: []))
  #expect(tables.quality.isEmpty)
}

@Test func groupStatsByAnyField() {
  let programs = [
    Program(id: "a", isFree: true, theme: "가족 문화행사"),
    Program(id: "b", theme: "기타"),
    Program(id: "c", theme: "기타"),
  ]
  let stats = CatalogStatistics.groupStats(for: programs, by: \.theme)
  #expect(stats.map(\.key) == ["기타", "가족 문화행사"])
  #expect(stats.map(\.count) == [2, 1])
}

// MARK: - Invariants on random catalogs

@Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
func tablesHoldTheirInvariants(seed: UInt64) {
  let programs = RandomCatalog.catalog(count: 2_000 + Int(seed) * 37, idRange: 1_000_000, seed: seed)
  let tables = CatalogStatistics.tables(for: programs)
  let total = programs.count
  #expect(tables.total == total)
  #expect(tables.free == programs.filter { $0.isFree == true }.count)
  #expect(tables.unknown == programs.filter { $0.isFree == nil }.count)
  #expect(tables.unknown > 0)

  for groups in [tables.byCategory, tables.byDistrict] {
    #expect(groups.reduce(0) { $0 + $1.count } == total)
    #expect(groups.reduce(0) { $0 + $1.free } == tables.free)
    #expect(groups.reduce(0) { $0 + $1.unknown } == tables.unknown)
    #expect(groups.allSatisfy { $0.free + $0.paid + $0.unknown == $0.count })
    #expect(abs(groups.reduce(0) { $0 + $1.share } - 1) < 1e-9)
    #expect(Set(groups.map(\.key)).count == groups.count)
    // Ranked: count descending, then key.
    for (a, b) in zip(groups, groups.dropFirst()) {
      #expect(a.count > b.count || (a.count == b.count && a.key < b.key))
    }
  }

  // Medians against the sorted-list median, group by group.
  for (groups, key) in [(tables.byCategory, \Program.category), (tables.byDistrict, \.district)] {
    for group in groups {
      let members = programs.filter { $0[keyPath: key] == group.key }
      #expect(group.medianDurationDays == referenceMedian(members.compactMap(\.durationDays)))
      #expect(
        group.medianFeeMinKrw == referenceMedian(members.filter { $0.isFree == false }.compactMap(\.feeMinKRW)))
    }
  }

  // Bands partition the catalog, and agree with each program's own band.
  #expect(tables.byFee.reduce(0) { $0 + $1.count } == total)
  #expect(tables.byDuration.reduce(0) { $0 + $1.count } == total)
  #expect(tables.byFee.first { $0.key == "free" }?.count == tables.free)
  for band in FeeBand.allCases {
    #expect(
      tables.byFee.first { $0.key == band.rawValue }?.count
        == programs.filter { FeeBand($0) == band }.count)
  }
  for band in DurationBand.allCases {
    #expect(
      tables.byDuration.first { $0.key == band.rawValue }?.count
        == programs.filter { DurationBand($0) == band }.count)
  }

  // The cross table's margins are the group tables.
  let cross = tables.categoryByDistrict
  #expect(cross.rowKeys == tables.byCategory.map(\.key))
  #expect(cross.columnKeys == tables.byDistrict.map(\.key))
  #expect(cross.rowTotals == tables.byCategory.map(\.count))
  #expect(cross.columnTotals == tables.byDistrict.map(\.count))

  // Quality counts agree with a direct count per flag.
  for entry in tables.quality {
    let flag = QualityFlags(joinedNames: entry.key)
    #expect(entry.count == programs.filter { $0.qualityFlags.contains(flag) }.count)
  }
  let flagged = QualityFlags.named.filter { f in programs.contains { $0.qualityFlags.contains(f.flag) } }
  #expect(Set(tables.quality.map(\.key)) == Set(flagged.map(\.name)))
}

@Test func tablesDoNotDependOnProgramOrder() {
  let programs = RandomCatalog.catalog(count: 1_500, idRange: 1_000_000, seed: 42)
  var g = SplitMix64(seed: 7)
  #expect(CatalogStatistics.tables(for: programs) == CatalogStatistics.tables(for: programs.shuffled(using: &g)))
}
