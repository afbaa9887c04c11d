import Foundation
import TestSupport
import Testing

/// The national catalog's outputs in its own words, read over every file the binary writes
/// (issue 46): no internal placeholder (`{경북}`) anywhere in a report, a comparison or a
/// site; 전주 only against the week before (issue 45) — against a download 65 weeks older,
/// no file says 전주 or last week; the site's page per provider (제공기관).
@Suite(.serialized) struct NationalWordsEndToEndTests {
  static let scripts = NationalReportEndToEndTests.scripts
  static let env = ["RAON_DB": "national.sqlite"]

  /// Each pattern's places in every file of `folders` (Scripts/scan_outputs.py).
  static func scan(_ patterns: [String], _ folders: [URL], in dir: URL) throws -> (files: Int, found: [String: [String]]) {
    let file = dir.appendingPathComponent("patterns.json")
    try JSONSerialization.data(withJSONObject: patterns).write(to: file)
    let run = try Python.run([scripts.appendingPathComponent("scan_outputs.py").path, file.path] + folders.map(\.path))
    #expect(run.status == 0, "\(run.stderr)")
    let json = try NationalReportEndToEndTests.json(run.stdout)
    return ((json["files"] as? Int) ?? 0, (json["found"] as? [String: [String]]) ?? [:])
  }

  static func run(_ arguments: [String], in dir: URL) throws {
    let run = try RaonProcess.run(arguments, in: dir, environment: env)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
  }

  /// A lineage key written as text: `{` then a Hangul letter (CSS and JSON braces are
  /// followed by a space, a quote or a letter of the Latin alphabet).
  static let placeholder = "\\{[\\uAC00-\\uD7A3]"

  @Test func noFileOfAReportAComparisonOrASiteHoldsAPlaceholder() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-words")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalLaterDownload.write(from: NationalReportEndToEndTests.download, into: dir)
    // Twenty events move to another road address: their changes carry addresses.
    let moved = try Python.run([Self.scripts.appendingPathComponent("national_addresses.py").path, later.path, "20"])
    #expect(moved.status == 0 && moved.stdout.hasPrefix("20"), "\(moved.stdout) \(moved.stderr)")
    try Self.run(
      ["snapshot", "--catalog", "national", NationalReportEndToEndTests.download.path, later.path,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--taken-at", "2025-04-07T09:00:00+09:00"], in: dir)
    try Self.run(["report", "--regions", "all", "--format", "md,xlsx,csv,json,html", "--out", "report"], in: dir)
    try Self.run(["diff", "1", "2", "--format", "md,xlsx,csv,json,html", "--out", "diff"], in: dir)
    try Self.run(["site", "--out", "site"], in: dir)
    let folders = ["report", "diff", "site"].map { dir.appendingPathComponent($0) }
    let scanned = try Self.scan([Self.placeholder, "roadAddress"], folders, in: dir)
    #expect(scanned.files > 200, "\(scanned.files) files")
    #expect(scanned.found[Self.placeholder] == [], "\(scanned.found[Self.placeholder] ?? [])")
    #expect(scanned.found["roadAddress"]?.isEmpty == false, "no address change was written")
  }

  /// The report's own words for the previous week (page 1's sentences, the headline's
  /// column, the workbook's 요약): a 전주 of the data (전주시, 전주 한옥마을) is none of them.
  static let lastWeekWords = [
    "전주\\(", "전주보다", "전주와", "전주에는", "\\(전주 ", "\\| 전주 \\|", ">전주<", "last week", "Last week",
  ]

  @Test func aReportAgainstADownload65WeeksOlderNeverSaysLastWeek() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-65-weeks")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalLaterDownload.write(from: NationalReportEndToEndTests.download, into: dir)
    // The downloads themselves say none of these words (so a match is the report's).
    let inputs = dir.appendingPathComponent("inputs")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: later, to: inputs.appendingPathComponent("later.csv"))
    #expect(try Self.scan(Self.lastWeekWords, [inputs], in: dir).found.values.allSatisfy(\.isEmpty))
    // Monday 2024-01-01 is 65 weeks before Monday 2025-04-07.
    try Self.run(
      ["snapshot", "--catalog", "national", NationalReportEndToEndTests.download.path, later.path,
       "--taken-at", "2024-01-01T09:00:00+09:00", "--taken-at", "2025-04-07T09:00:00+09:00"], in: dir)
    for language in ["ko", "en"] {
      try Self.run(
        ["report", "--regions", "all", "--format", "md,xlsx,csv,json,html", "--lang", language, "--out", language],
        in: dir)
    }
    let folders = ["ko", "en"].map { dir.appendingPathComponent($0) }
    let scanned = try Self.scan(Self.lastWeekWords + ["비교 시점 2024\\.\u{A0}1\\.\u{A0}1\\.\\(월\\)", "As of Mon"], folders, in: dir)
    for word in Self.lastWeekWords { #expect(scanned.found[word] == [], "\(word): \(scanned.found[word] ?? [])") }
    #expect(scanned.found["비교 시점 2024\\.\u{A0}1\\.\u{A0}1\\.\\(월\\)"]?.isEmpty == false)
    #expect(scanned.found["As of Mon"]?.isEmpty == false)

    // The same download against the week before says 전주: the rule is the week, not the data.
    let week = dir.appendingPathComponent("week")
    try FileManager.default.createDirectory(at: week, withIntermediateDirectories: true)
    let weekRun = try RaonProcess.run(
      ["snapshot", "--catalog", "national", NationalReportEndToEndTests.download.path, later.path,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--taken-at", "2025-04-07T09:00:00+09:00"], in: week,
      environment: Self.env)
    #expect(weekRun.status == 0, "\(weekRun.stderr)")
    let report = try RaonProcess.run(["report", "--format", "md", "--out", "out"], in: week, environment: Self.env)
    #expect(report.status == 0, "\(report.stderr)")
    let md = try String(contentsOf: week.appendingPathComponent("out/report.md"), encoding: .utf8)
    #expect(md.contains("| 전주 |") && md.contains("전주("), "\(md.prefix(2_000))")
  }

  /// The national site has a page per provider: linked from its 시·도's page and from each
  /// of its events' pages, listing its events of the latest week.
  @Test func theSiteHasAPagePerProvider() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-providers")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalLaterDownload.write(from: NationalReportEndToEndTests.download, into: dir)
    try Self.run(
      ["snapshot", "--catalog", "national", NationalReportEndToEndTests.download.path, later.path,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--taken-at", "2025-04-07T09:00:00+09:00"], in: dir)
    try Self.run(["site", "--out", "site"], in: dir)
    let site = dir.appendingPathComponent("site")
    let providers = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("providers").path)
    #expect(providers.count > 100, "\(providers.count) provider pages")
    #expect(providers.contains("경상북도 안동시.html"), "\(providers.prefix(20))")
    let page = try String(contentsOf: site.appendingPathComponent("providers/경상북도 안동시.html"), encoding: .utf8)
    #expect(page.contains("<h1>경상북도 안동시</h1>"))
    #expect(page.contains("regions/\(Self.encoded("경상북도")).html"), "the provider's page links its 시·도's")
    #expect(page.contains("search.html?c=\(Self.encoded("경상북도 안동시"))"))
    let region = try String(contentsOf: site.appendingPathComponent("regions/경상북도.html"), encoding: .utf8)
    #expect(region.contains("providers/\(Self.encoded("경상북도 안동시")).html"), "the 시·도's page links its providers'")
  }

  /// Percent-encoded as the site's links are (RFC 3986's unreserved characters kept).
  static func encoded(_ text: String) -> String {
    let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }
}
