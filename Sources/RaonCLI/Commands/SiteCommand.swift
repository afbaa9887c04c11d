import ArgumentParser
import Foundation
import RaonCore
import RaonExport
import RaonWorkflow

struct SiteCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "site",
    abstract: "The whole history as a static website: every week, every district (시·도), every program, and a search.",
    discussion: """
      Writes index.html, each week's report for the city and the 25 districts (weeks/<YYYY-Www>/, with its downloads), a page per district (for the national catalog: the country's report and a pack per 시·도, regions/<시·도>.html), trend.html, a page per program that ever appeared (programs/<id>.html: its changes and how it left, 종료 or 철회) and search.html, which works opened from disk. Each week is the latest snapshot taken within its ISO week (Korea time). The folder (default: site/) is replaced whole or not at all; a re-run renders only the weeks and programs that changed. Publish it by copying the folder to any static web server or a shared drive.

      Examples:
        raon site
        raon site --out /srv/www/raon --weeks 52
        raon site --lang en --format html,xlsx,pdf
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var catalog: CatalogOption

  @Option(name: .long, help: ArgumentHelp("Only the last N weeks with a snapshot.", valueName: "n"))
  var weeks: Int?

  @OptionGroup var output: OutputOptions<SiteCommand>

  @OptionGroup var headers: CSVHeadersOption

  func validate() throws {
    if let weeks, weeks < 1 { throw ValidationError("--weeks must be 1 or more (got \(weeks))") }
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    var request = SiteJob.Request()
    request.out = output.out
    request.weeks = weeks
    let registry = FormatRegistry.standard
    request.formats = try registry.parse(output.format.map { [$0] } ?? [], for: .site)
      .filter { registry.entry($0)?.use(in: .site) != .never }
    request.options = output.exportOptions(over: config, csvHeaders: headers.csvHeaders)
    if request.formats.contains(.pdf) { _ = try ChromiumPrinter.locate(in: environment.variables) }
    // Only reads: a mistyped --db must not become a new, empty store.
    let (snapshotStore, path) = try store.openStore(environment, config: config, readOnly: true)
    var job = SiteJob(store: snapshotStore, storePath: path, environment: environment)
    job.profile = try catalog.profile(for: snapshotStore, config: config)
    let outcome = try job.run(request)
    for warning in outcome.warnings { Console.warning(warning) }
    print(outcome.summary + " — written to \(outcome.directory.path)")
  }
}

extension SiteCommand: WritesOutput {
  static let outHelp = "Folder for the site (default: site)."
  static var formatHelp: String { FormatRegistry.standard.help(for: .site) }
  static let formatExample = "html,xlsx"
}
