import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import RaonStore

/// `raon site`: the whole history as a static site (``SitePages``): an index, each week's
/// report for the city and the 25 districts with its downloads, a page per district, the
/// trend, a page per program that ever appeared and the search page.
///
/// Each week is the latest snapshot taken within its ISO week (as the trend's points),
/// compared with the week before. The site is staged beside its folder and swapped in at
/// the end (``OutputPublisher``): published whole or not at all.
///
/// Incremental: the site keeps a manifest (``SiteManifest``): per week what its report was
/// made from, per program its page's digest. A week whose inputs are unchanged, and a
/// program page whose bytes are unchanged, are hard-linked from the site in place instead
/// of being written again; only the previous/next links of an earlier week's pages are
/// put in anew. The index, trend, district and search pages are always written.
public struct SiteJob: Sendable {
  public let store: any SnapshotStoring
  public let storePath: String
  public let environment: RaonEnvironment

  public static let defaultOut = "site"

  /// Changes whenever the pages of a week would come out differently from the same
  /// inputs: an earlier site's weeks are then rendered again.
  static let generator = "raon-site-2"

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

    public var summary: String {
      let range = weeks.first.map { "\($0) … \(weeks.last ?? $0)" } ?? "no weeks"
      return
        "site \(range): \(weeks.count) week\(weeks.count == 1 ? "" : "s"), \(programs.formatted()) programs — rendered \(renderedWeeks.count) week\(renderedWeeks.count == 1 ? "" : "s") and \(writtenPrograms.formatted()) program pages"
    }
  }

  public func run(_ request: Request) throws -> Outcome {
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
    // A site's folders (weeks/, programs/, districts/) are Raon's whole: checked by name.
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
    let report = ReportJob(store: store, storePath: storePath, environment: environment)
    environment.progress("site: counting the trend of \(chosen.count) weeks …")
    let trend = try report.trend(
      ReportSelection(
        snapshot: latest, compareTo: nil, week: SnapshotSelection.defaultWeek(for: latest),
        snapshots: snapshots, trendWeeks: request.weeks ?? Int.max),
      districts: District.all)
    let pointByID = Dictionary(trend.city.map { ($0.snapshotId, $0) }, uniquingKeysWith: { a, _ in a })
    let weeks = chosen.map {
      SiteWeek(week: SnapshotSelection.defaultWeek(for: $0), snapshot: $0, point: pointByID[$0.id])
    }
    let pages = SitePages(weeks: weeks, language: language)

    environment.progress("site: following every program through \(chosen.count) weeks …")
    var builder = ProgramHistory.Builder()
    var latestPrograms: [Program] = []
    for (i, info) in chosen.enumerated() {
      if i == 0 {
        let programs = try store.programs(inSnapshot: info.id)
        builder.start(programs)
        if chosen.count == 1 { latestPrograms = programs }
      } else {
        builder.step(try SnapshotReading.diff(from: chosen[i - 1], to: info, in: store), day: info.koreaDay)
      }
    }
    if latestPrograms.isEmpty { latestPrograms = try store.programs(inSnapshot: latest.id) }
    let histories = builder.finish().values.sorted { $0.id < $1.id }

    var manifest = SiteManifest(generator: Self.generator, language: language.rawValue)
    var rendered: [ISOWeek] = []
    var warnings: [String] = []
    let old = earlier.flatMap { $0.generator == Self.generator && $0.language == language.rawValue ? $0 : nil }
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
        SiteFiles.exists(earlierFolder.appendingPathComponent("report.html"))
      {
        try SiteFiles.link(earlierFolder, to: weekFolder)
        try relink(weekFolder, pages: pages, index: i)
        manifest.weeks[week.description] = entry
        continue
      }
      environment.progress("site: writing the week \(week) (snapshot \(info.id)) …")
      let files = try writeWeek(
        report, info: info, previous: previous, week: week, snapshots: snapshots, formats: formats,
        options: request.options, into: weekFolder, pages: pages, index: i)
      warnings += files.warnings
      manifest.weeks[week.description] = SiteManifest.Week(key: key, files: files.files)
      rendered.append(week)
    }

    environment.progress("site: writing \(histories.count.formatted()) program pages …")
    let programsFolder = folder.appendingPathComponent(SitePaths.programs)
    try SiteFiles.makeDirectory(programsFolder)
    var written = 0
    for h in histories {
      let html = pages.program(h)
      let digest = SHA256.hex(html)
      let file = SitePaths.programFile(h.id)
      let destination = programsFolder.appendingPathComponent(file)
      let existing = target.appendingPathComponent(SitePaths.programs).appendingPathComponent(file)
      if old?.programs[h.id] == digest, (try? SiteFiles.linkFile(existing, to: destination)) != nil {
        // Unchanged: the earlier site's file, linked.
      } else {
        try SiteFiles.write(html, to: destination)
        written += 1
      }
      manifest.programs[h.id] = digest
    }

    let byDistrict = Dictionary(grouping: latestPrograms, by: \.district)
    try SiteFiles.makeDirectory(folder.appendingPathComponent(SitePaths.districts))
    for d in District.all {
      let html = pages.district(d, trend: trend.byDistrict[d] ?? [], programs: byDistrict[d] ?? [])
      try SiteFiles.write(html, to: folder.appendingPathComponent(SitePaths.district(d)))
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
    return Outcome(
      directory: target, weeks: weeks.map(\.week), programs: histories.count, renderedWeeks: rendered,
      writtenPrograms: written, warnings: warnings)
  }

  /// Writes one week's report (the city and the 25 districts) into `weekFolder`, and puts
  /// the site's navigation into its pages.
  func writeWeek(
    _ job: ReportJob, info: SnapshotInfo, previous: SnapshotInfo?, week: ISOWeek,
    snapshots: [SnapshotInfo], formats: [ReportFormat], options: ExportOptions, into weekFolder: URL,
    pages: SitePages, index: Int
  ) throws -> (files: [String], warnings: [String]) {
    var request = ReportRequest()
    request.formats = formats
    request.districts = District.all
    request.options = options
    let programs = try store.programs(inSnapshot: info.id)
    try SiteFiles.makeDirectory(weekFolder.deletingLastPathComponent())
    let selection = ReportSelection(
      snapshot: info, compareTo: previous, week: week, snapshots: snapshots,
      trendWeeks: WeeklyTrend.defaultWeeks)
    let outcome = try job.report(
      request, programs: ProgramChunks(programs), selection: .done(selection),
      recording: .done(Recorded(snapshots: [], sample: false)), into: weekFolder)
    let byDistrict = Dictionary(grouping: programs, by: \.district)
    for district in [nil] + District.all.map(Optional.some) {
      let prefix = district.map { "\(DistrictPacks.folder)/\($0)/" } ?? ""
      let url = weekFolder.appendingPathComponent(prefix + "report.html")
      let html = try SiteFiles.read(url)
      let files = outcome.files.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
      let page = pages.weekPage(
        report: html, week: index, district: district, files: files,
        programs: district.map { byDistrict[$0] ?? [] } ?? [])
      try SiteFiles.write(page, to: url)
    }
    return (outcome.files, outcome.warnings)
  }

  /// An earlier site's week, linked into the new one: its pages get this build's
  /// previous/next links (written as new files, so the earlier site's stay as they are).
  func relink(_ weekFolder: URL, pages: SitePages, index: Int) throws {
    for district in [nil] + District.all.map(Optional.some) {
      let url = weekFolder.appendingPathComponent(
        (district.map { "\(DistrictPacks.folder)/\($0)/" } ?? "") + "report.html")
      guard let html = try? SiteFiles.read(url) else { continue }
      let relinked = pages.relinkWeekSwitch(html, week: index, district: district)
      if relinked != html { try SiteFiles.write(relinked, to: url) }
    }
  }
}

