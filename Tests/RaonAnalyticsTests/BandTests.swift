import RaonCore
import Testing

@testable import RaonAnalytics

@Test func feeBandKeysAreTheContractsInOrder() {
  #expect(
    FeeBand.allCases.map(\.rawValue) == [
      "free", "1-10000", "10001-30000", "30001-50000", "50001-100000", "100001+", "unknown",
    ])
  #expect(FeeBand.allCases.map(\.ordinal) == Array(0..<7))
}

@Test func durationBandKeysAreTheContractsInOrder() {
  #expect(
    DurationBand.allCases.map(\.rawValue) == ["1", "2-7", "8-30", "31-90", "91-365", "366+", "invalid"])
  #expect(DurationBand.allCases.map(\.ordinal) == Array(0..<7))
}

@Test func feeBandEdges() {
  #expect(FeeBand(isFree: true, feeMinKRW: 50_000) == .free)
  #expect(FeeBand(isFree: true, feeMinKRW: nil) == .free)
  #expect(FeeBand(isFree: false, feeMinKRW: nil) == .unknown)
  // A paid program whose lowest amount reads 0 stays out of `free` (see FeeBand docs).
  #expect(FeeBand(isFree: false, feeMinKRW: 0) == .upTo10000)
  #expect(FeeBand(isFree: false, feeMinKRW: 1) == .upTo10000)
  #expect(FeeBand(isFree: false, feeMinKRW: 10_000) == .upTo10000)
  #expect(FeeBand(isFree: false, feeMinKRW: 10_001) == .from10001To30000)
  #expect(FeeBand(isFree: false, feeMinKRW: 30_000) == .from10001To30000)
  #expect(FeeBand(isFree: false, feeMinKRW: 30_001) == .from30001To50000)
  #expect(FeeBand(isFree: false, feeMinKRW: 50_000) == .from30001To50000)
  #expect(FeeBand(isFree: false, feeMinKRW: 50_001) == .from50001To100000)
  #expect(FeeBand(isFree: false, feeMinKRW: 100_000) == .from50001To100000)
  #expect(FeeBand(isFree: false, feeMinKRW: 100_001) == .over100000)
}

@Test func durationBandEdges() {
  let expected: [(Int?, DurationBand)] = [
    (nil, .invalid), (0, .invalid), (-3, .invalid), (1, .oneDay), (2, .from2To7), (7, .from2To7),
    (8, .from8To30), (30, .from8To30), (31, .from31To90), (90, .from31To90), (91, .from91To365),
    (365, .from91To365), (366, .over365), (27_759, .over365),
  ]
  for (days, band) in expected {
    #expect(DurationBand(durationDays: days) == band, "\(String(describing: days))")
  }
}

@Test func durationBandOfAProgramUsesItsDates() {
  let program = Program(id: "cult:1", startDate: day("2024-09-01"), endDate: day("2024-09-07"))
  #expect(DurationBand(program) == .from2To7)
  let reversed = Program(id: "cult:2", startDate: day("2024-09-07"), endDate: day("2024-09-01"))
  #expect(DurationBand(reversed) == .invalid)
  #expect(DurationBand(Program(id: "cult:3", startDate: day("2024-09-07"))) == .invalid)
}
