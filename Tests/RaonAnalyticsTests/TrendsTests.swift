import RaonCore
import Testing

@testable import RaonAnalytics

@Test func trendPointsCountAndCompareWithThePreviousPoint() {
  func s(_ id: String, _ category: String, _ district: String, free: Bool) -> ProgramSummary {
    ProgramSummary(id: id, category: category, district: district, isFree: free)
  }
  let first = [s("a", "클래식", "종로구", free: true), s("b", "국악", "중구", free: false)]
  let second = [
    s("b", "국악", "중구", free: false), s("c", "국악", "종로구", free: true),
    s("d", "국악", "중구", free: true),
  ]
  let points = Trends.points([(info(1), first), (info(2), second), (info(3), [])])
  #expect(points.map(\.snapshot.id) == [1, 2, 3])
  #expect(points.map(\.total) == [2, 3, 0])
  #expect(points.map(\.free) == [1, 2, 0])
  #expect(points.map(\.paid) == [1, 1, 0])
  // First point: nothing to compare with. Second: c, d added; a removed. Third: all 3 gone.
  #expect(points.map(\.added) == [nil, 2, 0])
  #expect(points.map(\.removed) == [nil, 1, 3])
  #expect(points[1].byCategory == [BandCount(key: "국악", count: 3)])
  #expect(points[1].byDistrict == [BandCount(key: "중구", count: 2), BandCount(key: "종로구", count: 1)])
  #expect(points[0].count(category: "클래식") == 1)
  #expect(points[1].count(category: "클래식") == 0)
  #expect(points[1].count(district: "중구") == 2)
  #expect(Trends.points([]).isEmpty)
}
