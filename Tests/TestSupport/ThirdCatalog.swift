import Foundation
import RaonCore

/// A third catalog, built only for the tests: 부산 공연 정보, with its 권역 (zones), 장르
/// (genres) and 공연 (performances) — a few fields, its own regions and words (the tests
/// write its CSV downloads). It proves a catalog is a profile: nothing in the pipeline names
/// it, and it goes through snapshot, report, packs, diff, trend and site as the shipped
/// ones do (CatalogConformanceTests).
public enum ThirdCatalog {
  public static let profile: CatalogProfile = {
    var words = CatalogWords(
      region: CatalogWords.Noun("권역", "zone", plural: "zones"), regionCounter: "권역",
      group: CatalogWords.Noun("장르", "genre", plural: "genres"), groupCounter: "장르", groupPlaces: "개",
      item: CatalogWords.Noun("공연", "performance", plural: "performances"),
      catalog: CatalogWords.Phrase("부산시 공연", "Busan performances"),
      subject: CatalogWords.Phrase("공연", "performances"), fileStem: "부산시_공연_주간현황",
      whole: CatalogWords.Phrase("부산시", "Busan's"), wholeArea: CatalogWords.Phrase("부산시 전체", "All of Busan"),
      sourceLine: CatalogWords.Phrase("출처: 부산광역시 「부산 공연 정보」", "Source: Busan, “Busan performances”"),
      keywords: CatalogWords.Phrase("부산시, 공연", "Busan, performances"),
      registeredBy: CatalogWords.Phrase("접수일", "day of entry"), registeredOn: CatalogWords.Phrase("접수일", "Entered"),
      minorChanges: [CatalogWords.Phrase("좌표 50m 미만 이동", "coordinates moved under 50 m")],
      sessions: CatalogWords.Phrase("회차 수", "Sessions"), unknownRegion: "권역 미상",
      englishNames: [:],
      flags: [FlagWords.endBeforeStart, FlagWords.datesMissing],
      files: FileWords(
        region: "zone", group: "genre", jsonRegion: "Zone", jsonGroup: "Genre", jsonNamesCatalog: true,
        labelsChangedFields: false, packFolder: "zones", csv: CSVWords(programs: "performances.csv", headers: nil)),
      layout: CatalogWords.Layout(packNameOnOwnLine: false, changesPrintStartDate: false))
    words.columnTitles = [:]
    words.regionsOwner = "Busan's"
    var profile = CatalogProfile(
      name: CatalogProfile.Name("busan"), title: "부산 공연 정보", englishTitle: "Busan performances",
      fields: [
        CatalogField(.title, "공연명", "TITLE"), CatalogField(.place, "공연장", "HALL"),
        CatalogField(.district, "권역", "ZONE"), CatalogField(.category, "장르", "GENRE"),
        CatalogField(.feeText, "입장료", "FEE"), CatalogField(.startDate, "시작", "START"),
        CatalogField(.endDate, "끝", "END"),
      ],
      required: [.title, .district], expected: [.title, .district, .category],
      regions: RegionScheme(
        primaryLabel: "권역", primaryEnglishLabel: "Zone", secondaryLabel: "장르", secondaryEnglishLabel: "Genre",
        unknown: "권역 미상", names: ["동부", "서부", "중부"], prefixes: ["부산광역시", "부산"], lineage: nil),
      identity: .portalCode, normalisation: .perRecord,
      coordinates: CoordinateBounds(
        latitudes: 35.0...35.4, longitudes: 128.7...129.4, centre: (35.18, 129.07), outsideFlag: .coordsOutsideSeoul),
      api: CatalogProfile.seoul.api, sourceLine: "출처: 부산광역시", licence: "공공누리 제1유형")
    profile.words = words
    return profile
  }()
}
