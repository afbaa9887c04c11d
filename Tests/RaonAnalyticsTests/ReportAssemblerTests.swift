import Foundation
import RaonCore
import Testing

@testable import RaonAnalytics

@Test func assembleWithoutComparison() throws {
  let data = try ReportAssembler.assemble(
    snapshot: info(2, count: 8), programs: handCatalog.reversed(), compareTo: nil,
    week: week("2024-W37"))
  #expect(data.snapshot.id == 2)
  #expect(data.compareTo == nil)
  #expect(data.programCount == 8)
  #expect(data.tables == CatalogStatistics.tables(for: handCatalog))
  #expect(data.thisWeek == WeekFigures.compute(programs: handCatalog, week: week("2024-W37")))
  #expect(data.compareTables == nil)
  #expect(data.compareWeek == nil)
  #expect(data.changes == nil)
}

/// A catalog read in chunks (as a large one is read from the store) gives the same tables
/// and week figures as the whole catalog at once, whatever the chunk size.
@Test(arguments: [1, 3, 8, 100])
func assembleFromChunksMatchesTheWholeCatalog(chunkSize: Int) throws {
  let sorted = handCatalog.sorted { $0.id < $1.id }
  let older = Array(sorted.prefix(5)) + [Program(id: "p9", title: "gone")]
  let chunks = { (programs: [Program]) in
    ProgramChunks(count: programs.count) { body in
      for start in stride(from: 0, to: programs.count, by: chunkSize) {
        guard try body(Array(programs[start..<min(start + chunkSize, programs.count)])) else { return }
      }
    }
  }
  let whole = try ReportAssembler.assemble(
    snapshot: info(2, count: 8), programs: sorted, compareTo: (info(1, count: 6), older),
    week: week("2024-W37"))
  let diff = SnapshotComparison.diff(old: older, new: sorted)
  let chunked = try ReportAssembler.assemble(
    snapshot: info(2, count: 8), programs: chunks(sorted),
    compareTo: (info(1, count: 6), chunks(older), diff), week: week("2024-W37"))
  #expect(chunked.tables == whole.tables)
  #expect(chunked.thisWeek == whole.thisWeek)
  #expect(chunked.compareTables == whole.compareTables)
  #expect(chunked.compareWeek == whole.compareWeek)
  #expect(chunked.changes == whole.changes)
  #expect(chunked.programCount == sorted.count)
  #expect(chunked.qualityExamples.byFlag == whole.qualityExamples.byFlag)
}

/// The quality examples are chosen in the figures' pass: for every flag, the first three
/// programs by id that carry it (counted here by filtering the sorted catalog), whatever
/// order the programs come in and however they are chunked.
@Test(arguments: [1, 4, 50])
func qualityExamplesAreTheFirstProgramsOfEachFlagByID(chunkSize: Int) throws {
  let flagged: [QualityFlags] = [[.coordsMissing], [.districtMissing, .coordsMissing], [], [.idFromHash], [.coordsMissing]]
  let programs = (0..<23).map { i in
    Program(id: String(format: "cult:%03d", 22 - i), title: "t\(i)", qualityFlags: flagged[i % flagged.count])
  }
  let sorted = programs.sorted { $0.id < $1.id }
  let chunks = ProgramChunks(count: sorted.count) { body in
    for start in stride(from: 0, to: sorted.count, by: chunkSize) {
      guard try body(Array(sorted[start..<min(start + chunkSize, sorted.count)])) else { return }
    }
  }
  let held = try ReportAssembler.assemble(snapshot: info(2, count: 23), programs: programs, compareTo: nil, week: week("2024-W37"))
  let read = try ReportAssembler.assemble(snapshot: info(2, count: 23), programs: chunks, compareTo: nil, week: week("2024-W37"))
  for (flag, name) in QualityFlags.named {
    let expected = Array(sorted.filter { $0.qualityFlags.contains(flag) }.prefix(3))
    #expect(held.qualityExamples[name] == expected, "\(name)")
    #expect(read.qualityExamples[name] == expected, "\(name)")
  }
  #expect(held.qualityExamples["coords_missing"].count == 3)
}

@Test func assembleWithComparison() throws {
  let older = Array(handCatalog.prefix(5)) + [Program(id: "p0", title: "gone")]
  let data = try ReportAssembler.assemble(
    snapshot: info(2, count: 8), programs: handCatalog, compareTo: (info(1, count: 6), older),
    week: week("2024-W37"))
  #expect(data.compareTo?.id == 1)
  #expect(data.compareTables?.total == 6)
  #expect(data.compareWeek?.week == week("2024-W37"))
  #expect(data.changes?.addedIds == ["p6", "p7", "p8"])
  #expect(data.changes?.removedIds == ["p0"])
  #expect(data.changes?.changedIds == [])
}
