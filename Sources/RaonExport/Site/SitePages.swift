import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// A week of a site: its snapshot, its trend point and the files of its report folder.
public struct SiteWeek: Sendable, Hashable {
  public var week: ISOWeek
  public var snapshot: SnapshotInfo
  public var point: WeeklyTrendPoint?
  /// The regions with a pack this week, for a catalog whose regions follow a lineage (the
  /// national data's 시·도): lineage id → the name on the week's day (the name of its pack);
  /// empty for Seoul's, whose 25 districts each have a pack every week.
  public var regions: [String: String]
  public init(week: ISOWeek, snapshot: SnapshotInfo, point: WeeklyTrendPoint?, regions: [String: String] = [:]) {
    self.week = week
    self.snapshot = snapshot
    self.point = point
    self.regions = regions
  }
}

/// The pages of `raon site` (pure: values in, HTML out). Every catalog text is escaped;
/// links go inside the site (relative) or to the portal's program pages (``PortalLink``,
/// the reports' rule); pages load nothing (a
/// Content-Security-Policy says so); the only script is the search page's own.
public struct SitePages: Sendable {
  public var weeks: [SiteWeek]
  public var language: ReportLanguage
  /// The catalog: its words (서울시 전체 or 전국, 자치구 or 시·도, 분류 or 제공기관), its pages'
  /// folders, whether its groups have pages.
  public var profile: CatalogProfile
  /// The regions with a page, in the order pages list them: id and the name in the latest
  /// week (the name of its page).
  public var regions: [SiteRegion]
  /// Whether a week has packs only for the regions its ``SiteWeek/regions`` names (regions
  /// given by the job, following a lineage), rather than for every region.
  let regionsFollowWeeks: Bool
  var L: ReportLabels { ReportLabels(language, profile: profile) }

  /// - Parameter regions: The regions of any week, with their latest names; empty: the
  ///   profile's regions (Seoul's 25 districts), each with a pack every week.
  public init(
    weeks: [SiteWeek], language: ReportLanguage, profile: CatalogProfile = .seoul, regions: [SiteRegion] = []
  ) {
    self.weeks = weeks
    self.language = language
    self.profile = profile
    regionsFollowWeeks = !regions.isEmpty
    self.regions = regions.isEmpty ? profile.regions.names.map { SiteRegion(id: $0, name: $0) } : regions
  }

  static func esc(_ text: String) -> String { SVGBarChart.escape(text) }

  /// The policy of every page: nothing loaded, inline styles, and `script` (the search
  /// page's) when given.
  static func policy(script: String?) -> String {
    var p = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    if let script {
      var h = SHA256()
      h.update(script)
      p += "; script-src 'sha256-\(Data(h.finalize()).base64EncodedString())'"
    }
    return p
  }

  /// The `<meta>`s every page's head begins with (also put into the report's pages).
  static func headMeta(script: String? = nil) -> String {
    "<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy(script: script))\">\n"
      + "<link rel=\"icon\" href=\"data:,\">\n"
  }

  static let css = """
    nav.site { max-width: 60rem; margin: 0 auto; padding: .6rem 1rem 0; display: flex;
      flex-wrap: wrap; gap: .3rem .9rem; font-size: .9rem; }
    nav.site details { flex-basis: 100%; }
    nav.site ul { padding-left: 1.1rem; margin: .3rem 0; }
    ul.cols { columns: 12rem; padding-left: 1.1rem; }
    dl.fields { display: grid; grid-template-columns: minmax(6rem, max-content) 1fr; gap: .2rem .8rem; }
    dl.fields dt { color: var(--muted); }
    dl.fields dd { margin: 0; overflow-wrap: anywhere; }
    table.programs td.state, table.programs td.period { white-space: nowrap; }
    table.programs td.category { word-break: keep-all; }
    form.search { display: grid; gap: .5rem; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); }
    form.search label { display: flex; flex-direction: column; font-size: .85rem; gap: .15rem; }
    form.search input, form.search select { font: inherit; padding: .3rem; max-width: 100%;
      color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 4px; }
    form.search button { justify-self: start; align-self: end; font: inherit; padding: .3rem 1.2rem; }
    ol.results li { margin: .35rem 0; overflow-wrap: anywhere; }
    .muted { color: var(--muted); }
    td, dd, li { overflow-wrap: anywhere; }
    """

