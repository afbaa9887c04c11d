import RaonCore

/// A 시·도 of the national data's site: its lineage id (the same through a rename, so
/// 강원도's weeks and 강원특별자치도's are one page's) and its name in the site's latest week.
public struct SiteRegion: Sendable, Hashable {
  public var id: String
  public var name: String
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// The site's areas — Seoul's 25 districts, or the national data's 시·도 — and where their
/// pages are. An area is known by an id: a district's name (Seoul's never change), a 시·도's
/// lineage id (its name in a week is the one of that week's day, ``SiteWeek/regions``).
extension SitePages {
  var isNational: Bool { catalog == .national }

  /// Every area with a page, in the order pages list them: id and name.
  public var areas: [(id: String, name: String)] {
    isNational ? regions.map { ($0.id, $0.name) } : District.all.map { ($0, $0) }
  }

  /// The areas with a report in week `index`: id and the name the week's report gives it.
  public func areas(inWeek index: Int) -> [(id: String, name: String)] {
    guard isNational else { return areas }
    return regions.compactMap { r in weeks[index].regions[r.id].map { (r.id, $0) } }
  }

  /// The area's name in the latest week (its page's name).
  func areaName(_ id: String) -> String {
    isNational ? regions.first { $0.id == id }?.name ?? id : id
  }

  /// The area's own page: `districts/강남구.html`, `regions/강원특별자치도.html`.
  public func areaPage(_ id: String) -> String {
    isNational ? SitePaths.region(areaName(id)) : SitePaths.district(id)
  }

  /// The report of week `index`: the whole catalog's, or an area's pack; `nil` when the area
  /// has no pack that week (a 시·도 with no event).
  func weekReport(_ index: Int, area id: String?) -> String? {
    let week = weeks[index].week
    guard let id else { return SitePaths.weekReport(week) }
    guard isNational else { return SitePaths.weekReport(week, district: id) }
    return weeks[index].regions[id].map { SitePaths.weekReport(week, region: $0) }
  }
}
