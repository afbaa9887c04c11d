import ArgumentParser
import Foundation
import RaonCore
import RaonWorkflow

struct SnapshotCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshot",
    abstract: "Record the catalog as a new snapshot, from files or the Open API.",
    discussion: """
      Each FILE (the portal's CSV in CP949 or UTF-8, its JSON download, an .xlsx workbook or an HTML-table .xls) becomes its own snapshot, in the order given, each at its own time: give --taken-at once per file, or --taken-at-from-name. All files are recorded in one transaction: a failure (or Ctrl-C) records none of them. A catalog that holds more than 30% fewer current programs than the latest snapshot is refused unless --allow-shrink. With --api the whole catalog is fetched from the Seoul Open API (key in the environment variable SEOUL_API_KEY).

      With --catalog national the files are the public data portal's 전국공연행사정보표준데이터 (its CSV in CP949 or UTF-8, its JSON download, .xlsx), and --api fetches it from the portal's Open API (key in DATA_GO_KR_KEY); rows sharing the natural key of docs/NATIONAL.md are recorded as the sessions of one event. A store holds one catalog.

      Examples:
        raon snapshot data/sample/seoul-cultural-events-2024-09-09.cp949.csv --taken-at 2024-09-09
        raon snapshot 2024-09-02.csv 2024-09-09.csv --taken-at 2024-09-02 --taken-at 2024-09-09
        raon snapshot 2024-09-02.csv 2024-09-09.xlsx --taken-at-from-name
        SEOUL_API_KEY=... raon snapshot --api
        raon snapshot --catalog national --db national.sqlite 전국공연행사정보표준데이터.csv --taken-at 2025-03-31
        DATA_GO_KR_KEY=... raon snapshot --catalog national --db national.sqlite --api
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var catalog: CatalogOption

  @Option(
    name: .customLong("taken-at"),
    help: ArgumentHelp(
      "When the catalog was taken (ISO 8601; a bare date is midnight in Korea). Once per file, in the same order. Default: now (one file only).",
      valueName: "time"))
  var takenAt: [String] = []

  @Flag(
    name: .customLong("taken-at-from-name"),
    help: "Take each file's time from the date in its name (YYYY-MM-DD or YYYYMMDD), midnight in Korea.")
  var takenAtFromName = false

  @Flag(
    name: .customLong("allow-shrink"),
    help: "Record even when the catalog holds more than 30% fewer current programs than the latest snapshot.")
  var allowShrink = false

  @Flag(name: .long, help: "Fetch the catalog from the Open API (needs SEOUL_API_KEY; --catalog national: DATA_GO_KR_KEY).")
  var api = false

  @Option(name: .customLong("api-base"), help: ArgumentHelp("The Open API's base URL.", valueName: "url"))
  var apiBase: String?

  @Argument(help: ArgumentHelp("Catalog files to record (CSV, JSON or XLSX).", valueName: "file"))
  var files: [String] = []

  func validate() throws {
    if api && !files.isEmpty { throw ValidationError("give either --api or files, not both") }
    if !api && files.isEmpty { throw ValidationError("give one or more catalog files, or --api") }
    if takenAtFromName && !takenAt.isEmpty {
      throw ValidationError("give either --taken-at or --taken-at-from-name, not both")
    }
    if takenAtFromName && api { throw ValidationError("--taken-at-from-name needs files, not --api") }
    if api && takenAt.count > 1 { throw ValidationError("give --taken-at at most once with --api") }
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    try InputFiles.check(files, environment)
    var (snapshotStore, path) = try store.openStore(environment, config: config)
    snapshotStore.shrinkGuard = allowShrink ? nil : .standard
    let now = environment.now()
    let times = try takenAt.map { try TakenAtParser.parse($0, now: now) }
    let profile = try catalog.profile(for: snapshotStore, config: config)
    let job = SnapshotJob(store: snapshotStore, environment: environment, profile: profile)
    let recorded: [SnapshotJob.Recorded]
    if api {
      let info = try await job.recordFromAPI(base: apiBase ?? config.apiBase(for: profile), takenAt: times.first)
      recorded = [SnapshotJob.Recorded(info: info, unchangedSince: try snapshotStore.unchangedSince(snapshot: info.id))]
    } else {
      let stamps: [Date?]
      if takenAtFromName {
        stamps = try files.map { try TakenAtParser.fromFileName($0) }
      } else if times.count == files.count {
        stamps = times
      } else if files.count > 1 && times.count <= 1 {
        throw WorkflowError.sharedTakenAt(count: files.count)
      } else if files.count == 1 {
        stamps = [nil]
      } else {
        throw WorkflowError.takenAtCountMismatch(files: files.count, times: times.count)
      }
      recorded = try job.record(Array(zip(files, stamps)).map { (path: $0.0, takenAt: $0.1) })
    }
    Console.endProgress()
    store.foldLog(snapshotStore, path: path)
    for line in recorded {
      // The national data's rows are sessions: say how many events they make.
      let events = profile.normalisation == .sessions
        ? try snapshotStore.details(snapshot: line.info.id).distinctPrograms : nil
      print(SnapshotInfoLine(line.info, unchangedSince: line.unchangedSince, events: events).text)
    }
  }
}
