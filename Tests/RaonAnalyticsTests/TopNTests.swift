import Testing

@testable import RaonAnalytics

let ranking = [
  BandCount(key: "a", count: 5), BandCount(key: "b", count: 9), BandCount(key: "c", count: 5),
  BandCount(key: "d", count: 1),
]

@Test func collapseKeepsTheLargestAndSumsTheRest() {
  // b 9, then a 5 (before c on the tie: input order); rest c 5 + d 1 = 6.
  #expect(
    TopN.collapse(ranking, keep: 2, otherKey: "other") == [
      BandCount(key: "b", count: 9), BandCount(key: "a", count: 5), BandCount(key: "other", count: 6),
    ])
  #expect(TopN.collapse(ranking, keep: 0, otherKey: "other") == [BandCount(key: "other", count: 20)])
  #expect(TopN.collapse(ranking, keep: -1, otherKey: "other") == [BandCount(key: "other", count: 20)])
}

@Test func collapseWithoutARestIsUnchanged() {
  #expect(TopN.collapse(ranking, keep: 4, otherKey: "other") == ranking)
  #expect(TopN.collapse(ranking, keep: 10, otherKey: "other") == ranking)
  #expect(TopN.collapse([BandCount](), keep: 0, otherKey: "other") == [])
}

@Test func collapseGroupStatsSumsCountsAndDropsMedians() {
  let groups = CatalogStatistics.tables(for: handCatalog).byCategory
  // 클래식 kept; 교육/체험 + 전시/미술 = 2 + 2 programs, 1 + 1 free, 1 + 1 paid, 0.25 + 0.25.
  let collapsed = TopN.collapse(groups, keep: 1, otherKey: "기타 합계")
  #expect(collapsed.count == 2)
  #expect(collapsed[0] == groups[0])
  #expect(
    collapsed[1] == GroupStats(
      key: "기타 합계", count: 4, free: 2, paid: 2, medianDurationDays: nil, medianFeeMinKrw: nil,
      share: 0.5))
  #expect(TopN.collapse(groups, keep: 3, otherKey: "x") == groups)
}
