import RaonCore
import Testing

@testable import RaonAnalytics

@Test func assembleWithoutComparison() {
  let data = ReportAssembler.assemble(
    snapshot: info(2, count: 8), programs: handCatalog.reversed(), compareTo: nil,
    week: week("2024-W37"))
  #expect(data.snapshot.id == 2)
  #expect(data.compareTo == nil)
  #expect(data.programs.map(\.id) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"])
  #expect(data.tables == CatalogStatistics.tables(for: handCatalog))
  #expect(data.thisWeek == WeekFigures.compute(programs: handCatalog, week: week("2024-W37")))
  #expect(data.compareTables == nil)
  #expect(data.compareWeek == nil)
  #expect(data.changes == nil)
}

@Test func assembleWithComparison() {
  let older = Array(handCatalog.prefix(5)) + [Program(id: "p0", title: "gone")]
  let data = ReportAssembler.assemble(
    snapshot: info(2, count: 8), programs: handCatalog, compareTo: (info(1, count: 6), older),
    week: week("2024-W37"))
  #expect(data.compareTo?.id == 1)
  #expect(data.compareTables?.total == 6)
  #expect(data.compareWeek?.week == week("2024-W37"))
  #expect(data.changes?.addedIds == ["p6", "p7", "p8"])
  #expect(data.changes?.removedIds == ["p0"])
  #expect(data.changes?.changedIds == [])
}