  /// A whole page at `path` in the site.
  func page(_ path: String, title: String, body: String, script: String? = nil) -> String {
    var html = "<!DOCTYPE html>\n<html lang=\"\(language.rawValue)\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += Self.headMeta(script: script)
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    html += "<meta name=\"color-scheme\" content=\"light dark\">\n"
    html += "<title>\(Self.esc(title)) — \(Self.esc(L.siteTitle))</title>\n"
    html += "<style>\n\(HTMLStyle.css)\n\(Self.css)\n</style>\n</head>\n<body>\n"
    html += siteNav(from: path)
    html += "<main>\n\(body)\n</main>\n"
    if let script { html += "<script>\(script)</script>\n" }
    html += "</body>\n</html>\n"
    return html
  }

  /// Home · trend · search, from any page.
  func siteNav(from path: String, extra: String = "") -> String {
    func a(_ to: String, _ text: String) -> String {
      "<a href=\"\(SitePaths.link(from: path, to: to))\">\(Self.esc(text))</a>"
    }
    return "<nav class=\"site\" aria-label=\"site\">" + a(SitePaths.index, L.siteHome)
      + a(SitePaths.trend, L.trend) + a(SitePaths.search, L.siteSearch) + extra + "</nav>\n"
  }

  func link(_ from: String, _ to: String, _ text: String) -> String {
    "<a href=\"\(SitePaths.link(from: from, to: to))\">\(Self.esc(text))</a>"
  }

  /// A week as people write it: `2025. 8. 18.(월) ~ 8. 24.(일)`.
  func weekLine(_ w: SiteWeek) -> String { OfficialDates.period(w.week.start, w.week.end, language) }

  /// D of the latest week: the day its snapshot was taken, in Korea.
  var lastDay: CalendarDay {
    weeks.last.map { $0.snapshot.koreaDay } ?? CalendarDay(koreaDateOf: Date(timeIntervalSince1970: 0))
  }

  /// Page 1 of a week's report — its summary: what stands between the report's title and
  /// its first attachment, the title as a heading of the page it is put in.
  public static func summary(ofReport html: String) -> String? {
    guard let main = html.firstRange(ofMarkup: "<main>"),
      let end = html[main.upperBound...].firstRange(ofMarkup: "<section id=\"s1\"")
    else { return nil }
    var part = String(html[main.upperBound..<end.lowerBound])
    if let nav = part.firstRange(ofMarkup: "<nav class=\"toc\">"),
      let navEnd = part[nav.upperBound...].firstRange(ofMarkup: "</nav>")
    {
      part.removeSubrange(nav.lowerBound..<navEnd.upperBound)
    }
    return part.replacing(markup: "<h1>", with: "<h2>").replacing(markup: "</h1>", with: "</h2>")
  }

  // MARK: - Index

  /// The home page: the latest week's summary (its report's page 1, when given), every
  /// week, the districts, the trend and the search.
  public func index(latestSummary: String? = nil) -> String {
    let path = SitePaths.index
    var b = "<h1>\(Self.esc(L.siteTitle))</h1>\n"
    if let latest = weeks.last {
      if let latestSummary {
        b += latestSummary
      } else {
        b += "<h2>\(Self.esc(L.siteLatestWeek)): \(Self.esc(weekLine(latest)))</h2>\n"
        if let p = latest.point { b += figures(p) }
      }
      b += "<p>" + link(path, SitePaths.weekReport(latest.week), L.siteFullReport) + "</p>\n"
    }
    b += searchForm(from: path, compact: true)
    b += "<h2>\(Self.esc(L.siteWeeks))</h2>\n<ul>\n"
    for w in weeks.reversed() {
      b += "<li>" + link(path, SitePaths.weekReport(w.week), weekLine(w)) + "</li>\n"
    }
    b += "</ul>\n<h2>\(Self.esc(L.siteDistricts))</h2>\n<ul class=\"cols\">\n"
    for a in areas { b += "<li>" + link(path, areaPage(a.id), a.name) + "</li>\n" }
    b += "</ul>\n<h2>\(Self.esc(L.trend))</h2>\n<p>" + link(path, SitePaths.trend, L.trend) + "</p>\n"
    b += "<hr>\n<p class=\"muted\">\(Self.esc(L.attribution))</p>\n"
    return page(path, title: L.siteHome, body: b)
  }

