import TestSupport
import Testing

@testable import RaonAnalytics

@Test func medianOfSmallLists() {
  var empty: [Int] = []
  #expect(Median.of(&empty) == nil)
  var one = [5]
  #expect(Median.of(&one) == 5)
  var odd = [9, 1, 7]
  #expect(Median.of(&odd) == 7)
  // Even: the mean of the two middle values, (3 + 4) / 2.
  var even = [4, 1, 10, 3]
  #expect(Median.of(&even) == 3.5)
  // Large values are averaged without overflow.
  var large = [Int.max, Int.max]
  #expect(Median.of(&large) == Double(Int.max))
}

@Test func medianMatchesSortingOnAwkwardShapes() {
  let n = 10_001
  let shapes: [(String, [Int])] = [
    ("sorted", Array(0..<n)),
    ("reversed", Array((0..<n).reversed())),
    ("constant", Array(repeating: 1, count: n)),
    ("two values", (0..<n).map { $0 % 2 }),
    ("organ pipe", (0..<n).map { min($0, n - $0) }),
    ("even sorted", Array(0..<(n + 1))),
  ]
  for (name, values) in shapes {
    var scratch = values
    #expect(Median.of(&scratch) == referenceMedian(values), "\(name)")
  }
}

@Test(arguments: [1, 2, 3, 17, 100, 1_000, 4_097])
func medianMatchesSortingOnRandomLists(count: Int) {
  var g = SplitMix64(seed: UInt64(count))
  for _ in 0..<20 {
    let values = (0..<count).map { _ in Int.random(in: 0..<(count / 3 + 2), using: &g) }
    var scratch = values
    #expect(Median.of(&scratch) == referenceMedian(values))
  }
}
