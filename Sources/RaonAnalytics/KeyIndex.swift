/// Numbers distinct keys (categories, districts) 0, 1, 2… in order of first appearance, so
/// per-key figures can live in arrays instead of dictionaries of structs.
///
/// Keys equal as `String`s share a number even when their bytes differ (say, one spelled
/// with composed Hangul syllables and one with conjoining jamo); the first spelling seen
/// names the group.
struct KeyIndex {
  private(set) var keys: [String] = []
  /// Every distinct byte sequence seen → its group number (the fast path).
  private var byBytes: [UTF8Key: Int] = [:]
  /// Group keys under `String` equality, consulted once per new byte sequence.
  private var byString: [String: Int] = [:]

  /// The number of `key`, assigning the next one when it is new.
  mutating func index(of key: String) -> Int {
    let bytes = UTF8Key(text: key)
    if let i = byBytes[bytes] { return i }
    let i: Int
    if let existing = byString[key] {
      i = existing
    } else {
      i = keys.count
      keys.append(key)
      byString[key] = i
    }
    byBytes[bytes] = i
    return i
  }

  var count: Int { keys.count }
}

/// Counts per key, listed the way every ranking in the report is: count descending, then key.
struct KeyCounter {
  private var index = KeyIndex()
  private var counts: [Int] = []

  mutating func add(_ key: String) {
    let i = index.index(of: key)
    if i == counts.count { counts.append(0) }
    counts[i] += 1
  }

  /// The counts as ranked `BandCount` rows.
  var ranked: [BandCount] {
    zip(index.keys, counts).map { BandCount(key: $0, count: $1) }.rankedByCount()
  }
}

extension Array where Element == BandCount {
  /// Sorted by count descending, then key ascending: the order of every ranked list.
  func rankedByCount() -> [BandCount] {
    sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
  }
}

/// The positions of `keys` ordered by `totals` descending, then key ascending.
func rankedPositions(keys: [String], totals: [Int]) -> [Int] {
  keys.indices.sorted {
    totals[$0] != totals[$1] ? totals[$0] > totals[$1] : keys[$0] < keys[$1]
  }
}
