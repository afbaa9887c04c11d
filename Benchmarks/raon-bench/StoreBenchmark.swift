import Foundation
import RaonAnalytics
import RaonCore
import RaonStore

/// `raon-bench store [--count N] [--days D] [--churn RATE] [--seed S] [--repeat R] [--db PATH]`
///
/// A year of daily snapshots: a synthetic catalog of N programs (default 5,000, shaped like
/// the sample) recorded D times (default 365) into a fresh store, with about RATE (default
/// 1%) of it churned each day — a third removed, a third changed (title and end date), a
/// third added with new cultcodes. Then:
///
/// - ingestion: the time of `SnapshotStore.record` per snapshot (normalisation of the
///   changed and added rows is timed apart; unchanged rows keep their program, as the
///   normaliser is pure);
/// - store size on disk (after a checkpoint) against one snapshot's CSV (UTF-8 with BOM,
///   as `analytics --write-csv` writes it) — the sample's CP949 download is smaller per row;
/// - the trend query over every snapshot: `trendSteps(snapshots())`, as reports read it, R runs;
/// - bytes added by recording the unchanged catalog once more.
///
/// Prints `key value` lines after the human-readable ones, prefixed `result:`, for scripts.
enum StoreBenchmark {
  struct Options {
    var count = 5_000
    var days = 365
    var churn = 0.01
    var seed: UInt64 = 2024
    var repetitions = 5
    var db: String?
    /// `--trend-only`: open the store at `--db` as it is and time only the trend query.
    var trendOnly = false
  }

