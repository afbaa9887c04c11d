import ArgumentParser
import Foundation
import RaonExport
import RaonWorkflow

struct DiffCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two snapshots: added, removed and changed programs, field by field.",
    discussion: """
      Prints a one-line summary and writes the changes table in the chosen formats (default: reports/diff-FROM-TO/). FROM and TO are snapshot ids, 'latest' (the snapshot taken last, by its time, not the highest id) or 'previous' (the latest taken at least a day before it).

      Examples:
        raon diff 1 2
        raon diff previous latest --format csv --out /tmp/changes
        raon diff 1 2 --format none --fail-if-changed   # for scripts: exit 1 when anything changed

      Exit status, as diff(1): 0 no changes (or changes without --fail-if-changed), 1 changes with --fail-if-changed, 2 any error; 64 usage error.
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: "The older snapshot (id, 'previous' or 'latest').") var from: String
  @Argument(help: "The newer snapshot (id, 'previous' or 'latest').") var to: String

  @Option(name: .long, help: ArgumentHelp("Folder for the changes files.", valueName: "dir"))
  var out: String?

  @Option(
    name: .long,
    help: ArgumentHelp("Formats, comma-separated: md,xlsx,csv,json,html,pdf, or 'none'.", valueName: "list"))
  var format: String = "md,xlsx,csv,json"

  @Option(name: .long, help: "Labels' language: ko or en.") var lang: ReportLanguage = .ko

  @Option(name: .customLong("csv-encoding"), help: "utf8-bom (default), utf8 or cp949.")
  var csvEncoding: CSVEncoding = .utf8BOM

  @Flag(name: .customLong("fail-if-changed"), help: "Exit with status 1 when there are changes (errors exit 2).")
  var failIfChanged = false

  func validate() throws {
    try OptionChecks.requireNonEmptyOut(out)
    try OptionChecks.requireFormats(format, example: "md,csv (or none)")
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    let (snapshotStore, path) = try store.openStore(environment, config: config, readOnly: true)
    let formats = format.lowercased() == "none" ? [] : try ReportFormat.parseList([format])
    let options = ExportOptions(language: lang, csvEncoding: csvEncoding)
    let outcome = try DiffJob(store: snapshotStore, storePath: path, environment: environment)
      .run(from: from, to: to, formats: formats, out: out, options: options)
    for warning in outcome.warnings { Console.warning(warning) }
    print(outcome.summary + (outcome.directory.map { " — written to \($0.path)" } ?? ""))
    if failIfChanged && !outcome.diff.isEmpty { throw ExitCode(1) }
  }
}
