import RaonAnalytics
import RaonCore
import RaonDocument

/// A page per group, for a catalog whose groups are bodies a reader looks up (the national
/// data's providers, 시·군·구 offices and others: ``FileWords/groupFolder``): its events of
/// the latest week with their state, where it is (its 시·도's page), and every event it
/// ever listed through the search. Seoul's categories have none: its pages name them as
/// text.
extension SitePages {
  /// The folder of the groups' pages, or `nil` when the catalog's groups have none.
  public var groupFolder: String? { profile.words.files.groupFolder }

  /// A group's page: `providers/경상북도 안동시.html`.
  public func groupPage(_ name: String) -> String? {
    groupFolder.map { SitePaths.area($0, SitePaths.fileName(name)) }
  }

  /// A group's name, linked to its page when it has one (escaped either way).
  func groupLink(from path: String, _ name: String) -> String {
    guard !name.isEmpty, let page = groupPage(name) else { return Self.esc(name) }
    return link(path, page, name)
  }

  /// The groups of a region's programs, each linked to its page with its count; nothing
  /// when the catalog's groups have no pages.
  func groupList(from path: String, _ programs: [Program]) -> String {
    guard groupFolder != nil, !programs.isEmpty else { return "" }
    let counts = Dictionary(programs.map { ($0.category, 1) }, uniquingKeysWith: +)
    var b = "<h2>\(Self.esc(L.category))</h2>\n<ul class=\"cols\">\n"
    for name in counts.keys.sorted() where !name.isEmpty {
      b += "<li>" + link(path, groupPage(name) ?? path, name) + " (\(Self.esc(L.siteCount(counts[name] ?? 0))))</li>\n"
    }
    return b + "</ul>\n"
  }

  /// Every group's page of the latest week's programs (as named that week), with its path in
  /// the site; none when the catalog's groups have no pages.
  ///
  /// A page lists the group's programs current in the latest week (running first), links
  /// its region's page and the search filtered on the group (which finds its programs of
  /// every week).
  public func groupPages(latest programs: [Program]) -> [(path: String, html: String)] {
    guard groupFolder != nil else { return [] }
    let byGroup = Dictionary(grouping: programs, by: \.category)
    return byGroup.keys.sorted().compactMap { name in
      guard !name.isEmpty, let path = groupPage(name), let listed = byGroup[name] else { return nil }
      return (path, groupPage(name, path: path, programs: listed))
    }
  }

  func groupPage(_ name: String, path: String, programs: [Program]) -> String {
    var b = "<h1>\(Self.esc(name))</h1>\n"
    // Its regions (a provider's 시·도, or those of the addresses of a national body).
    let regionNames = Set(programs.map(\.district))
    let pages = areas.filter { regionNames.contains($0.name) }
    if !pages.isEmpty {
      b += "<p>" + Self.esc(L.district) + ": "
        + pages.map { link(path, areaPage($0.id), $0.name) }.joined(separator: ", ") + "</p>\n"
    }
    if let latest = weeks.last {
      let listed = Self.weekPrograms(programs, week: latest.week, day: lastDay)
      b += "<h2>\(Self.esc(L.siteDistrictPrograms)) (\(L.siteCount(listed.count)))</h2>\n"
      let search = SitePaths.link(from: path, to: SitePaths.search) + "?c=" + SitePaths.queryValue(name)
      b += "<p class=\"muted\">\(Self.esc(weekLine(latest)))"
      b += ". <a href=\"\(search)\">\(Self.esc(L.siteDistrictAllPrograms))</a></p>\n"
      if !listed.isEmpty {
        let (state, place, period) = (Self.esc(L.siteState), Self.esc(L.place), Self.esc(L.period))
        b += "<div class=\"table-wrap\"><table class=\"programs stack\"><thead><tr><th>\(Self.esc(L.siteProgram))</th>"
        b += "<th>\(state)</th><th>\(place)</th><th>\(period)</th></tr></thead><tbody>\n"
        for (p, s) in listed {
          b += "<tr><td>" + link(path, SitePaths.program(p.id), p.title.isEmpty ? p.id : p.title) + "</td>"
          b += "<td class=\"state\" data-label=\"\(state)\">\(Self.esc(L.siteState(s)))</td>"
          b += "<td data-label=\"\(place)\">\(Self.esc(p.place))</td>"
          b += "<td class=\"period\" data-label=\"\(period)\">"
            + Self.esc(OfficialDates.programDates(p.startDate, p.endDate, language)) + "</td></tr>\n"
        }
        b += "</tbody></table></div>\n"
      }
    }
    return page(path, title: name, body: b)
  }
}
