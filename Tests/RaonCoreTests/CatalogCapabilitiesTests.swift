import RaonCore
import TestSupport
import Testing

/// What the pipeline asks a profile (CatalogProfile+Pipeline.swift), for each catalog: the
/// answers follow from the profile's own parts (its normalisation, its lineage, its
/// regions, its words), so a catalog Raon does not ship answers too.
@Suite("A catalog's capabilities")
struct CatalogCapabilitiesTests {
  static let third = ThirdCatalog.profile

  @Test func eachCatalogSaysHowItCountsAndPacks() {
    #expect(!CatalogProfile.seoul.countsEvents && CatalogProfile.national.countsEvents && !Self.third.countsEvents)
    #expect(!CatalogProfile.seoul.tracesLineage && CatalogProfile.national.tracesLineage && !Self.third.tracesLineage)
    #expect(CatalogProfile.seoul.fixedRegions == District.all)
    #expect(CatalogProfile.national.fixedRegions == nil)
    #expect(Self.third.fixedRegions == ["동부", "서부", "중부"])
    #expect(CatalogProfile.seoul.configSection == nil && CatalogProfile.national.configSection == "national")
    #expect(CatalogProfile.seoul.bundledSample != nil && CatalogProfile.national.bundledSample == nil)
  }

  @Test func aRegionIsNamedByItsOwnCatalogOnly() {
    #expect(CatalogProfile.seoul.region(named: "Jongno-gu") == "종로구")
    #expect(CatalogProfile.seoul.region(named: "jung") == "중구")
    #expect(CatalogProfile.seoul.region(named: "동부") == nil)
    #expect(Self.third.region(named: "동부") == "동부")
    // Decomposed jamo (NFD) find the composed name.
    #expect(Self.third.region(named: "동부".decomposedStringWithCanonicalMapping) == "동부")
    #expect(Self.third.region(named: "종로구") == nil)
    #expect(Self.third.region(named: "") == nil)
  }

  @Test func aSourcesSpellingIsReadByTheCatalogsRegions() {
    let zones = Self.third.regions
    #expect(zones.canonical("동부") == "동부")
    #expect(zones.canonical(" 부산광역시 서부 ") == "서부")
    // Without its one-syllable unit, as Seoul's `강남` is 강남구.
    #expect(zones.canonical("중") == "중부")
    #expect(zones.canonical("강남구") == nil)
    let seoul = CatalogProfile.seoul.regions
    #expect(seoul.canonical("서울특별시 강남구") == "강남구")
    #expect(seoul.canonical("강남") == "강남구")
    #expect(seoul.canonical("중") == "중구")
    #expect(seoul.canonical("동부") == nil)
  }

  @Test func aRecordIsNormalisedIntoItsCatalogsRegions() {
    let record = RawRecord(["공연명": "춤", "권역": "부산 서부", "장르": "무용", "시작": "2025-03-01", "끝": "2025-03-09"])
    let program = ProgramNormalizer.normalize(record.relabelled(Self.third), profile: Self.third)
    #expect(program.district == "서부")
    #expect(!program.qualityFlags.contains(.districtMissing))
    let elsewhere = ProgramNormalizer.normalize(RawRecord(["공연명": "춤", "권역": "종로구"]).relabelled(Self.third), profile: Self.third)
    #expect(elsewhere.district == "권역 미상" && elsewhere.qualityFlags.contains(.districtMissing))
  }

  @Test func aCatalogsOwnLabelsNameItsColumns() {
    let names = FieldNames(["공연명", "권역", "끝", "비고"], aliases: Self.third.headerAliases)
    #expect(names.index(of: .title) == 0 && names.index(of: .district) == 1 && names.index(of: .endDate) == 2)
    #expect(FieldNames(["공연명", "권역"]).fields.isEmpty)
  }
}

extension RawRecord {
  /// The record with its columns read by `profile`'s own labels.
  fileprivate func relabelled(_ profile: CatalogProfile) -> RawRecord {
    RawRecord(names: FieldNames(names.names, aliases: profile.headerAliases), values: values, location: location)
  }
}
