import Foundation
import RaonAnalytics
import RaonCore

/// `raon-bench analytics [--count N] [--seed S] [--repeat R] [--churn RATE] [--csv N]
/// [--write-csv PATH]`
///
/// With `--write-csv PATH`, only writes the synthetic catalog of `--count` rows as the
/// portal's CSV (UTF-8 with BOM) and stops: input for reader benchmarks.
///
/// Times the analytics on a synthetic catalog: generation (apart), the catalog tables, the
/// cross table alone, the week's figures, and the diff of two catalogs about `RATE` apart;
/// then prints the peak resident memory. Each analytics step runs R times; min and median
/// are printed, since the first run also pays for page faults.
enum AnalyticsBenchmark {
  struct Options {
    var count = 1_000_000
    var seed: UInt64 = 2024
    var repetitions = 3
    var churn = 0.01
    var csvCount = 0
    var writeCSV: String?
  }

  static func run(arguments: [String]) throws {
    let options = try parse(arguments)
    if let path = options.writeCSV {
      let (_, time) = try measure {
        try SyntheticCatalog.writeCSV(
          to: URL(fileURLWithPath: path), count: options.count, seed: options.seed)
      }
      report("  write \(options.count) rows to \(path)", [time])
      return
    }
    let week = ISOWeek(year: 2024, week: 37)
    guard let week else { throw BenchError("2024-W37 is not a week") }
    print("analytics: \(options.count) programs, seed \(options.seed), \(options.repetitions) runs each")

    let (old, generateOld) = measure { SyntheticCatalog.programs(count: options.count, seed: options.seed) }
    report("  generate catalog A", [generateOld])
    // B is generated afresh (its own string storage, as a second snapshot read from the store
    // would have), then churned.
    let (new, generateNew) = measure {
      SyntheticCatalog.churned(
        SyntheticCatalog.programs(count: options.count, seed: options.seed), rate: options.churn,
        seed: options.seed + 1)
    }
    report("  generate catalog B (churned)", [generateNew])
    print(String(format: "  resident after generation: %.0f MB", residentMegabytes("VmRSS")))

    let (tables, tableTimes) = repeatMeasure(options.repetitions) { CatalogStatistics.tables(for: old) }
    report("  CatalogStatistics.tables", tableTimes)
    let (cross, crossTimes) = repeatMeasure(options.repetitions) { CatalogStatistics.crossTable(for: old) }
    report("  CatalogStatistics.crossTable", crossTimes)
    let (figures, weekTimes) = repeatMeasure(options.repetitions) {
      WeekFigures.compute(programs: old, week: week)
    }
    report("  WeekFigures.compute", weekTimes)
    let (diff, diffTimes) = repeatMeasure(options.repetitions) {
      SnapshotComparison.diff(old: old, new: new)
    }
    report("  SnapshotComparison.diff", diffTimes)

    if options.csvCount > 0 {
      let (bytes, csvTime) = measure {
        SyntheticCatalog.csvUTF8(count: options.csvCount, seed: options.seed)
      }
      report("  csvUTF8 (\(options.csvCount) rows, \(bytes.count / 1_000_000) MB)", [csvTime])
    }

    // Figures that show the catalog has the sample's shape and that the work was done.
    let free = Double(tables.free) / Double(max(tables.total, 1)) * 100
    print("shape:")
    print(String(format: "  total %d, free %.1f%%", tables.total, free))
    print("  top categories: " + tables.byCategory.prefix(4).map { "\($0.key) \($0.count)" }.joined(separator: ", "))
    print("  byFee: " + tables.byFee.map { "\($0.key)=\($0.count)" }.joined(separator: " "))
    print("  byDuration: " + tables.byDuration.map { "\($0.key)=\($0.count)" }.joined(separator: " "))
    print("  cross table \(cross.rowKeys.count)×\(cross.columnKeys.count)")
    print("  \(week): active \(figures.active), starting \(figures.starting)")
    print("  diff: +\(diff.added.count) −\(diff.removed.count) ~\(diff.changed.count)")
    print(String(format: "peak RSS (VmHWM): %.0f MB", residentMegabytes("VmHWM")))
  }

  // MARK: - Options

  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
      switch flag {
      case "--count": options.count = try number(value, flag)
      case "--seed": options.seed = UInt64(try number(value, flag))
      case "--repeat": options.repetitions = max(1, try number(value, flag))
      case "--csv": options.csvCount = try number(value, flag)
      case "--write-csv": options.writeCSV = value
      case "--churn":
        guard let rate = Double(value), (0...1).contains(rate) else {
          throw BenchError("--churn takes a rate between 0 and 1, not \(value)")
        }
        options.churn = rate
      default: throw BenchError("unknown option \(flag) (try --count, --seed, --repeat, --churn, --csv, --write-csv)")
      }
    }
    return options
  }

  static func number(_ text: String, _ flag: String) throws -> Int {
    guard let n = Int(text.replacingOccurrences(of: "_", with: "")), n >= 0 else {
      throw BenchError("\(flag) takes a non-negative integer, not \(text)")
    }
    return n
  }

  // MARK: - Measuring

  static func measure<T>(_ work: () throws -> T) rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try work()
    return (result, clock.now - start)
  }

  static func repeatMeasure<T>(_ times: Int, _ work: () -> T) -> (T, [Duration]) {
    var (result, first) = measure(work)
    var durations = [first]
    for _ in 1..<max(times, 1) {
      (result, first) = measure(work)
      durations.append(first)
    }
    return (result, durations)
  }

  static func report(_ label: String, _ durations: [Duration]) {
    let ms = durations.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }
      .sorted()
    let padded = label.padding(toLength: max(36, label.count + 1), withPad: " ", startingAt: 0)
    if ms.count == 1 {
      print(padded + String(format: "%9.1f ms", ms[0]))
    } else {
      print(padded + String(format: "%9.1f ms min, %9.1f ms median", ms[0], ms[ms.count / 2]))
    }
  }

  /// A line of /proc/self/status (`VmHWM`, `VmRSS`) in megabytes; 0 where there is none.
  static func residentMegabytes(_ key: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
      let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
      return kilobytes / 1024
    }
    return 0
  }
}

/// A benchmark's bad option, printed as is.
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
