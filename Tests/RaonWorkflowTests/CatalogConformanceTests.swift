import Foundation
import RaonCore
import RaonExport
import RaonMail
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// Every catalog through the whole pipeline — Seoul's, the national data's, and a third
/// built only for the tests (TestSupport's ``ThirdCatalog``, which nothing in the sources
/// names) — with the same small downloads and the same checks: two snapshots recorded,
/// the week's report with a pack per region, the comparison, the trend and the site; the
/// packs add up to the whole, the changes are the ones the downloads were built with, no
/// other catalog's words and no `{…}` placeholder appear in any file, and every link of
/// every page leads to a file that is there.
@Suite("Every catalog through one pipeline")
struct CatalogConformanceTests {
  /// One catalog's downloads: the fields of a performance in that catalog's columns.
  struct Catalog: Sendable, CustomStringConvertible {
    var profile: CatalogProfile
    /// The regions the fixture's performances are in, and what a pack of each is named.
    var regions: [String]
    /// A performance's record: `region` is one of ``regions``; `group` its 분류/장르/…
    var record: @Sendable (_ n: Int, _ region: String, _ group: String, _ fee: String, _ start: String, _ end: String)
      -> [CanonicalField: String]
    var description: String { profile.name.rawValue }
  }

  static let seoul = Catalog(profile: .seoul, regions: ["종로구", "마포구", "중구"]) { n, region, group, fee, start, end in
    [
      .category: group, .district: region, .title: "공연 \(n)", .place: "\(region) 문화회관", .feeText: fee,
      .isFree: fee == "무료" ? "무료" : "유료", .startDate: start, .endDate: end, .registeredOn: "2025-01-02",
      .portalURL: "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(100 + n)",
    ]
  }

  static let national = Catalog(profile: .national, regions: ["경기도", "전라남도", "부산광역시"]) {
    n, region, group, fee, start, end in
    let provider = ["경기도": "경기도 수원시", "전라남도": "전라남도 순천시", "부산광역시": "부산광역시 해운대구"][region]!
    return [
      .title: "공연 \(n) \(group)", .place: "\(provider) 문화회관", .provider: provider, .startDate: start, .endDate: end,
      .feeKind: fee == "무료" ? "무료" : "유료", .feeText: fee, .referenceDate: "2025-03-20",
    ]
  }

  static let third = Catalog(profile: ThirdCatalog.profile, regions: ["동부", "서부", "중부"]) { n, region, group, fee, start, end in
    [.title: "공연 \(n)", .place: "\(region) 공연장", .district: region, .category: group, .feeText: fee, .startDate: start, .endDate: end]
  }

  static let catalogs = [seoul, national, third]

  /// Nine performances a week before the reported one, the n-th in region (n − 1) mod 3;
  /// the reported week's download lost the ninth, gained a twelfth (the ninth's region)
  /// and changed the first's fee (hand-counted: 1 added, 1 removed, 1 changed; 9 in each
  /// snapshot, 3 per region).
  /// Each runs from `day` − 14 + n to `day` + 10 + n, so all run in `day`'s week.
  static func downloads(_ c: Catalog, around day: CalendarDay = CalendarDay(iso: "2025-03-31")!) -> (earlier: String, later: String) {
    let groups = ["연극", "국악", "전시"]
    func row(_ n: Int, fee: String? = nil) -> [CanonicalField: String] {
      let region = c.regions[(n - 1) % 3]
      let free = n % 2 == 0
      return c.record(
        n, region, groups[(n - 1) % 3], fee ?? (free ? "무료" : "\(n),000원"), day.adding(days: n - 14).description,
        day.adding(days: 10 + n).description)
    }
    let earlier = (1...9).map { row($0) }
    let later = [row(1, fee: "15,000원")] + (2...8).map { row($0) } + [row(12)]
    return (csv(earlier, c.profile), csv(later, c.profile))
  }

  static func csv(_ rows: [[CanonicalField: String]], _ profile: CatalogProfile) -> String {
    func quoted(_ s: String) -> String { s.contains(",") ? "\"\(s)\"" : s }
    let header = profile.fields.map(\.label).joined(separator: ",")
    return ([header] + rows.map { row in profile.fields.map { quoted(row[$0.field] ?? "") }.joined(separator: ",") })
      .joined(separator: "\r\n") + "\r\n"
  }

  /// The catalog recorded twice (Mondays 2025-03-24 and 03-31) in a store of its own.
  static func recorded(_ c: Catalog, _ label: String) throws -> (dir: URL, store: SnapshotStore, environment: RaonEnvironment) {
    let dir = try Fixtures.temporaryDirectory("raon-conformance-\(label)-\(c)")
    let (earlier, later) = downloads(c)
    try earlier.write(to: dir.appendingPathComponent("earlier.csv"), atomically: true, encoding: .utf8)
    try later.write(to: dir.appendingPathComponent("later.csv"), atomically: true, encoding: .utf8)
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let environment = RaonEnvironment(variables: [:], workingDirectory: dir)
    let job = SnapshotJob(store: store, environment: environment, profile: c.profile)
    let recorded = try job.record([
      (dir.appendingPathComponent("earlier.csv").path, CalendarDay(iso: "2025-03-24")!.koreaMidnight),
      (dir.appendingPathComponent("later.csv").path, CalendarDay(iso: "2025-03-31")!.koreaMidnight),
    ])
    #expect(recorded.count == 2)
    return (dir, store, environment)
  }

