import Foundation
import RaonCore

/// `raon-bench sha [MESSAGES] [BYTES]`: SHA-256 throughput on MESSAGES messages of BYTES
/// bytes each (default 100,000 × 1,000, about a 100,000-program catalog's raw records), for
/// RaonCore's `SHA256` (swift-crypto) beside the hand-written implementation Raon used
/// before, in the same run. (Correctness is the FIPS vectors in RaonCoreTests.)
enum SHABenchmark {
  static func run(_ arguments: [String]) throws {
    let messages = arguments.first.flatMap { Int($0) } ?? 100_000
    let size = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000
    var text = ""
    while text.utf8.count < size { text += "서울 문화행사 raon-raw-v1 12:공연/행사명, " }
    let base = String(decoding: Array(text.utf8.prefix(size)), as: UTF8.self)  // may end in U+FFFD
    let inputs = (0..<64).map { base + String($0) }
    var digest: [UInt8] = []
    let (_, newTime) = AnalyticsBenchmark.measure {
      for i in 0..<messages {
        var h = SHA256()
        h.update(inputs[i & 63])
        digest = h.finalize()
      }
    }
    var old: [UInt8] = []
    let (_, oldTime) = AnalyticsBenchmark.measure {
      for i in 0..<messages {
        var h = HandWrittenSHA256()
        h.update(inputs[i & 63])
        old = h.finalize()
      }
    }
    guard old == digest else { throw BenchError("the two SHA-256 implementations disagree") }
    guard digest.count == 32 else { throw BenchError("SHA-256 gave \(digest.count) bytes") }
    let megabytes = Double(messages * (size + 2)) / 1_000_000
    func rate(_ d: Duration) -> String {
      let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
      return String(format: "%.0f MB/s", megabytes / s)
    }
    AnalyticsBenchmark.report("  SHA256 (swift-crypto), \(messages) × \(size) B", [newTime])
    print("  throughput: \(rate(newTime))")
    AnalyticsBenchmark.report("  SHA256 (hand-written), \(messages) × \(size) B", [oldTime])
    print("  throughput: \(rate(oldTime))")
  }
}
