import RaonDocument
import Testing

/// A name column's printed share of the page, worked by hand: the page is 140 units (a
/// Hangul syllable 2, another letter 1.15), each cell adds 3.
struct PrintedWidthTests {
  @Test func aColumnIsAsWideAsItsLongestName() {
    // "교육/체험": 4 syllables (8) + "/" (1.15 → 2 rounded up on the narrow part) = 10; + 3 = 13
    // of 140 = 9.3% → 10.
    #expect(PrintedWidth.share(header: "분류", values: ["교육/체험", "연극"]) == (10, true))
    // "Education/Experience": 20 letters × 1.15 = 23; + 3 = 26 of 140 = 18.6% → 19.
    #expect(PrintedWidth.share(header: "Category", values: ["Education/Experience", "Theatre"]) == (19, true))
    // A header wraps between words: "Running this week" counts as "Running" (7 × 1.15 → 9).
    #expect(PrintedWidth.share(header: "Running this week", values: ["A"]) == (9, true))
  }

  @Test func aColumnWiderThanItsCapWrapsInstead() {
    // 20 syllables = 40 units; + 3 = 43 of 140 = 30.7% > 24: capped, and the names wrap.
    let long = String(repeating: "가", count: 20)
    #expect(PrintedWidth.share(header: "제공기관", values: [long]) == (PrintedWidth.widestNameShare, false))
    // Never under 5%.
    #expect(PrintedWidth.share(header: "x", values: ["y"]) == (5, true))
  }

  @Test func theRestIsSplitInProportionAndAddsUpExactly() {
    #expect(PrintedWidth.split(88, [34, 22, 14, 14]) == [37, 23, 14, 14])
    #expect(PrintedWidth.split(100, [1, 1, 1]) == [34, 33, 33])
    #expect(PrintedWidth.split(0, [34, 22]) == [0, 0])
  }
}
