import Foundation
import RaonAnalytics
import RaonCore
import RaonStore

/// `raon-bench trend [--count N] [--days D] [--churn RATE] [--seed S] [--repeat R] [--db PATH]
/// [--reuse 1] [--verify K]`
///
/// The weekly trend over a year of daily snapshots (`raon trend`'s read): a synthetic
/// catalog of N programs (default 20,000) recorded D times (default 365) with about RATE
/// (default 1%) churned a day — a third removed, a third changed, a third added — as
/// `raon-bench store` does. Then, R times: the points chosen from the snapshots
/// (`WeeklyTrend.choosePoints`, every week), the store's interval changes between them
/// (`SnapshotStore.trendSteps`) and the figures (`WeeklyTrend.IncrementalBuilder`) — what
/// `TrendJob.points` does. `--db PATH` keeps the store (to time `raon trend --db PATH`
/// after); `--reuse 1` measures an existing store at PATH without recording.
/// `--verify K` checks K points spread over the year against `WeeklyTrend.points` over
/// those snapshots' full programs.
///
/// Prints `result: key value` lines for scripts.
enum TrendBenchmark {
  struct Options {
    var count = 20_000
    var days = 365
    var churn = 0.01
    var seed: UInt64 = 2024
    var repetitions = 5
    var db: String?
    var reuse = false
    var verify = 0
  }

  static func run(_ arguments: [String]) throws {
    let options = try parse(arguments)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("raon-trend-bench-\(UUID().uuidString)")
    let path = options.db ?? directory.appendingPathComponent("store.sqlite").path
    defer { if options.db == nil { try? FileManager.default.removeItem(at: directory) } }
    if !options.reuse {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    let store = try SnapshotStore(path: path)
    if !options.reuse {
      let recordTime = try record(options, into: store)
      AnalyticsBenchmark.report("  record \(options.days) snapshots (total)", [recordTime])
    }
    let statistics = try store.statistics()
    print(
      "trend: \(statistics.snapshotCount) snapshots, \(statistics.versionCount) versions, "
        + "\(statistics.presenceCount) intervals")

    var times: [Duration] = []
    var readTimes: [Duration] = []
    var points: [WeeklyTrendPoint] = []
    for _ in 0..<options.repetitions {
      let (result, total) = try AnalyticsBenchmark.measure { () -> ([WeeklyTrendPoint], Duration) in
        let chosen = WeeklyTrend.choosePoints(try store.snapshots(), weeks: .max)
        let (steps, read) = try AnalyticsBenchmark.measure { try store.trendSteps(chosen) }
        return (trend(steps), read)
      }
      points = result.0
      readTimes.append(result.1)
      times.append(total)
    }
    AnalyticsBenchmark.report("  trendSteps (store read)", readTimes)
    AnalyticsBenchmark.report("  trend over every week (total)", times)
    if let first = points.first, let last = points.last {
      print(
        "  \(points.count) points \(first.isoWeek) … \(last.isoWeek); last: \(last.programCount) programs, "
          + "current \(last.current), running \(last.running), starting \(last.starting), "
          + "registered \(last.registered), +\(last.added ?? 0) −\(last.removed ?? 0)")
    }
    if options.verify > 0 {
      let all = WeeklyTrend.choosePoints(try store.snapshots(), weeks: .max)
      let step = max(1, all.count / options.verify)
      let subset = stride(from: 0, to: all.count, by: step).map { all[$0] }
      let fromSteps = trend(try store.trendSteps(subset))
      let full = WeeklyTrend.points(
        try subset.map { (info: $0, programs: try store.programs(inSnapshot: $0.id)) })
      guard fromSteps == full else {
        throw BenchError("the trend from intervals differs from the full programs' trend")
      }
      print("  verified \(subset.count) points against the full programs")
    }
    func ms(_ d: Duration) -> Double {
      Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
    let sorted = times.map(ms).sorted()
    print("result: trend_points \(points.count)")
    print("result: trend_total_median_ms \(String(format: "%.1f", sorted[sorted.count / 2]))")
    print(
      "result: trend_read_median_ms \(String(format: "%.1f", readTimes.map(ms).sorted()[readTimes.count / 2]))"
    )
    print(String(format: "result: peak_rss_mb %.0f", AnalyticsBenchmark.residentMegabytes("VmHWM")))
  }

  /// The figures from the steps, as `TrendJob.points(of:in:)` computes them.
  static func trend(_ steps: [TrendStep]) -> [WeeklyTrendPoint] {
    var builder = WeeklyTrend.IncrementalBuilder()
    for step in steps {
      builder.startPoint(step.snapshot)
      for v in step.leaving { builder.leave(key: v.versionID) }
      for v in step.entering {
        builder.enter(v.program, copies: v.copies, key: v.versionID)
      }
    }
    return builder.points
  }

  /// Records the year; returns the total recording time.
  static func record(_ options: Options, into store: SnapshotStore) throws -> Duration {
    let names = FieldNames(SyntheticCatalog.header)
    var generator = RecordGenerator(seed: options.seed)
    var fresh = RecordGenerator(seed: options.seed ^ 0xDA11, firstCultcode: 900_000_000)
    var random = SplitMix64(seed: options.seed &+ 7)
    func entry(_ fields: [String]) -> NewSnapshot.Entry {
      let raw = RawRecord(names: names, values: fields)
      return NewSnapshot.Entry(program: ProgramNormalizer.normalize(raw), raw: raw)
    }
    var catalog: [NewSnapshot.Entry] = (0..<options.count).map { _ in entry(generator.next().fields)
    }
    guard let titleColumn = SyntheticCatalog.header.firstIndex(of: "공연/행사명"),
      let endColumn = SyntheticCatalog.header.firstIndex(of: "종료일")
    else { throw BenchError("the synthetic header lacks 공연/행사명 or 종료일") }
    let day0 = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
    let perDay = max(1, Int((Double(options.count) * options.churn / 3).rounded()))
    var total = Duration.zero
    for day in 0..<options.days {
      if day > 0 {
        for _ in 0..<perDay where !catalog.isEmpty {
          catalog.remove(at: random.below(catalog.count))
        }
        for _ in 0..<perDay {
          let i = random.below(catalog.count)
          var fields = catalog[i].raw.values.map { $0 ?? "" }
          fields[titleColumn] += " (\(day)일차 변경)"
          fields[endColumn] = "2025-12-\(10 + day % 20) 00:00:00.0"
          catalog[i] = entry(fields)
        }
        for _ in 0..<perDay { catalog.append(entry(fresh.next().fields)) }
      }
      let snapshot = NewSnapshot(
        takenAt: day0.addingTimeInterval(Double(day) * 86_400), source: "day-\(day).csv",
        sourceTotal: catalog.count, entries: catalog)
      let (_, time) = try AnalyticsBenchmark.measure { try store.record(snapshot) }
      total += time
    }
    try store.checkpoint()
    return total
  }

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
      case "--reuse": options.reuse = value != "0"
      case "--verify": options.verify = try AnalyticsBenchmark.number(value, flag)
      case "--churn":
        guard let rate = Double(value), (0...1).contains(rate) else {
          throw BenchError("--churn takes a rate between 0 and 1, not \(value)")
        }
        options.churn = rate
      default:
        throw BenchError(
          "unknown option \(flag) (try --count, --days, --churn, --seed, --repeat, --db, --reuse, --verify)"
        )
      }
    }
    return options
  }
}
