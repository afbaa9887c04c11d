import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore

/// `raon site`: the whole history as a static site (``SitePages``): an index, each week's
/// report for the city and the 25 districts with its downloads, a page per district, the
/// trend, a page per program that ever appeared and the search page. On a national store,
/// the same in events with a page per 시·도 (SiteJob+National.swift).
///
/// Each week is the latest snapshot taken within its ISO week (as the trend's points),
/// compared with the week before. The site is staged beside its folder and swapped in at
/// the end (``OutputPublisher``): published whole or not at all.
///
/// Incremental: the site keeps a manifest (``SiteManifest``): per week what its report was
/// made from and each file's size and SHA-256, per program its page's. A week whose inputs
/// are unchanged, and a program page whose bytes are unchanged, are hard-linked from the
/// site in place instead of being written again — each file only when it still is the
/// regular file recorded (else the week or page is written again); only the previous/next
/// links of an earlier week's pages are put in anew. The index, trend, district and search
/// pages are always written.
public struct SiteJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment
  /// The store's catalog: the national data's site counts events and has a page per 시·도
  /// (SiteJob+National.swift).
  public var profile: CatalogProfile = .seoul

  public static let defaultOut = "site"

  /// Changes whenever the pages of a week would come out differently from the same
  /// inputs: an earlier site's weeks are then rendered again.
  static let generator = "raon-site-3"

  public init(store: any SnapshotStoring, storePath: String, environment: RaonEnvironment) {
    self.store = store
    self.storePath = storePath
    self.environment = environment
  }

  public struct Request: Sendable {
    public var out: String?
    /// Only the last N weeks with a snapshot; `nil` for all.
    public var weeks: Int?
    /// The week reports' formats (the registry's `always` ones, html, are written whatever
    /// is asked: it is the week's page).
    public var formats: [ReportFormat] = FormatRegistry.standard.defaults(for: .site)
    public var options = ExportOptions()
    public init() {}
  }

  public struct Outcome: Sendable {
    public var directory: URL
    public var weeks: [ISOWeek]
    public var programs: Int
    /// Weeks whose reports were rendered (the others came from the earlier site).
    public var renderedWeeks: [ISOWeek]
    /// Program pages written (the others came from the earlier site).
    public var writtenPrograms: Int
    public var warnings: [String]
    /// What the pages are about: `programs` (Seoul's), `events` (the national data's).
    public var counted = "programs"

    public var summary: String {
      let range = weeks.first.map { "\($0) … \(weeks.last ?? $0)" } ?? "no weeks"
      return
        "site \(range): \(weeks.count) week\(weeks.count == 1 ? "" : "s"), \(programs.formatted()) \(counted) — rendered \(renderedWeeks.count) week\(renderedWeeks.count == 1 ? "" : "s") and \(writtenPrograms.formatted()) program page\(writtenPrograms == 1 ? "" : "s")"
    }
  }

  public func run(_ request: Request) throws -> Outcome {
    var request = request
    // The week reports speak of the store's catalog (the national data's words and keys).
    request.options.profile = profile
    let snapshots = try store.snapshots()
    guard !snapshots.isEmpty else { throw WorkflowError.noSnapshots(store: storePath) }
    let all = WeeklyTrend.choosePoints(snapshots, weeks: Int.max)
    let chosen = Array(all.suffix(request.weeks ?? Int.max))
    guard let latest = chosen.last else { throw WorkflowError.noSnapshots(store: storePath) }
    var formats = request.formats
    for format in FormatRegistry.standard.formats(for: .site, [.always]).reversed() where !formats.contains(format) {
      formats.insert(format, at: 0)
    }

    let target = environment.url(forPath: request.out ?? Self.defaultOut)
    let earlier = SiteManifest.read(from: target)
    // What the earlier site holds is checked inside its folders too (SiteFolderShape).
    return try OutputPublisher.publish(target, entries: FolderShape([]).adding(SitePaths.entries), reportShaped: false) {
      try build(
        chosen: chosen, all: all, snapshots: snapshots, latest: latest, formats: formats,
        request: request, earlier: earlier, target: target, into: $0.folder)
    }
  }

  // MARK: - Steps

  func build(
    chosen: [SnapshotInfo], all: [SnapshotInfo], snapshots: [SnapshotInfo], latest: SnapshotInfo,
    formats: [ReportFormat], request: Request, earlier: SiteManifest?, target: URL, into folder: URL
  ) throws -> Outcome {
    let language = request.options.language
    var report = ReportJob(store: store, storePath: storePath, environment: environment)
    report.profile = profile
    // Its weeks and pages follow the stored keys and names (docs/NATIONAL.md, "Across weeks").
    report.reading.checksLineage = false
    environment.progress("site: counting the trend of \(chosen.count) weeks …")
    let trend = try report.trend(
      ReportSelection(
        snapshot: latest, compareTo: nil, week: SnapshotSelection.defaultWeek(for: latest),
        snapshots: snapshots, trendWeeks: request.weeks ?? Int.max),
      districts: everyPack)
    let pointByID = Dictionary(trend.city.map { ($0.snapshotId, $0) }, uniquingKeysWith: { a, _ in a })
    let regions = try profile.fixedRegions == nil ? regionsByWeek(chosen) : chosen.map { _ in [:] }
    let weeks = chosen.enumerated().map { i, info in
      SiteWeek(
        week: SnapshotSelection.defaultWeek(for: info), snapshot: info, point: pointByID[info.id], regions: regions[i])
    }
    let pages = SitePages(
      weeks: weeks, language: language, profile: profile,
      regions: profile.fixedRegions == nil ? siteRegions(regions, on: latest.koreaDay) : [])

    let (histories, latestPrograms) = try follow(chosen)

    let generator = generatorName
    var manifest = SiteManifest(generator: generator, language: language.rawValue)
    var rendered: [ISOWeek] = []
    var warnings: [String] = []
    let old = earlier.flatMap { $0.generator == generator && $0.language == language.rawValue ? $0 : nil }
    for (i, info) in chosen.enumerated() {
      let week = weeks[i].week
      let previous = all.firstIndex(of: info).flatMap { $0 > 0 ? all[$0 - 1] : nil }
      let trendIDs = WeeklyTrend.choosePoints(
        snapshots.filter { $0.takenAt <= info.takenAt }, weeks: WeeklyTrend.defaultWeeks
      ).map { String($0.id) }
      let key = ([String(info.id), previous.map { String($0.id) } ?? "-"] + trendIDs
        + formats.map(\.rawValue)).joined(separator: " ")
      let weekFolder = folder.appendingPathComponent(SitePaths.weekFolder(week))
      let earlierFolder = target.appendingPathComponent(SitePaths.weekFolder(week))
      if let entry = old?.weeks[week.description], entry.key == key,
        try reuseWeek(entry.files, from: earlierFolder, into: weekFolder)
      {
        let files = try relink(weekFolder, pages: pages, index: i, files: entry.files)
        manifest.weeks[week.description] = SiteManifest.Week(key: key, files: files)
        continue
      }
      environment.progress("site: writing the week \(week) (snapshot \(info.id)) …")
      let warned: [String]
      do {
        warned = try writeWeek(
          report, info: info, previous: previous, week: week, snapshots: snapshots, formats: formats,
          options: request.options, into: weekFolder, pages: pages, index: i)
      } catch let error where (error as? WorkflowError) != .interrupted {
        throw SiteWeekError(week: week, snapshot: info.id, site: target.path, error: error)
      }
      warnings += warned
      manifest.weeks[week.description] = SiteManifest.Week(key: key, files: try Self.record(weekFolder))
      rendered.append(week)
    }

    environment.progress("site: writing \(histories.count.formatted()) program pages …")
    let written = try writePrograms(
      histories, pages: pages, earlier: old?.programs ?? [:],
      from: target.appendingPathComponent(SitePaths.programs),
      into: folder.appendingPathComponent(SitePaths.programs), manifest: &manifest)

    let byDistrict = Dictionary(grouping: latestPrograms, by: \.district)
    try SiteFiles.makeDirectory(folder.appendingPathComponent(profile.words.files.packFolder))
    for (id, name) in pages.areas {
      let html = pages.district(id, trend: trend.byDistrict[name] ?? [], programs: byDistrict[name] ?? [])
      try SiteFiles.write(html, to: folder.appendingPathComponent(pages.areaPage(id)))
    }
    // A page per provider where the catalog's groups have pages (SitePages+Groups).
    if let groups = pages.groupFolder { try SiteFiles.makeDirectory(folder.appendingPathComponent(groups)) }
    for group in pages.groupPages(latest: latestPrograms) {
      try SiteFiles.write(group.html, to: folder.appendingPathComponent(group.path))
    }
    // The home page leads with the latest week's summary: its city report's page 1.
    let latestReport = weeks.last.flatMap {
      try? SiteFiles.read(folder.appendingPathComponent(SitePaths.weekFolder($0.week)).appendingPathComponent("report.html"))
    }
    try SiteFiles.write(
      pages.index(latestSummary: latestReport.flatMap(SitePages.summary(ofReport:))),
      to: folder.appendingPathComponent(SitePaths.index))
    try SiteFiles.write(pages.trend(city: trend.city), to: folder.appendingPathComponent(SitePaths.trend))
    try SiteFiles.write(pages.search(histories), to: folder.appendingPathComponent(SitePaths.search))
    try SiteFiles.write(try manifest.encoded(), to: folder.appendingPathComponent(SitePaths.manifest))
    var outcome = Outcome(
      directory: target, weeks: weeks.map(\.week), programs: histories.count, renderedWeeks: rendered,
      writtenPrograms: written, warnings: warnings)
    if profile.countsEvents { outcome.counted = "events" }
    return outcome
  }

  /// Every program's story through the chosen weeks, built from the differences between
  /// consecutive weeks, and the latest week's programs.
  func follow(_ chosen: [SnapshotInfo]) throws -> (histories: [ProgramHistory], latest: [Program]) {
    environment.progress("site: following every program through \(chosen.count) weeks …")
    var builder = ProgramHistory.Builder()
    var latest: [Program] = []
    for (i, info) in chosen.enumerated() {
      if i == 0 {
        let programs = try store.programs(inSnapshot: info.id)
        builder.start(profile.countsEvents ? Self.eachEventOnce(programs) : programs)
        if chosen.count == 1 { latest = programs }
      } else {
        builder.step(
          try SnapshotReading.diff(from: chosen[i - 1], to: info, in: store, profile: profile), day: info.koreaDay)
      }
    }
    if let last = chosen.last, chosen.count > 1 { latest = try store.programs(inSnapshot: last.id) }
    let histories = builder.finish().values.sorted { $0.id < $1.id }
    guard profile.countsEvents, let day = chosen.last?.koreaDay else { return (histories, latest) }
    return (named(histories, on: day), try NationalWeek.events(ProgramChunks(latest), profile: profile, on: day))
  }

  /// Writes a page per program into `folder`, or links the earlier site's (in `earlierFolder`)
  /// where the page is unchanged and the file there is the one recorded in `earlier`.
  /// Records each page in `manifest`; returns how many were written.
  func writePrograms(
    _ histories: [ProgramHistory], pages: SitePages, earlier: [String: SiteManifest.File], from earlierFolder: URL,
    into folder: URL, manifest: inout SiteManifest
  ) throws -> Int {
    try SiteFiles.makeDirectory(folder)
    var written = 0
    for h in histories {
      let html = pages.program(h)
      let page = SiteFiles.digest(of: html)
      let file = SitePaths.programFile(h.id)
      let destination = folder.appendingPathComponent(file)
      if earlier[h.id] != page
        || !SiteFiles.reuse(earlierFolder.appendingPathComponent(file), expected: page, at: destination)
      {
        try SiteFiles.write(html, to: destination)
        written += 1
      }
      manifest.programs[h.id] = page
    }
    return written
  }

  /// Writes one week's report (the city and the 25 districts) into `weekFolder`, and puts
  /// the site's navigation into its pages. Returns the report's warnings.
  func writeWeek(
    _ job: ReportJob, info: SnapshotInfo, previous: SnapshotInfo?, week: ISOWeek,
    snapshots: [SnapshotInfo], formats: [ReportFormat], options: ExportOptions, into weekFolder: URL,
    pages: SitePages, index: Int
  ) throws -> [String] {
    var request = ReportRequest()
    request.formats = formats
    request.districts = everyPack
    request.options = options
    let stored = try store.programs(inSnapshot: info.id)
    let programs =
      profile.countsEvents ? try NationalWeek.events(ProgramChunks(stored), profile: profile, on: info.koreaDay) : stored
    try SiteFiles.makeDirectory(weekFolder.deletingLastPathComponent())
    let selection = ReportSelection(
      snapshot: info, compareTo: previous, week: week, snapshots: snapshots,
      trendWeeks: WeeklyTrend.defaultWeeks)
    let outcome = try job.report(
      request, programs: ProgramChunks(programs), selection: selection,
      recorded: Recorded(snapshots: [], sample: false), into: weekFolder)
    let byDistrict = Dictionary(grouping: programs, by: \.district)
    for (area, name) in [(nil, nil)] + pages.areas(inWeek: index).map({ (Optional($0.id), Optional($0.name)) }) {
      let prefix = packFolder(name)
      let url = weekFolder.appendingPathComponent(prefix + "report.html")
      let html = try SiteFiles.read(url)
      let files = outcome.files.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
      let page = pages.weekPage(
        report: html, week: index, district: area, files: files,
        programs: name.map { byDistrict[$0] ?? [] } ?? [])
      try SiteFiles.write(page, to: url)
    }
    return outcome.warnings
  }

  /// An earlier site's week at `weekFolder`, each of its recorded files linked from
  /// `earlier` once checked (``SiteFiles/reuse(_:expected:at:)``); `false`, with nothing
  /// left at `weekFolder`, when one is missing, changed or not a regular file (the week is
  /// then rendered again). Only the recorded paths are looked at: nothing else in the
  /// earlier folder is followed or listed.
  func reuseWeek(_ files: [String: SiteManifest.File], from earlier: URL, into weekFolder: URL) throws -> Bool {
    guard files["report.html"] != nil, files.keys.allSatisfy(Self.isPlainPath) else { return false }
    try SiteFiles.makeDirectory(weekFolder)
    for (path, expected) in files.sorted(by: { $0.key < $1.key }) {
      let destination = weekFolder.appendingPathComponent(path)
      try SiteFiles.makeDirectory(destination.deletingLastPathComponent())
      guard SiteFiles.reuse(earlier.appendingPathComponent(path), expected: expected, at: destination) else {
        SiteFiles.remove(weekFolder)
        return false
      }
    }
    return true
  }

  /// A relative path of plain names (a manifest's paths are never taken outside the week).
  static func isPlainPath(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
  }

  /// An earlier site's week, linked into the new one: its pages get this build's
  /// previous/next links (written as new files, so the earlier site's stay as they are).
  /// Returns the week's files as they now are.
  func relink(_ weekFolder: URL, pages: SitePages, index: Int, files: [String: SiteManifest.File]) throws
    -> [String: SiteManifest.File]
  {
    var files = files
    for (area, name) in [(nil, nil)] + pages.areas(inWeek: index).map({ (Optional($0.id), Optional($0.name)) }) {
      let path = packFolder(name) + "report.html"
      let url = weekFolder.appendingPathComponent(path)
      guard files[path] != nil, let html = try? SiteFiles.read(url) else { continue }
      let relinked = pages.relinkWeekSwitch(html, week: index, district: area)
      if relinked != html {
        try SiteFiles.write(relinked, to: url)
        files[path] = SiteFiles.digest(of: relinked)
      }
    }
    return files
  }

  /// Every file of a week just written, with its size and SHA-256.
  static func record(_ weekFolder: URL) throws -> [String: SiteManifest.File] {
    var out: [String: SiteManifest.File] = [:]
    func walk(_ folder: URL, _ prefix: String) throws {
      for (name, kind) in SiteFiles.entries(of: folder) ?? [] {
        let url = folder.appendingPathComponent(name)
        switch kind {
        case .folder: try walk(url, prefix + name + "/")
        case .file:
          guard let file = SiteFiles.digest(url) else {
            throw WorkflowError.outputNotWritable(path: url.path, reason: "it cannot be read back")
          }
          out[prefix + name] = file
        default: continue
        }
      }
    }
    try walk(weekFolder, "")
    return out
  }
}