  static func options(_ c: Catalog) -> ExportOptions {
    var options = ExportOptions()
    options.profile = c.profile
    return options
  }

  @Test(arguments: catalogs) func reportPacksDiffTrendAndSite(_ c: Catalog) async throws {
    let (dir, store, environment) = try Self.recorded(c, "all")
    defer { try? FileManager.default.removeItem(at: dir) }

    var job = ReportJob(store: store, storePath: "store.sqlite", environment: environment)
    job.profile = c.profile
    var request = ReportRequest()
    request.formats = [.md, .json, .csv, .html, .xlsx]
    request.out = dir.appendingPathComponent("report").path
    request.districts = c.profile.fixedRegions.map { _ in c.regions } ?? [ReportJob.everyRegion]
    request.options = Self.options(c)
    let report = try await job.run(request)
    #expect(report.added == 1 && report.removed == 1 && report.changed == 1, "\(c)")

    // The packs add up to the whole, region by region.
    let city = try Self.json(report.directory.appendingPathComponent("report.json"))
    let totals = try #require(city["totals"] as? [String: Any])
    #expect(totals["programs"] as? Int == 9, "\(c)")
    let byRegion = try #require(city["by" + c.profile.words.files.jsonRegion] as? [[String: Any]], "\(c)")
    var packed = 0
    for region in c.regions {
      let pack = report.directory.appendingPathComponent("\(c.profile.words.files.packFolder)/\(region)/report.json")
      let figures = try #require(try Self.json(pack)["totals"] as? [String: Any], "\(c): \(pack.path)")
      let count = try #require(figures["programs"] as? Int)
      #expect(count == 3, "\(c) \(region)")
      #expect(byRegion.first { $0["key"] as? String == region }?["count"] as? Int == count, "\(c) \(region)")
      packed += count
    }
    #expect(packed == totals["programs"] as? Int, "\(c)")

    let diff = try DiffJob(store: store, storePath: "store.sqlite", environment: environment, profile: c.profile)
      .run(from: "1", to: "2", formats: [.md, .json, .csv], out: dir.appendingPathComponent("diff").path, options: Self.options(c))
    #expect(diff.diff.added.count == 1 && diff.diff.removed.count == 1 && diff.diff.changed.count == 1, "\(c)")
    #expect(diff.diff.changed.first?.fields.contains { ["fee_text", "feeText"].contains($0.field) } == true, "\(c)")

    var trend = TrendJob(store: store, storePath: "store.sqlite", environment: environment)
    trend.profile = c.profile
    let points = try trend.run(TrendJob.Range(), formats: [.csv, .json], out: dir.appendingPathComponent("trend").path, options: Self.options(c))
    #expect(points.points.map(\.programCount) == [9, 9], "\(c)")

    var site = SiteJob(store: store, storePath: "store.sqlite", environment: environment)
    site.profile = c.profile
    var siteRequest = SiteJob.Request()
    siteRequest.out = dir.appendingPathComponent("site").path
    siteRequest.options = Self.options(c)
    let built = try site.run(siteRequest)
    #expect(built.weeks.count == 2, "\(c)")

    for folder in ["report", "diff", "trend", "site"] {
      try Self.checkFiles(under: dir.appendingPathComponent(folder), of: c)
    }
  }

