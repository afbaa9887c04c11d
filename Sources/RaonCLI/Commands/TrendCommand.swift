import ArgumentParser
import Foundation
import RaonCore
import RaonExport
import RaonWorkflow

struct TrendCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trend",
    abstract:
      "The weekly trend: one point per ISO week with a snapshot, over the whole history or a range.",
    discussion: """
      Each point is the latest snapshot taken within its ISO week (Korea time), counted for its own week: programs, current, running, starting, registered, and ids added and removed against the point before. Writes trend.md (+ charts/trend.svg), trend.xlsx, trend.csv and trend.json (default: reports/trend/).

      Examples:
        raon trend
        raon trend --weeks 12 --format csv,json
        raon trend --from 2024-W30 --to 2024-W52 --lang en --out /tmp/trend
      """)

  @OptionGroup var store: StoreOptions

  @OptionGroup var catalog: CatalogOption

  @Option(name: .long, help: ArgumentHelp("The first week, inclusive.", valueName: "YYYY-Www"))
  var from: String?

  @Option(name: .long, help: ArgumentHelp("The last week, inclusive.", valueName: "YYYY-Www"))
  var to: String?

  @Option(
    name: .long,
    help: ArgumentHelp("Only the last N weeks with a snapshot (of the range).", valueName: "n"))
  var weeks: Int?

  @OptionGroup var output: OutputOptions<TrendCommand>

  func validate() throws {
    if let weeks, weeks < 1 { throw ValidationError("--weeks must be 1 or more (got \(weeks))") }
    let first = try Self.week(from, option: "--from")
    let last = try Self.week(to, option: "--to")
    if let first, let last, first > last {
      throw ValidationError("--from \(first) is after --to \(last) — swap them")
    }
  }

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    let formats = try Self.formats(output.format)
    // Only reads: a mistyped --db must not become a new, empty store.
    let (snapshotStore, path) = try store.openStore(environment, config: config, readOnly: true)
    let profile = try catalog.profile(for: snapshotStore, config: config)
    let range = TrendJob.Range(
      from: try Self.week(from, option: "--from"), to: try Self.week(to, option: "--to"),
      weeks: weeks)
    var job = TrendJob(store: snapshotStore, storePath: path, environment: environment)
    job.profile = profile
    var options = output.exportOptions(over: config)
    options.profile = profile
    let outcome = try job.run(range, formats: formats, out: output.out, options: options)
    for warning in outcome.warnings { Console.warning(warning) }
    print(outcome.summary + (outcome.directory.map { " — written to \($0.path)" } ?? ""))
  }

  /// The trend's formats (the registry's, `all` or `none`); a format the trend is not
  /// written in is refused.
  private static func formats(_ text: String?) throws -> [ReportFormat] {
    if text?.lowercased() == "none" { return [] }
    let registry = FormatRegistry.standard
    let parsed = try registry.parse(text.map { [$0] } ?? [], for: .trend)
    let others = parsed.filter { registry.entry($0)?.use(in: .trend) == .never }
    // Formats listed beside `all` are dropped, not refused.
    if text?.lowercased().contains("all") == true { return parsed.filter { !others.contains($0) } }
    if !others.isEmpty {
      let trend = TrendWriters.formats.map(\.rawValue)
      let listed = trend.count > 1 ? trend.dropLast().joined(separator: ", ") + " and " + (trend.last ?? "") : trend.joined()
      throw ValidationError(
        "raon trend writes \(listed), not \(others.map(\.rawValue).joined(separator: ", ")) — the weekly report's HTML has the trend"
      )
    }
    return parsed
  }

  private static func week(_ text: String?, option: String) throws -> ISOWeek? {
    guard let text else { return nil }
    guard let week = ISOWeek(text) else {
      throw ValidationError(
        "\(option) '\(text)' is not an ISO week — write it as YYYY-Www, e.g. 2024-W37")
    }
    return week
  }
}

extension TrendCommand: WritesOutput {
  static let outHelp = "Folder for the trend files (default: reports/trend)."
  static var formatHelp: String { FormatRegistry.standard.help(for: .trend) }
  static let formatExample = "md,csv (or none)"
}
