import Foundation

/// `raon-bench`: measures Raon's parts on synthetic data. Run in release:
/// `swift run -c release raon-bench <suite>`.
@main
struct RaonBench {
  static func main() async throws {
    let args = CommandLine.arguments.dropFirst()
    guard let suite = args.first else {
      print("usage: raon-bench analytics|xlsx|store|trend|sha [options]")
      return
    }
    switch suite {
    case "analytics": try AnalyticsBenchmark.run(arguments: Array(args.dropFirst()))
    case "xlsx": try XLSXBenchmark.run(Array(args.dropFirst()))
    case "store": try StoreBenchmark.run(Array(args.dropFirst()))
    case "sha": try SHABenchmark.run(Array(args.dropFirst()))
    case "trend": try TrendBenchmark.run(Array(args.dropFirst()))
    default: print("unknown suite: \(suite) (known: analytics, xlsx, store, trend, sha)")
    }
  }
}