  /// No other catalog's words, no placeholder, every relative link whole.
  static func checkFiles(under root: URL, of c: Catalog) throws {
    let others = catalogs.filter { $0.profile.name != c.profile.name }.flatMap { other in
      [other.profile.words.region.ko, other.profile.words.catalog.ko, other.profile.words.wholeArea.ko]
        .filter { word in ![c.profile.words.region.ko, c.profile.words.catalog.ko, c.profile.words.wholeArea.ko].contains(word) }
    }
    // The shape of the leak issue 46 found: 「{경북} 안동시」.
    let placeholder = try Regex(#"\{[가-힣·]+\}"#)
    let link = try Regex(##"(?:href|src)="([^"#?]*)[^"]*""##)
    var checked = 0
    for file in try files(under: root) where ["md", "csv", "json", "html", "svg"].contains(file.pathExtension) {
      let text = try String(contentsOf: file, encoding: .utf8)
      let name = file.path.replacingOccurrences(of: root.path, with: root.lastPathComponent)
      for word in others { #expect(!text.contains(word), "\(c): \(name) says '\(word)'") }
      #expect(text.firstMatch(of: placeholder) == nil, "\(c): \(name) holds a placeholder")
      guard file.pathExtension == "html" else { continue }
      for match in text.matches(of: link) {
        let target = String(text[match.output[1].range!]).removingPercentEncoding ?? ""
        guard !target.isEmpty, !target.contains(":"), !target.hasPrefix("//") else { continue }
        let resolved = file.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        #expect(FileManager.default.fileExists(atPath: resolved.path), "\(c): \(name) links \(target), which is not there")
        checked += 1
      }
    }
    if root.lastPathComponent == "site" { #expect(checked > 0, "\(c): the site's pages link nothing") }
  }

  static func files(under root: URL) throws -> [URL] {
    let keys: [URLResourceKey] = [.isRegularFileKey]
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { return [] }
    return walk.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: Set(keys)).isRegularFile) == true }
  }

  static func json(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  /// A store in `dir` holding last week's download (recorded a week ago), and a source
  /// folder `inbox` with this week's, settled an hour ago, as the week's job finds it.
  static func lastWeekStored(_ c: Catalog, in dir: URL, environment: RaonEnvironment) throws
    -> (store: SnapshotStore, inbox: URL)
  {
    let (earlier, later) = downloads(c, around: CalendarDay(koreaDateOf: Date()))
    let inbox = dir.appendingPathComponent("inbox")
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    try earlier.write(to: dir.appendingPathComponent("earlier.csv"), atomically: true, encoding: .utf8)
    let download = inbox.appendingPathComponent("later.csv")
    try later.write(to: download, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3_600)], ofItemAtPath: download.path)
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    _ = try SnapshotJob(store: store, environment: environment, profile: c.profile)
      .record([(dir.appendingPathComponent("earlier.csv").path, Date().addingTimeInterval(-7 * 86_400))])
    return (store, inbox)
  }

  /// `raon weekly`'s run (in process) on a store holding last week's download, with this
  /// week's in its source folder: each region's list gets its own message with its pack,
  /// and the city's list the whole — through a real SMTP server on 127.0.0.1.
  @Test(arguments: catalogs) func theWeekIsDeliveredPerRegion(_ c: Catalog) async throws {
    let dir = try Fixtures.temporaryDirectory("raon-conformance-weekly-\(c)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let smtp = try SMTPTestServer.start(in: dir, user: "raon", password: "smtp-pw-4c3b2a")
    defer { smtp.stop() }
    let environment = RaonEnvironment(variables: ["RAON_SMTP_PASSWORD": "smtp-pw-4c3b2a"], workingDirectory: dir)
    let (store, inbox) = try Self.lastWeekStored(c, in: dir, environment: environment)

    var config = try RaonConfig.parse(
      """
      [weekly]
      source = "\(inbox.path)"
      formats = ["md", "xlsx"]
      out = "out"
      retry_for = "3s"
      retry_wait = "1s"

      [mail]
      server = "smtp://127.0.0.1:\(smtp.port)"
      from = "culture@example.go.kr"
      user = "raon"
      ca_file = "\(smtp.caFile)"
      operator = ["ops@example.go.kr"]
      city = ["whole@example.go.kr"]
      """, path: "raon.toml")
    // Lists named in code: a catalog Raon does not ship has names raon.toml cannot know.
    for (i, region) in c.regions.enumerated() { config.mail?.districts[region] = [MailAddress("office\(i)@example.go.kr")!] }
    config = try config.forCatalog(c.profile)
    let job = WeeklyJob(store: store, storePath: "store.sqlite", environment: environment, config: config, options: Self.options(c))
    let outcome = try await job.run(WeeklyRequest())
    #expect(outcome.verdict == .sent && outcome.sent == 4, "\(c): \(outcome.lines) \(outcome.problem ?? "")")

    let messages = try smtp.messages()
    let others = Self.catalogs.filter { $0.profile.name != c.profile.name }.map { $0.profile.words.catalog.ko }
    for (i, region) in c.regions.enumerated() {
      let mine = messages.filter { ($0["to"] as? String ?? "\($0["to"] ?? "")").contains("office\(i)@") }
      #expect(mine.count == 1, "\(c) \(region): \(mine.count) messages")
      let subject = mine.first?["subject"] as? String ?? ""
      #expect(subject.contains(region) && subject.contains(c.profile.words.subject.ko), "\(c): \(subject)")
      let names = (mine.first?["attachments"] as? [[String: Any]] ?? []).compactMap { $0["filename"] as? String }
      #expect(names.contains { $0.hasPrefix(c.profile.words.fileStem) && $0.contains(region) && $0.hasSuffix(".xlsx") }, "\(c): \(names)")
      let text = mine.first?["text"] as? String ?? ""
      for word in others { #expect(!text.contains(word) && !subject.contains(word), "\(c) \(region): says '\(word)'") }
    }
    #expect(messages.filter { "\($0["to"] ?? "")".contains("whole@") }.count == 1, "\(c)")
  }
}
