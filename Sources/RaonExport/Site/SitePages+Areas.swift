import RaonCore

/// A region of a site: its id (for a catalog with a lineage, the lineage id, the same
/// through a rename, so 강원도's weeks and 강원특별자치도's are one page's) and its name in
/// the site's latest week.
public struct SiteRegion: Sendable, Hashable {
  public var id: String
  public var name: String
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// The site's areas — the catalog's regions (Seoul's 25 districts, the national data's
/// 시·도) — and where their pages are. An area is known by an id: a region's name where
/// names never change (Seoul's), else its lineage id, its name in a week being the one of
/// that week's day (``SiteWeek/regions``).
extension SitePages {
  /// Every area with a page, in the order pages list them: id and name.
  public var areas: [(id: String, name: String)] { regions.map { ($0.id, $0.name) } }

  /// The areas with a report in week `index`: id and the name the week's report gives it.
  /// Where regions follow the weeks (the job names each week's), only that week's.
  public func areas(inWeek index: Int) -> [(id: String, name: String)] {
    guard regionsFollowWeeks else { return areas }
    return regions.compactMap { r in weeks[index].regions[r.id].map { (r.id, $0) } }
  }

  /// The area's name in the latest week (its page's name).
  func areaName(_ id: String) -> String {
    regions.first { $0.id == id }?.name ?? id
  }

  /// The area's name in week `index`, or `nil` when it has no pack that week.
  func areaName(_ id: String, inWeek index: Int) -> String? {
    regionsFollowWeeks ? weeks[index].regions[id] : id
  }

  /// The folder of the areas' pages and of a week's packs: `districts`, `regions`.
  public var areaFolder: String { profile.words.files.packFolder }

  /// The area's own page: `districts/강남구.html`, `regions/강원특별자치도.html`.
  public func areaPage(_ id: String) -> String { SitePaths.area(areaFolder, areaName(id)) }

  /// The report of week `index`: the whole catalog's, or an area's pack; `nil` when the area
  /// has no pack that week (a 시·도 with no event).
  func weekReport(_ index: Int, area id: String?) -> String? {
    let week = weeks[index].week
    guard let id else { return SitePaths.weekReport(week) }
    return areaName(id, inWeek: index).map { SitePaths.weekReport(week, pack: $0, in: areaFolder) }
  }
}