  static func run(_ arguments: [String]) throws {
    let options = try parse(arguments)
    if options.trendOnly {
      guard let path = options.db else { throw BenchError("--trend-only needs --db PATH") }
      let store = try SnapshotStore(path: path)
      var times: [Duration] = []
      for _ in 0..<options.repetitions {
        let (_, t) = try AnalyticsBenchmark.measure { try store.trendSteps(try store.snapshots()) }
        times.append(t)
      }
      AnalyticsBenchmark.report("  trendSteps(snapshots())", times)
      return
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("raon-store-bench-\(UUID().uuidString)")
    let path = options.db ?? directory.appendingPathComponent("store.sqlite").path
    defer { if options.db == nil { try? FileManager.default.removeItem(at: directory) } }
    if options.db != nil {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let store = try SnapshotStore(path: path)
    print(
      "store: \(options.count) programs × \(options.days) daily snapshots, churn \(options.churn), seed \(options.seed)"
    )

    let names = FieldNames(SyntheticCatalog.header)
    var generator = RecordGenerator(seed: options.seed)
    var fresh = RecordGenerator(seed: options.seed ^ 0xDA11, firstCultcode: 900_000_000)
    var random = SplitMix64(seed: options.seed &+ 7)
    var normalizeTime = Duration.zero
    func entry(_ fields: [String]) -> NewSnapshot.Entry {
      let raw = RawRecord(names: names, values: fields)
      let (program, time) = AnalyticsBenchmark.measure { ProgramNormalizer.normalize(raw) }
      normalizeTime += time
      return NewSnapshot.Entry(program: program, raw: raw)
    }
    var catalog: [NewSnapshot.Entry] = (0..<options.count).map { _ in entry(generator.next().fields) }

    let csvBytes = catalogCSVBytes(catalog)
    let day0 = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
    var recordTimes: [Duration] = []
    var added = 0, removed = 0, changed = 0
    let titleColumn = SyntheticCatalog.header.firstIndex(of: "공연/행사명")!
    let endColumn = SyntheticCatalog.header.firstIndex(of: "종료일")!
    let perDay = max(1, Int((Double(options.count) * options.churn / 3).rounded()))
    for day in 0..<options.days {
      if day > 0 {
        for _ in 0..<perDay where !catalog.isEmpty {
          catalog.remove(at: random.below(catalog.count))
          removed += 1
        }
        for _ in 0..<perDay {
          let i = random.below(catalog.count)
          var fields = catalog[i].raw.values.map { $0 ?? "" }
          fields[titleColumn] += " (\(day)일차 변경)"
          fields[endColumn] = "2025-12-\(10 + day % 20) 00:00:00.0"
          catalog[i] = entry(fields)
          changed += 1
        }
        for _ in 0..<perDay {
          catalog.append(entry(fresh.next().fields))
          added += 1
        }
      }
      let snapshot = NewSnapshot(
        takenAt: day0.addingTimeInterval(Double(day) * 86_400), source: "day-\(day).csv",
        sourceTotal: catalog.count, entries: catalog)
      let (_, time) = try AnalyticsBenchmark.measure { try store.record(snapshot) }
      recordTimes.append(time)
    }
    try store.checkpoint()
    let afterYear = try store.statistics()
    let totalRecord = recordTimes.reduce(Duration.zero, +)
    AnalyticsBenchmark.report("  record snapshot 1 (empty store)", [recordTimes[0]])
    AnalyticsBenchmark.report("  record snapshots 2…\(options.days)", Array(recordTimes.dropFirst()))
    AnalyticsBenchmark.report("  record all \(options.days) (total)", [totalRecord])
    AnalyticsBenchmark.report("  normalise changed/added (total)", [normalizeTime])
    print("  churn: +\(added) −\(removed) ~\(changed) over \(options.days - 1) days")
    print(
      "  store: \(afterYear.snapshotCount) snapshots, \(afterYear.versionCount) versions, "
        + "\(afterYear.presenceCount) intervals, \(mb(afterYear.fileBytes ?? 0)) on disk; "
        + "one snapshot's CSV \(mb(csvBytes)) → ×"
        + String(format: "%.2f", Double(afterYear.fileBytes ?? 0) / Double(csvBytes)))

    // The trend query over every snapshot, as reports read it.
    var steps: [TrendStep] = []
    var trendTimes: [Duration] = []
    for _ in 0..<options.repetitions {
      let (s, t) = try AnalyticsBenchmark.measure { try store.trendSteps(try store.snapshots()) }
      steps = s
      trendTimes.append(t)
    }
    AnalyticsBenchmark.report("  trendSteps(snapshots())", trendTimes)
    print(
      "  trend: \(steps.count) steps, first +\(steps.first?.entering.count ?? 0), "
        + "last +\(steps.last?.entering.count ?? 0) −\(steps.last?.leaving.count ?? 0)")

    // Recording the same catalog again.
    let (_, againTime) = try AnalyticsBenchmark.measure {
      try store.record(
        NewSnapshot(
          takenAt: day0.addingTimeInterval(Double(options.days) * 86_400), source: "unchanged.csv",
          sourceTotal: catalog.count, entries: catalog))
    }
    try store.checkpoint()
    let afterAgain = try store.statistics()
    let addedFile = (afterAgain.fileBytes ?? 0) - (afterYear.fileBytes ?? 0)
    let addedUsed = afterAgain.databaseBytes - afterYear.databaseBytes
    AnalyticsBenchmark.report("  record unchanged catalog", [againTime])
    print(
      "  unchanged catalog added \(addedFile) bytes on disk (\(addedUsed) bytes of used pages), "
        + "\(afterAgain.versionCount - afterYear.versionCount) versions")

    func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
    func median(_ ds: [Duration]) -> Double { let s = ds.map(ms).sorted(); return s.isEmpty ? 0 : s[s.count / 2] }
    print("result: count \(options.count)")
    print("result: days \(options.days)")
    print("result: record_total_ms \(String(format: "%.1f", ms(totalRecord)))")
    print("result: record_first_ms \(String(format: "%.1f", ms(recordTimes[0])))")
    print("result: record_daily_median_ms \(String(format: "%.1f", median(Array(recordTimes.dropFirst()))))")
    print("result: store_bytes \(afterYear.fileBytes ?? 0)")
    print("result: csv_bytes \(csvBytes)")
    print("result: store_over_csv \(String(format: "%.2f", Double(afterYear.fileBytes ?? 0) / Double(csvBytes)))")
    print("result: trend_median_ms \(String(format: "%.1f", median(trendTimes)))")
    print("result: unchanged_added_bytes \(addedFile)")
    print("result: unchanged_added_used_bytes \(addedUsed)")
    print("result: unchanged_record_ms \(String(format: "%.1f", ms(againTime)))")
    print(String(format: "result: peak_rss_mb %.0f", AnalyticsBenchmark.residentMegabytes("VmHWM")))
  }

  /// The size of the catalog as the portal's CSV (UTF-8 with BOM, every field quoted).
  static func catalogCSVBytes(_ catalog: [NewSnapshot.Entry]) -> Int {
    var total = 3 + SyntheticCatalog.csvLine(SyntheticCatalog.header).utf8.count
    for entry in catalog { total += SyntheticCatalog.csvLine(entry.raw.values.map { $0 ?? "" }).utf8.count }
    return total
  }

  static func mb(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1_000_000) }

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
      switch flag {
      case "--count": options.count = max(1, try AnalyticsBenchmark.number(value, flag))
      case "--days": options.days = max(1, try AnalyticsBenchmark.number(value, flag))
      case "--seed": options.seed = UInt64(try AnalyticsBenchmark.number(value, flag))
      case "--repeat": options.repetitions = max(1, try AnalyticsBenchmark.number(value, flag))
      case "--db": options.db = value
      case "--trend-only": options.trendOnly = value != "0"
      case "--churn":
        guard let rate = Double(value), (0...1).contains(rate) else {
          throw BenchError("--churn takes a rate between 0 and 1, not \(value)")
        }
        options.churn = rate
      default:
        throw BenchError("unknown option \(flag) (try --count, --days, --churn, --seed, --repeat, --db)")
      }
    }
    return options
  }
}
