import RaonCore
import Testing

@Suite struct CoordinateResolverTests {
  @Test func keepsCoordinatesGivenInLatitudeLongitudeOrder() {
    let r = CoordinateResolver.resolve("37.4802401962069", "127.014215239186", within: CatalogProfile.seoul.coordinates)
    #expect(r.latitude == 37.4802401962069)
    #expect(r.longitude == 127.014215239186)
    #expect(r.flags.isEmpty)
  }

  @Test func swapsCoordinatesGivenTheOtherWayRound() {
    let r = CoordinateResolver.resolve("126.9760053", "37.5726241", within: CatalogProfile.seoul.coordinates)
    #expect(r.latitude == 37.5726241)
    #expect(r.longitude == 126.9760053)
    #expect(r.flags.isEmpty)
  }

  @Test(arguments: [
    (nil, "127.0"), ("37.5", nil), ("", ""), ("0", "0"), ("37.5", "0"), ("0.0", "127.0"),
    ("abc", "127.0"), ("nan", "127.0"), ("inf", "37.5"), ("200000.5", "450000.25"),
  ] as [(String?, String?)])
  func reportsMissingOrUnreadableCoordinates(a: String?, b: String?) {
    let r = CoordinateResolver.resolve(a, b, within: CatalogProfile.seoul.coordinates)
    #expect(r.latitude == nil && r.longitude == nil)
    #expect(r.flags == .coordsMissing)
  }

  // The three rows of the 2024-09-09 sample that lie outside Seoul (Sejong, Gwangju).
  @Test(arguments: [
    ("36.4866171885619", "127.267380381461"),
    ("37.3502827778995", "127.334785538911"),
    ("36.4835539207437", "127.288787134449"),
  ])
  func keepsButFlagsCoordinatesOutsideSeoul(a: String, b: String) {
    let r = CoordinateResolver.resolve(a, b, within: CatalogProfile.seoul.coordinates)
    #expect(r.latitude.map { "\($0)" } == a)
    #expect(r.longitude.map { "\($0)" } == b)
    #expect(r.flags == .coordsOutsideSeoul)
  }

  @Test func decidesAmbiguousValuesByDistanceToSeoul() {
    // Neither value is in Korea's latitude or longitude band: the order closer to
    // (37.5, 127.0) wins, whichever column each came from.
    let r = CoordinateResolver.resolve("127.5", "40.0", within: CatalogProfile.seoul.coordinates)
    #expect(r.latitude == 40.0 && r.longitude == 127.5)
    #expect(r.flags == .coordsOutsideSeoul)
  }

  @Test func readsDegreesMinutesSeconds() throws {
    // The sample's one DMS row (무신사 스튜디오 한남): 37°32'05" N, 126°59'43" E.
    let r = CoordinateResolver.resolve("37°32'05.0'N", "126°59'43.0'E", within: CatalogProfile.seoul.coordinates)
    let lat = try #require(r.latitude)
    let lon = try #require(r.longitude)
    #expect(abs(lat - (37 + 32.0 / 60 + 5.0 / 3600)) < 1e-9)
    #expect(abs(lon - (126 + 59.0 / 60 + 43.0 / 3600)) < 1e-9)
    #expect(r.flags.isEmpty)
    #expect(CoordinateResolver.degrees("33°51′ 35″ S").map { $0 < 0 } == true)
    #expect(CoordinateResolver.degrees("37'32°") == nil)
  }

  @Test func acceptsSurroundingWhiteSpace() {
    let r = CoordinateResolver.resolve(" 37.5665 ", "\t126.9780\n", within: CatalogProfile.seoul.coordinates)
    #expect(r.latitude == 37.5665 && r.longitude == 126.978)
  }
}
