import ArgumentParser
import Foundation
import RaonExport
import RaonWorkflow

struct DiffCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two snapshots: added, removed and changed programs, field by field.",
    discussion: """
      Prints a one-line summary (added; removed as ended or withdrawn; changed as material or minor, as the weekly report splits them). With --out DIR it also writes the changes in the chosen formats (default md,xlsx,csv,json) into DIR; without --out it writes nothing. FROM and TO are snapshot ids, 'latest' (the snapshot taken last, by its time, not the highest id) or 'previous' (the latest taken at least a day before it).

      Examples:
        raon diff 1 2
        raon diff previous latest --out /tmp/changes --format csv
        raon diff 1 2 --format none --fail-if-changed   # for scripts: exit 1 when anything changed

      Exit status, as diff(1): 0 no changes (or changes without --fail-if-changed), 1 changes with --fail-if-changed, 2 any error; 64 usage error.
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var catalog: CatalogOption

  @Argument(help: "The older snapshot (id, 'previous' or 'latest').") var from: String
  @Argument(help: "The newer snapshot (id, 'previous' or 'latest').") var to: String

  @OptionGroup var output: OutputOptions<DiffCommand>

  @OptionGroup var headers: CSVHeadersOption

  @Flag(name: .customLong("fail-if-changed"), help: "Exit with status 1 when there are changes (errors exit 2).")
  var failIfChanged = false

  func validate() throws {
    // A format names files; files are written only where --out says.
    if let format = output.format, output.out == nil && format.lowercased() != "none" {
      throw ValidationError("--format \(format) needs --out DIR: raon diff writes files only into the folder --out names.")
    }
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    let (snapshotStore, path) = try store.openStore(environment, config: config, readOnly: true)
    let registry = FormatRegistry.standard
    let list = output.format ?? registry.defaults(for: .comparison).map(\.rawValue).joined(separator: ",")
    let formats = output.out == nil || list.lowercased() == "none" ? [] : try registry.parse([list], for: .comparison)
    var options = output.exportOptions(over: config, csvHeaders: headers.csvHeaders)
    let profile = try catalog.profile(for: snapshotStore, config: config)
    options.profile = profile
    let outcome = try DiffJob(store: snapshotStore, storePath: path, environment: environment, profile: profile)
      .run(from: from, to: to, formats: formats, out: output.out, options: options)
    for warning in outcome.warnings { Console.warning(warning) }
    print(outcome.summary + (outcome.directory.map { " — written to \($0.path)" } ?? ""))
    if failIfChanged && !outcome.diff.isEmpty { throw ExitCode(StatusCode.diffChanged) }
  }
}

extension DiffCommand: WritesOutput {
  static let outHelp = "Folder for the changes files; without it nothing is written."
  static var formatHelp: String { FormatRegistry.standard.help(for: .comparison) }
  static let formatExample = "md,csv (or none)"
}
