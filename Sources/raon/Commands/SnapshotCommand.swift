import ArgumentParser
import Foundation
import RaonWorkflow

struct SnapshotCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshot",
    abstract: "Record the catalog as a new snapshot, from files or the Open API.",
    discussion: """
      Each FILE (the portal's CSV in CP949 or UTF-8, or its JSON download) becomes its own snapshot, in the order given. With --api the whole catalog is fetched from the Seoul Open API (key in the environment variable SEOUL_API_KEY). A failed ingestion records nothing.

      Examples:
        raon snapshot data/sample/seoul-cultural-events-2024-09-09.cp949.csv --taken-at 2024-09-09
        SEOUL_API_KEY=... raon snapshot --api
      """)

  @OptionGroup var store: StoreOptions

  @Option(
    name: .customLong("taken-at"),
    help: ArgumentHelp(
      "When the catalog was taken (ISO 8601; a bare date is midnight in Korea). Default: now.",
      valueName: "time"))
  var takenAt: String?

  @Flag(name: .long, help: "Fetch the catalog from the Open API (needs SEOUL_API_KEY).")
  var api = false

  @Option(name: .customLong("api-base"), help: ArgumentHelp("The Open API's base URL.", valueName: "url"))
  var apiBase: String?

  @Argument(help: ArgumentHelp("Catalog files to record (CSV or JSON).", valueName: "file"))
  var files: [String] = []

  func validate() throws {
    if api && !files.isEmpty { throw ValidationError("give either --api or files, not both") }
    if !api && files.isEmpty { throw ValidationError("give one or more catalog files, or --api") }
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    try InputFiles.check(files, environment)
    let (snapshotStore, path) = try store.openStore(environment, config: config)
    let time = try takenAt.map(TakenAtParser.parse)
    let job = SnapshotJob(store: snapshotStore, environment: environment)
    let recorded: [SnapshotInfoLine]
    if api {
      recorded = [SnapshotInfoLine(try await job.recordFromAPI(base: apiBase ?? config.apiBase, takenAt: time))]
    } else {
      recorded = try job.recordFiles(files, takenAt: time).map(SnapshotInfoLine.init)
    }
    Console.endProgress()
    store.foldLog(snapshotStore, path: path)
    for line in recorded { print(line.text) }
  }
}
