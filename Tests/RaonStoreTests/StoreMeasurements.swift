import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonStore

/// Size and time measurements, printed rather than asserted beyond the issue's limits.
/// Off by default (a year of snapshots takes minutes in a debug build):
/// `RAON_STORE_MEASURE=365 swift test --filter StoreMeasurements` (the number of days);
/// `RAON_STORE_CHURN=changes` makes the 1% daily churn all changes (50 new versions a day)
/// instead of a third each changes, removals and additions.
@Suite("Store measurements", .enabled(if: ProcessInfo.processInfo.environment["RAON_STORE_MEASURE"] != nil))
struct StoreMeasurements {
  static var changesOnly: Bool { ProcessInfo.processInfo.environment["RAON_STORE_CHURN"] == "changes" }
  static var days: Int { Int(ProcessInfo.processInfo.environment["RAON_STORE_MEASURE"] ?? "") ?? 30 }

  static func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = Date()
    try work()
    return Date().timeIntervalSince(start)
  }

  @Test func sizeOfAYearOfDailySnapshots() throws {
    let (store, path, folder) = try temporaryStore("raon-measure")
    defer { remove(folder) }
    var catalog = SyntheticCatalog.catalog(count: 5_000)
    var snapshot = SyntheticCatalog.snapshot(catalog)
    let csvBytes = snapshot.entries.reduce(0) { total, entry in
      total + entry.raw.values.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 3 } + 1
    }
    let empty = try store.bytesOnDiskAfterCheckpoint()
    let firstTime = try Self.seconds { try store.record(snapshot) }
    let one = try store.bytesOnDiskAfterCheckpoint()
    let againTime = try Self.seconds { try store.record(snapshot) }
    let two = try store.bytesOnDiskAfterCheckpoint()
    print("""
      store: \(path)
      synthetic CSV-ish bytes of 5,000 records (UTF-8): \(csvBytes)
      empty store: \(empty) B; after 1 snapshot: \(one) B (\(String(format: "%.2f", Double(one) / Double(csvBytes)))× CSV); record took \(String(format: "%.3f", firstTime)) s
      same catalog again: +\(two - one) B; record took \(String(format: "%.3f", againTime)) s
      """)
    #expect(two - one < 100_000)

    var random = SplitMix64(seed: 42)
    var recordTime = 0.0
    for day in 2...Self.days {
      catalog = SyntheticCatalog.churn(
        catalog, rate: 0.01, changesOnly: Self.changesOnly, random: &random)
      snapshot = SyntheticCatalog.snapshot(catalog, day: day)
      recordTime += try Self.seconds { try store.record(snapshot) }
    }
    let year = try store.bytesOnDiskAfterCheckpoint()
    let stats = try store.statistics()
    var series: [(info: SnapshotInfo, programs: [ProgramSummary])] = []
    let trendTime = try Self.seconds { series = try store.trendSeries() }
    var latest: [Program] = []
    let readTime = try Self.seconds { latest = try store.programs(inSnapshot: stats.snapshotCount > 0 ? series.last?.info.id ?? 1 : 1) }
    print("""
      \(Self.days) daily snapshots, 1% churn (\(Self.changesOnly ? "all changes" : "changes/removals/additions")): \(year) B = \(String(format: "%.2f", Double(year) / Double(csvBytes)))× the synthetic CSV, \(String(format: "%.2f", Double(year) / 3_077_278))× the sample CSV (3,077,278 B)
      versions \(stats.versionCount), presence rows \(stats.presenceCount), snapshots \(stats.snapshotCount)
      mean record time over days 2…\(Self.days): \(String(format: "%.3f", recordTime / Double(max(1, Self.days - 1)))) s
      trendSeries: \(String(format: "%.3f", trendTime)) s for \(series.count) snapshots, \(series.reduce(0) { $0 + $1.programs.count }) summaries
      programs(inSnapshot: latest): \(String(format: "%.3f", readTime)) s for \(latest.count) programs
      """)
    #expect(year < 10 * 3_077_278)
    #expect(try store.integrityCheck() == ["ok"])
  }
}

/// Recording one very large catalog: `RAON_STORE_MEASURE_LARGE=1000000 swift test --filter
/// LargeCatalogMeasurement` (memory: about 3 KB per program while recording).
@Suite(
  "Large catalog measurement",
  .enabled(if: ProcessInfo.processInfo.environment["RAON_STORE_MEASURE_LARGE"] != nil))
struct LargeCatalogMeasurement {
  @Test func recordingAVeryLargeCatalog() throws {
    let count = Int(ProcessInfo.processInfo.environment["RAON_STORE_MEASURE_LARGE"] ?? "") ?? 100_000
    let (store, _, folder) = try temporaryStore("raon-measure-large")
    defer { remove(folder) }
    var snapshot = SyntheticCatalog.snapshot([:])
    let generation = StoreMeasurements.seconds {
      snapshot.entries = (0..<count).map { SyntheticCatalog.entry($0) }
    }
    var info: SnapshotInfo?
    let first = try StoreMeasurements.seconds { info = try store.record(snapshot) }
    let again = try StoreMeasurements.seconds { try store.record(snapshot) }
    var programs: [Program] = []
    let read = try StoreMeasurements.seconds { programs = try store.programs(inSnapshot: info?.id ?? 0) }
    let bytes = try store.bytesOnDiskAfterCheckpoint()
    print("""
      \(count) programs: generated in \(String(format: "%.1f", generation)) s; recorded in \(String(format: "%.1f", first)) s, again in \(String(format: "%.1f", again)) s; read back in \(String(format: "%.1f", read)) s; store \(bytes) B
      """)
    #expect(programs.count == count)
    #expect(info?.programCount == count)
  }
}
