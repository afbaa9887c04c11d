import RaonCore
import Testing

@testable import RaonAnalytics

@Test func flaggedProgramsAreListedByIdWithAllTheirFlags() {
  let listed = DataQuality.flagged(handCatalog.reversed(), with: .coordsMissing)
  #expect(listed.map(\.id) == ["p7", "p8"])
  #expect(listed.allSatisfy { $0.flagNames == ["coords_missing"] })

  let reversedDates = DataQuality.flagged(handCatalog, with: .districtMissing)
  #expect(reversedDates.map(\.id) == ["p4"])
  #expect(reversedDates.first?.flagNames == ["end_before_start", "district_missing"])
}

@Test func flaggedByContractName() {
  #expect(DataQuality.flagged(handCatalog, named: "end_before_start")?.map(\.id) == ["p4"])
  #expect(DataQuality.flagged(handCatalog, named: "free_but_priced") == [])
  #expect(DataQuality.flagged(handCatalog, named: "no_such_flag") == nil)
}