  /// The week's headline figures as a table.
  func figures(_ p: WeeklyTrendPoint) -> String {
    var rows: [(String, String)] = [
      (L.currentPrograms, p.current.formatted()), (L.runningThisWeek, p.running.formatted()),
      (L.startingThisWeek, p.starting.formatted()), (L.registeredThisWeek, p.registered.formatted()),
      (L.programCount, p.programCount.formatted()),
    ]
    if let a = p.added { rows.append((L.added, a.formatted())) }
    if let r = p.removed { rows.append((L.removed, r.formatted())) }
    var t = "<div class=\"table-wrap\"><table><tbody>\n"
    for (k, v) in rows { t += "<tr><th scope=\"row\">\(Self.esc(k))</th><td align=\"right\">\(v)</td></tr>\n" }
    return t + "</tbody></table></div>\n"
  }

  // MARK: - Week pages (the report's, with the site's navigation put in)

  /// The report page of a week with the site's navigation and policy put in. `page` is
  /// the report page's path in the site; `district` its district, or a 시·도's lineage id
  /// (``SitePages+Areas``; nil for the city or the country);
  /// `files` the report folder's files (relative to the folder of `page`); `programs`
  /// the district's programs of the week (linked to their pages).
  public func weekPage(
    report html: String, week index: Int, district: String?, files: [String], programs: [Program]
  ) -> String {
    let w = weeks[index]
    let path = weekReport(index, area: district) ?? SitePaths.weekReport(w.week)
    var extra = weekSwitch(index, district: district)
    if let district {
      let name = w.regions[district] ?? areaName(district)
      extra += link(path, SitePaths.weekReport(w.week), L.siteCity)
      extra += link(path, areaPage(district), "\(name) · \(L.siteDistrictWeeks)")
    } else {
      extra += "<details><summary>\(Self.esc(L.siteDistricts))</summary><ul class=\"cols\">"
      for a in areas(inWeek: index) {
        extra += "<li>" + link(path, weekReport(index, area: a.id) ?? path, a.name) + "</li>"
      }
      extra += "</ul></details>"
    }
    let folder = (path as NSString).deletingLastPathComponent
    let downloads = files.filter { $0 != "report.html" && !$0.hasPrefix(areaFolder + "/") }
    if !downloads.isEmpty {
      extra += "<details><summary>\(Self.esc(L.siteDownloads))</summary><ul>"
      for f in downloads { extra += "<li>" + link(path, "\(folder)/\(f)", f) + "</li>" }
      extra += "</ul></details>"
    }
    if district != nil, !programs.isEmpty {
      extra += "<details><summary>\(Self.esc(L.siteWeekPrograms)) (\(programs.count.formatted()))</summary><ul>"
      for p in programs { extra += "<li>" + link(path, SitePaths.program(p.id), p.title.isEmpty ? p.id : p.title) + "</li>" }
      extra += "</ul></details>"
    }
    var out = html
    if let head = out.firstRange(ofMarkup: "<meta charset=\"utf-8\">\n") {
      out.insert(contentsOf: Self.headMeta(), at: head.upperBound)
    }
    if let style = out.firstRange(ofMarkup: "</style>") { out.insert(contentsOf: "\n" + Self.css + "\n", at: style.lowerBound) }
    if let body = out.firstRange(ofMarkup: "<body>\n") {
      out.insert(contentsOf: siteNav(from: path, extra: extra), at: body.upperBound)
    }
    return out
  }

  /// The previous and next week's same page, between markers so that a later build can
  /// put in a new next week without rendering the report again (``relinkWeekSwitch``).
  func weekSwitch(_ index: Int, district: String?) -> String {
    let path = weekReport(index, area: district) ?? SitePaths.weekReport(weeks[index].week)
    var s = Self.switchStart
    // A 시·도 with no event in the week before or after has no page there: no link.
    if index > 0, let previous = weekReport(index - 1, area: district) { s += link(path, previous, L.sitePrevious) }
    if index + 1 < weeks.count, let next = weekReport(index + 1, area: district) {
      s += link(path, next, L.siteNext)
    }
    return s + Self.switchEnd
  }

  static let switchStart = "<!--raon-week-switch-->"
  static let switchEnd = "<!--/raon-week-switch-->"

  /// A week page written by an earlier build, with this build's previous/next links.
  public func relinkWeekSwitch(_ html: String, week index: Int, district: String?) -> String {
    guard let a = html.firstRange(ofMarkup: Self.switchStart), let b = html.firstRange(ofMarkup: Self.switchEnd),
      a.upperBound <= b.lowerBound
    else { return html }
    return html.replacingCharacters(in: a.lowerBound..<b.upperBound, with: weekSwitch(index, district: district))
  }

  // MARK: - Districts and trend