/// What a site remembers of how it was built, in `.raon-site.json`: per week the inputs
/// of its report (snapshot, compared snapshot, trend points, formats) and its files, per
/// program its page's SHA-256.
struct SiteManifest: Codable, Sendable {
  struct Week: Codable, Sendable {
    var key: String
    var files: [String]
  }
  var generator: String
  var language: String
  var weeks: [String: Week] = [:]
  var programs: [String: String] = [:]

  init(generator: String, language: String) {
    self.generator = generator
    self.language = language
  }

  /// The manifest of the site at `folder`; `nil` when there is none or it cannot be read
  /// (the site is then built whole).
  static func read(from folder: URL) -> SiteManifest? {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent(SitePaths.manifest)) else { return nil }
    return try? JSONDecoder().decode(SiteManifest.self, from: data)
  }

  func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }
}

/// The file operations of a site build; failures say which path and why.
enum SiteFiles {
  static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  static func makeDirectory(_ url: URL) throws {
    try attempt(url) { try OutputDirectories.create(url) }
  }

  static func read(_ url: URL) throws -> String {
    try attempt(url) { String(decoding: try Data(contentsOf: url), as: UTF8.self) }
  }

  /// Writes a new file (atomically: a file linked from an earlier site is replaced, not
  /// changed).
  static func write(_ text: String, to url: URL) throws {
    try attempt(url) { try Data(text.utf8).write(to: url, options: .atomic) }
  }

  /// A hard link to `source` at `destination` (a copy where links are impossible).
  static func linkFile(_ source: URL, to destination: URL) throws {
    let fm = FileManager.default
    do {
      try fm.linkItem(at: source, to: destination)
    } catch {
      try attempt(destination) { try fm.copyItem(at: source, to: destination) }
    }
  }

  /// `source`'s tree at `destination`, every file hard-linked.
  static func link(_ source: URL, to destination: URL) throws {
    let fm = FileManager.default
    try makeDirectory(destination)
    let entries = try attempt(source) { try fm.contentsOfDirectory(atPath: source.path) }
    for name in entries {
      let from = source.appendingPathComponent(name)
      let to = destination.appendingPathComponent(name)
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: from.path, isDirectory: &isDirectory) else { continue }
      if isDirectory.boolValue { try link(from, to: to) } else { try linkFile(from, to: to) }
    }
  }

  private static func attempt<T>(_ url: URL, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as WorkflowError {
      throw error
    } catch {
      throw WorkflowError.outputNotWritable(
        path: url.path, reason: (error as NSError).localizedDescription.replacingOccurrences(of: "\n", with: " "))
    }
  }
}
