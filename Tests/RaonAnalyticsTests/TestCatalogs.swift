import TestSupport
import Foundation
import RaonCore

// Helpers shared by the analytics tests: literal days and weeks, and seeded random catalogs.

/// A day from a literal `YYYY-MM-DD` (a typo in a test is a bug in the test: trap).
func day(_ text: String) -> CalendarDay {
  guard let d = CalendarDay(iso: text) else { fatalError("bad test date \(text)") }
  return d
}

/// A week from a literal `YYYY-Www`.
func week(_ text: String) -> ISOWeek {
  guard let w = ISOWeek(text) else { fatalError("bad test week \(text)") }
  return w
}

/// A snapshot's information for tests.
func info(_ id: Int64, count: Int = 0) -> SnapshotInfo {
  SnapshotInfo(
    id: id, takenAt: Date(timeIntervalSince1970: 1_725_840_000 + Double(id) * 86_400),
    source: "test", programCount: count)
}

enum RandomCatalog {
  static let categories = ["클래식", "전시/미술", "교육/체험", "축제-문화/예술", "국악"]
  static let districts = ["종로구", "중구", "마포구", "강남구", "은평구", District.unknown]

  /// A random program; ids come from a small range so catalogs overlap and repeat ids.
  static func program(id: String, using g: inout SplitMix64) -> Program {
    // One in eight has no free flag (a catalog before 2024 with an ambiguous fee text).
    let isFree: Bool? = Int.random(in: 0..<8, using: &g) == 0 ? nil : Bool.random(using: &g)
    let fee: Int? =
      isFree == true
      ? (Bool.random(using: &g) ? 0 : nil)
      : (Int.random(in: 0..<4, using: &g) == 0 ? nil : Int.random(in: 0...200_000, using: &g))
    let base = day("2024-01-01").dayNumber
    let start: CalendarDay? =
      Int.random(in: 0..<10, using: &g) == 0
      ? nil : CalendarDay(dayNumber: base + Int.random(in: 0..<500, using: &g))
    let end: CalendarDay? =
      Int.random(in: 0..<10, using: &g) == 0
      ? nil
      : CalendarDay(
        dayNumber: (start?.dayNumber ?? base) + Int.random(in: -5...400, using: &g))
    return Program(
      id: id, title: "제목 \(Int.random(in: 0..<5, using: &g))",
      category: categories[Int.random(in: 0..<categories.count, using: &g)],
      district: districts[Int.random(in: 0..<districts.count, using: &g)],
      place: "장소 \(Int.random(in: 0..<3, using: &g))", isFree: isFree, feeMinKRW: fee,
      feeMaxKRW: fee, startDate: start, endDate: end,
      qualityFlags: QualityFlags(rawValue: UInt32.random(in: 0..<1024, using: &g) & 0b10_1100_0011))
  }

  /// A catalog of `count` random programs with ids drawn from `cult:0…cult:(idRange-1)`.
  static func catalog(count: Int, idRange: Int, seed: UInt64) -> [Program] {
    var g = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      program(id: "cult:\(Int.random(in: 0..<idRange, using: &g))", using: &g)
    }
  }
}

/// The median the slow, obvious way: sort, then take the middle (or the mean of the two).
func referenceMedian(_ values: [Int]) -> Double? {
  guard !values.isEmpty else { return nil }
  let s = values.sorted()
  let n = s.count
  return n % 2 == 1 ? Double(s[n / 2]) : (Double(s[n / 2 - 1]) + Double(s[n / 2])) / 2
}