  /// A district's page: its programs of the latest week (those current in it, with their
  /// period and state), its week pages, its trend. `programs` is the district's programs in
  /// the latest week's catalog; what ended before that week is left to the search page
  /// (linked, filtered on the district), as the catalog keeps programs long after they end.
  ///
  /// For the national data, `id` is a 시·도's lineage id; its page is named, and lists its
  /// events, as in the latest week, and links each week's pack under that week's name.
  public func district(_ id: String, trend: [WeeklyTrendPoint], programs: [Program]) -> String {
    let name = areaName(id)
    let path = areaPage(id)
    var b = "<h1>\(Self.esc(name))</h1>\n"
    if let latest = weeks.last {
      let listed = Self.weekPrograms(programs, week: latest.week, day: lastDay)
      b += "<h2>\(Self.esc(L.siteDistrictPrograms)) (\(L.siteCount(listed.count)))</h2>\n"
      var counts: [String] = []
      for state in ProgramHistory.State.allCases {
        let n = listed.filter { $0.state == state }.count
        if n > 0 { counts.append("\(L.siteState(state)) \(L.siteCount(n))") }
      }
      let search = SitePaths.link(from: path, to: SitePaths.search) + "?d=" + SitePaths.queryValue(name)
      b += "<p class=\"muted\">\(Self.esc(weekLine(latest)))"
      if !counts.isEmpty { b += " · " + Self.esc(counts.joined(separator: ", ")) }
      b += ". <a href=\"\(search)\">\(Self.esc(L.siteDistrictAllPrograms))</a></p>\n"
      if !listed.isEmpty {
        // A card per program on a phone (the report's `table.stack`), a table on a desktop.
        let (state, category, period) = (Self.esc(L.siteState), Self.esc(L.siteCategory), Self.esc(L.period))
        b += "<div class=\"table-wrap\"><table class=\"programs stack\"><thead><tr><th>\(Self.esc(L.siteProgram))</th>"
        b += "<th>\(state)</th><th>\(category)</th><th>\(period)</th></tr></thead><tbody>\n"
        for (p, s) in listed {
          b += "<tr><td>" + link(path, SitePaths.program(p.id), p.title.isEmpty ? p.id : p.title) + "</td>"
          b += "<td class=\"state\" data-label=\"\(state)\">\(Self.esc(L.siteState(s)))</td>"
          b += "<td class=\"category\" data-label=\"\(category)\">\(groupLink(from: path, p.category))</td>"
          b += "<td class=\"period\" data-label=\"\(period)\">"
            + Self.esc(OfficialDates.programDates(p.startDate, p.endDate, language)) + "</td></tr>\n"
        }
        b += "</tbody></table></div>\n"
      }
    }
    b += groupList(from: path, programs)
    b += "<h2>\(Self.esc(L.siteDistrictWeeks))</h2>\n<ul>\n"
    for i in weeks.indices.reversed() {
      guard let report = weekReport(i, area: id) else { continue }
      b += "<li>" + link(path, report, weekLine(weeks[i])) + "</li>\n"
    }
    b += "</ul>\n<h2>\(Self.esc(L.trend))</h2>\n"
    let table = TrendComposer.table(trend, labels: L)
    HTMLRenderer.append(columns: table.columns, rows: table.rows, to: &b)
    return page(path, title: name, body: b)
  }

  /// The programs of a week's catalog that are current in it (``WeekView/isCurrent``:
  /// running, upcoming, or ended within the week), each with its state on `day`: running
  /// first, then upcoming, then ended; each group by start day, title and id.
  public static func weekPrograms(_ programs: [Program], week: ISOWeek, day: CalendarDay)
    -> [(program: Program, state: ProgramHistory.State)]
  {
    let order = Dictionary(uniqueKeysWithValues: ProgramHistory.State.allCases.enumerated().map { ($1, $0) })
    return programs.filter { WeekView.isCurrent($0, week: week) }
      .map { ($0, ProgramHistory.state(of: $0, on: day)) }
      .sorted {
        let a = (order[$0.1] ?? 0, $0.0.startDate?.dayNumber ?? Int.max, $0.0.title, $0.0.id)
        let b = (order[$1.1] ?? 0, $1.0.startDate?.dayNumber ?? Int.max, $1.0.title, $1.0.id)
        return a < b
      }
  }

