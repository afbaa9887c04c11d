import Foundation
import RaonAnalytics
import RaonCore
import RaonIngest
import TestSupport
import Testing

/// The bundled sample, read and normalised the way `raon` does, checked against what its
/// README says it contains and against a second computation written here from the raw
/// fields (not by calling the code under test).
@Suite struct SampleCatalogTests {
  static let batch: CatalogBatch? = try? CatalogFileReader.read(Fixtures.sampleCSV)

  func load() throws -> (records: [RawRecord], programs: [Program]) {
    let batch = try #require(Self.batch)
    return (batch.records, batch.records.map(ProgramNormalizer.normalize))
  }

  func count(_ programs: [Program], _ flag: QualityFlags) -> Int {
    programs.filter { $0.qualityFlags.contains(flag) }.count
  }

  @Test func everyRowNormalisesWithTheFlagCountsTheDataREADMEStates() throws {
    let (_, programs) = try load()
    #expect(programs.count == 4998)
    #expect(Set(programs.map(\.id)).count == 4998)
    #expect(programs.allSatisfy { $0.id.hasPrefix("cult:") })
    #expect(count(programs, .districtMissing) == 52)
    #expect(count(programs, .endBeforeStart) == 6)
    #expect(count(programs, .coordsOutsideSeoul) == 3)
    #expect(count(programs, .invalidBytesReplaced) == 1)
    // The README counts 18 free programs quoting "NN,NNN원". Three more quote prices in
    // 만원 ("3만원(…)", "전석 1만원(…)" twice), which are prices in won too: 21.
    #expect(count(programs, .freeButPriced) == 21)
    #expect(programs.filter { $0.endDate == CalendarDay(iso: "2099-12-31") }.count == 1)
  }

  @Test func groupFiguresAgreeWithASecondComputationFromTheRawFields() throws {
    let (records, programs) = try load()
    let tables = CatalogStatistics.tables(for: programs)

    // Second computation: straight from 분류 / 유무료 / 시작일 / 종료일 text.
    var count: [String: Int] = [:]
    var free: [String: Int] = [:]
    var durations: [String: [Int]] = [:]
    func day(_ text: String?) -> Int? {
      guard let t = text, t.count >= 10 else { return nil }
      let p = t.prefix(10).split(separator: "-").compactMap { Int($0) }
      guard p.count == 3 else { return nil }
      // Days from civil (independent of CalendarDay): via Foundation's Gregorian calendar.
      var c = DateComponents()
      (c.year, c.month, c.day) = (p[0], p[1], p[2])
      var cal = Calendar(identifier: .gregorian)
      cal.timeZone = TimeZone(identifier: "UTC") ?? .current
      guard let date = cal.date(from: c) else { return nil }
      return Int(date.timeIntervalSince1970 / 86_400)
    }
    for r in records {
      let key = (r[name: "분류"] ?? "").trimmingCharacters(in: .whitespaces)
      count[key, default: 0] += 1
      if r[name: "유무료"] == "무료" { free[key, default: 0] += 1 }
      if let s = day(r[name: "시작일"]), let e = day(r[name: "종료일"]), e >= s {
        durations[key, default: []].append(e - s + 1)
      }
    }
    func median(_ values: [Int]) -> Double? {
      let s = values.sorted()
      guard !s.isEmpty else { return nil }
      return s.count % 2 == 1 ? Double(s[s.count / 2]) : Double(s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    #expect(tables.total == 4998)
    #expect(tables.byCategory.count == count.count)
    for row in tables.byCategory {
      #expect(row.count == count[row.key], "\(row.key)")
      #expect(row.free == free[row.key, default: 0], "\(row.key)")
      #expect(row.paid == row.count - row.free)
      #expect(row.medianDurationDays == median(durations[row.key, default: []]), "\(row.key)")
    }
    // Sorted by count, then key.
    #expect(tables.byCategory.map(\.count) == tables.byCategory.map(\.count).sorted(by: >))
    #expect(tables.byCategory.first?.key == "교육/체험")
    #expect(tables.byCategory.first?.count == 1826)  // Python's csv module: 1,826
    // 25 districts plus 미상 (52 rows).
    #expect(tables.byDistrict.first { $0.key == District.unknown }?.count == 52)
    #expect(tables.byFee.map(\.count).reduce(0, +) == 4998)
    #expect(tables.byDuration.map(\.count).reduce(0, +) == 4998)
    #expect(tables.byFee.first { $0.key == "free" }?.count == 3197)  // 무료 rows, per Python
    // Six rows end before they start: their duration is invalid.
    #expect(tables.byDuration.first { $0.key == "invalid" }?.count == 6)
  }
}
