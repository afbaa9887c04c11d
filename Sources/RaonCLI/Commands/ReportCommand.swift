import ArgumentParser
import RaonCore
import Foundation
import RaonExport
import RaonWorkflow

struct ReportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write the weekly report: Markdown with charts, XLSX, CSV and JSON.",
    discussion: """
      Optionally records a new snapshot first (--input FILE or --api), then reports on the chosen snapshot, compared with the previous one (taken at least a day earlier), with the headline figures of its ISO week (Korea time). On an empty store with no input it first records the bundled sample (taken 2024-09-09), so it works offline. Output goes to reports/<YYYY-Www>/ (report.md + charts/, report.xlsx, csv/*.csv, report.json, report.html; report.pdf with --format pdf, which needs Chromium); a failed run leaves earlier reports untouched.

      Examples:
        raon report
        raon report --input catalog.csv --taken-at 2024-09-16
        SEOUL_API_KEY=... raon report --api --lang en
        raon report --snapshot 3 --compare-to 1 --format md,json --out /tmp/r
        raon report --format html,pdf      # one page to mail, and its A4 PDF
        raon report --catalog national --db national.sqlite --input 전국공연행사정보표준데이터.csv --taken-at 2025-03-31
        DATA_GO_KR_KEY=... raon report --catalog national --db national.sqlite --api --regions all
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var catalog: CatalogOption

  @Option(name: .long, help: ArgumentHelp("Record this catalog file first.", valueName: "file"))
  var input: String?

  @Flag(name: .long, help: "Fetch and record the catalog from the Open API first (needs SEOUL_API_KEY; --catalog national: DATA_GO_KR_KEY).")
  var api = false

  @Option(name: .customLong("api-base"), help: ArgumentHelp("The Open API's base URL.", valueName: "url"))
  var apiBase: String?

  @Option(
    name: .customLong("taken-at"),
    help: ArgumentHelp("Time of the recorded input (ISO 8601). Default: now.", valueName: "time"))
  var takenAt: String?

  @Flag(
    name: .customLong("allow-shrink"),
    help: "Record the input even when it holds more than 30% fewer current programs than the latest snapshot.")
  var allowShrink = false

  @Option(name: .long, help: ArgumentHelp("The snapshot to report on: an id or 'latest' (the one taken last, by its time, not the highest id).", valueName: "id"))
  var snapshot: String?

  @Option(
    name: .customLong("compare-to"),
    help: ArgumentHelp("Compare with: an id, 'previous' (default: the latest taken at least a day before it) or 'none'.", valueName: "id"))
  var compareTo: String?

  @Option(
    name: .long,
    help: ArgumentHelp("ISO week (YYYY-Www). Default: the week of the snapshot's time, Korea time.", valueName: "week"))
  var week: String?

  @OptionGroup var output: OutputOptions<ReportCommand>

  @OptionGroup var headers: CSVHeadersOption

  @Option(
    name: .customLong("district"),
    help: ArgumentHelp("Also write this district's pack in districts/<name>/ (repeatable), e.g. 강남구 or Gangnam-gu.", valueName: "자치구"))
  var district: [String] = []

  @Option(
    name: .customLong("districts"),
    help: ArgumentHelp("'all': a pack for each of the 25 districts.", valueName: "all"))
  var districts: String?

  @Option(
    name: .customLong("region"),
    help: ArgumentHelp("--catalog national: also write this 시·도's or provider's pack in regions/<name>/ (repeatable), e.g. \"경상북도 안동시\".", valueName: "name"))
  var region: [String] = []

  @Option(
    name: .customLong("regions"),
    help: ArgumentHelp("--catalog national: 'all', a pack for each 시·도 (as named at the report's date).", valueName: "all"))
  var regions: String?

  @Option(
    name: .customLong("trend-weeks"),
    help: ArgumentHelp("ISO weeks in the trend (the latest snapshot of each), 0–520; 0 = no trend. Default 8.", valueName: "n"))
  var trendWeeks: Int?

  func validate() throws {
    if api && input != nil { throw ValidationError("give either --input or --api, not both") }
    if let districts, districts.lowercased() != "all" {
      throw ValidationError("--districts takes 'all'; name single districts with --district")
    }
    if let regions, regions.lowercased() != "all" {
      throw ValidationError("--regions takes 'all'; name single regions with --region")
    }
    if let trendWeeks, !(0...520).contains(trendWeeks) {
      throw ValidationError("--trend-weeks must be between 0 and 520 (ten years), not \(trendWeeks)")
    }
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    try InputFiles.check(input.map { [$0] } ?? [], environment)
    var (snapshotStore, path) = try store.openStore(
      environment, config: config, readOnlyIfUnwritable: input == nil && !api)
    // Checked inside every recording's transaction (SnapshotRecorder), whichever path records.
    snapshotStore.shrinkGuard = allowShrink ? nil : .standard
    let profile = try catalog.profile(for: snapshotStore, config: config)
    try NationalReportOptions.check(profile, districts: !district.isEmpty || districts != nil,
      regions: !region.isEmpty || regions != nil)

    var request = ReportRequest()
    request.inputs = input.map { [$0] } ?? []
    request.useAPI = api
    request.apiBase = apiBase ?? config.apiBase(for: profile)
    request.takenAt = try takenAt.map(TakenAtParser.parse)
    request.snapshot = snapshot
    request.compareTo = compareTo
    request.week = week
    let registry = FormatRegistry.standard
    request.formats = try output.format.map { try registry.parse([$0], for: .report) } ?? config.formats ?? registry.defaults(for: .report)
    request.out = output.out
    if let trendWeeks { request.trendWeeks = trendWeeks }
    request.districts = districts != nil ? (profile.fixedRegions ?? []) : uniqued(district.map { $0.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping })
    if profile.fixedRegions == nil {
      request.districts = (regions != nil ? [ReportJob.everyRegion] : [])
        + uniqued(region.map { $0.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping })
    }
    request.outParent = config.out
    request.options = output.exportOptions(over: config, csvHeaders: headers.csvHeaders)
    request.options.profile = profile

    var job = ReportJob(store: snapshotStore, storePath: path, environment: environment)
    job.profile = profile
    let outcome = try await job.run(request)
    Console.endProgress()
    if input != nil || api { store.foldLog(snapshotStore, path: path) }
    for warning in outcome.warnings { Console.warning(warning) }
    print(ReportSummary.lines(outcome).map(TerminalText.oneLine).joined(separator: "\n"))
  }

  private func uniqued(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }
}

extension ReportCommand: WritesOutput {
  static let outHelp = "Output folder. Default: reports/<YYYY-Www>/."
  static var formatHelp: String { FormatRegistry.standard.help(for: .report) }
  static let formatExample = "md,xlsx"
}