  /// The trend page: the city's chart and table, then a link to each district's.
  public func trend(city: [WeeklyTrendPoint]) -> String {
    let path = SitePaths.trend
    var body = ""
    var options = DocumentOptions(language: language)
    options.profile = profile
    HTMLRenderer(layout: .fragment).append(ReportDocument.trend(city, options: options).document, to: &body)
    body += "<h2>\(Self.esc(L.siteTrendByDistrict))</h2>\n<ul class=\"cols\">\n"
    for a in areas { body += "<li>" + link(path, areaPage(a.id), a.name) + "</li>\n" }
    body += "</ul>\n"
    return page(path, title: L.trend, body: body)
  }

  // MARK: - Programs

  public func program(_ h: ProgramHistory) -> String {
    let path = SitePaths.program(h.id)
    let p = h.latest
    let last = weeks.count - 1
    let day = weeks.last.map { $0.snapshot.koreaDay } ?? CalendarDay(koreaDateOf: Date(timeIntervalSince1970: 0))
    let state = h.state(lastWeek: last, day: day)
    var b = "<h1>\(Self.esc(p.title.isEmpty ? p.id : p.title))</h1>\n"
    if h.isListed(lastWeek: last) {
      b += "<h2>\(Self.esc(L.siteProgramFields))</h2>\n"
    } else {
      // Gone from the catalog: what is shown is what it said when last seen.
      b += "<h2>\(Self.esc(L.siteProgramLastFields))</h2>\n"
      if let week = h.presence.last?.upperBound, weeks.indices.contains(week) {
        b += "<p class=\"muted\">" + Self.esc(L.siteLastSeen) + ": "
          + link(path, SitePaths.weekReport(weeks[week].week), weekLine(weeks[week])) + "</p>\n"
      }
    }
    b += "<dl class=\"fields\">\n"
    func row(_ k: String, _ v: String, raw: Bool = false) {
      guard !v.isEmpty else { return }
      b += "<dt>\(Self.esc(k))</dt><dd>\(raw ? v : Self.esc(v))</dd>\n"
    }
    row("ID", p.id)
    row(L.siteState, L.siteState(state))
    row(L.siteCategory, groupLink(from: path, p.category), raw: true)
    row(
      L.siteDistrict,
      areas.first { $0.name == p.district }.map { link(path, areaPage($0.id), p.district) } ?? Self.esc(p.district),
      raw: true)
    row(L.place, p.place)
    row(L.siteOrganizer, p.organizer)
    row(L.period, p.startDate == nil && p.endDate == nil ? "" : OfficialDates.programDates(p.startDate, p.endDate, language))
    row(L.fee, p.feeText)
    row(L.siteRegistered, p.registeredOn.map { OfficialDates.day($0, language) } ?? "")
    if h.firstWeek < weeks.count {
      let w = weeks[h.firstWeek]
      row(L.siteFirstSeen, link(path, SitePaths.weekReport(w.week), weekLine(w)), raw: true)
    }
    // Only the portal's pages are linked (one rule with the reports); another address is
    // not shown, as report.html shows such a title without its link.
    if PortalLink.isProgramPage(p.portalURL) {
      let url = Self.esc(p.portalURL)
      row(L.sitePortal, "<a href=\"\(url)\" rel=\"noopener noreferrer\">\(url)</a>", raw: true)
    }
    b += "</dl>\n<h2>\(Self.esc(L.siteProgramStory))</h2>\n<ol>\n"
    for e in h.events where e.week < weeks.count {
      let w = weeks[e.week]
      b += "<li>" + link(path, SitePaths.weekReport(w.week), weekLine(w)) + " — "
      switch e {
      case .appeared: b += Self.esc(L.siteAppeared)
      case .left(_, let removal): b += "<strong>\(Self.esc(L.siteLeft)): \(Self.esc(L.siteRemoval(removal)))</strong>"
      case .changed(_, let fields):
        b += Self.esc(L.siteChanged)
        b += "<div class=\"table-wrap\"><table><thead><tr><th>\(Self.esc(L.siteField))</th><th>\(Self.esc(L.siteBefore))</th><th>\(Self.esc(L.siteAfter))</th></tr></thead><tbody>"
        for f in fields {
          b += "<tr><td>\(Self.esc(L.fieldName(f.field)))</td><td>\(Self.esc(L.fieldValue(f.field, f.old)))</td><td>\(Self.esc(L.fieldValue(f.field, f.new)))</td></tr>"
        }
        b += "</tbody></table></div>"
      }
      b += "</li>\n"
    }
    b += "</ol>\n"
    return page(path, title: p.title.isEmpty ? p.id : p.title, body: b)
  }
}
