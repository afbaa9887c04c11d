/// Medians by selection (Hoare's quickselect), without sorting the whole array.
enum Median {
  /// The median of `values` (the mean of the two middle values for an even count), or `nil`
  /// when there are none. Reorders `values`; the caller owns a scratch copy.
  static func of(_ values: inout [Int]) -> Double? {
    let n = values.count
    guard n > 0 else { return nil }
    return values.withUnsafeMutableBufferPointer { buffer -> Double in
      let upper = n / 2
      select(buffer, upper)
      if n % 2 == 1 { return Double(buffer[upper]) }
      // After selection every element before `upper` is ≤ it, so the lower middle value
      // is the largest of them.
      var lower = buffer[0]
      for i in 1..<upper where buffer[i] > lower { lower = buffer[i] }
      // Through Double, so two large fees cannot overflow when added.
      return (Double(lower) + Double(buffer[upper])) / 2
    }
  }

  /// Reorders `a` so that `a[k]` is the value a full sort would put there, everything before
  /// it ≤ it and everything after it ≥ it.
  static func select(_ a: UnsafeMutableBufferPointer<Int>, _ k: Int) {
    var lo = 0
    var hi = a.count - 1
    // Introselect: after this many rounds without converging (adversarial input), sort
    // the remaining range, so the worst case is O(n log n) rather than quadratic.
    var budget = 2 * (Int.bitWidth - a.count.leadingZeroBitCount) + 4
    while hi > lo {
      if hi - lo < 16 || budget == 0 {
        var rest = UnsafeMutableBufferPointer(rebasing: a[lo...hi])
        rest.sort()
        return
      }
      budget -= 1
      // Median of three: sorted input (common: durations of one day) stays linear.
      let mid = lo + (hi - lo) / 2
      if a[mid] < a[lo] { a.swapAt(mid, lo) }
      if a[hi] < a[lo] { a.swapAt(hi, lo) }
      if a[hi] < a[mid] { a.swapAt(hi, mid) }
      let pivot = a[mid]
      // Hoare partition: swapping equal elements splits long runs of duplicates evenly.
      var i = lo
      var j = hi
      while i <= j {
        while a[i] < pivot { i += 1 }
        while a[j] > pivot { j -= 1 }
        if i <= j {
          a.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      // Now a[lo...j] ≤ pivot, a[i...hi] ≥ pivot, and anything between equals the pivot.
      if k <= j {
        hi = j
      } else if k >= i {
        lo = i
      } else {
        return
      }
    }
  }
}
