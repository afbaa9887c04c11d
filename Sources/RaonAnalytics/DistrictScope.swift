import RaonCore

/// Where one district stands in the city, for its own pack: "running this week: 12 — 19th
/// of 25, 1.9% of the city".
public struct DistrictScope: Sendable, Hashable {
  /// One of the 25 자치구.
  public var name: String
  /// 1-based rank among the 25 by programs running this week (ties share a rank).
  public var runningRank: Int
  /// Rank among the 25 by current programs.
  public var currentRank: Int
  /// The district's running / the city's running (0 when the city has none).
  public var runningShare: Double
  public var currentShare: Double
  /// How many districts are ranked (25).
  public var districtCount: Int
  /// Ranked among providers, not places (a national pack of one provider, `--region
  /// "경상북도 안동시"`): page 1 says 제공기관 N곳 중, not N개 시·도 중.
  public var amongProviders = false

  /// A district's place in the city's week: ranks count the districts with strictly more
  /// programs (ties share the better rank); districts with none count as 0.
  ///
  /// - Parameters:
  ///   - district: One of `districts`.
  ///   - city: The city's week.
  ///   - districts: The districts ranked (the 25 자치구; 미상 is not one).
  public static func of(_ district: String, in city: WeekView, among districts: [String]) -> DistrictScope {
    func counts(_ rows: [BandCount]) -> [String: Int] {
      Dictionary(rows.map { ($0.key, $0.count) }, uniquingKeysWith: +)
    }
    let running = counts(city.runningByDistrict), current = counts(city.currentByDistrict)
    func rank(_ table: [String: Int]) -> Int {
      let mine = table[district] ?? 0
      return 1 + districts.filter { (table[$0] ?? 0) > mine }.count
    }
    func share(_ table: [String: Int], _ total: Int) -> Double {
      total > 0 ? Double(table[district] ?? 0) / Double(total) : 0
    }
    return DistrictScope(
      name: district, runningRank: rank(running), currentRank: rank(current),
      runningShare: share(running, city.running), currentShare: share(current, city.current),
      districtCount: districts.count)
  }
}
