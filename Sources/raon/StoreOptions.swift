import ArgumentParser
import Foundation
import RaonStore
import RaonWorkflow

/// Options every command that reads the store shares.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The snapshot store (SQLite file).",
      discussion: "Default: $RAON_DB if set, else ~/.local/share/raon/raon.sqlite (or under $XDG_DATA_HOME).",
      valueName: "path"))
  var db: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A config file with defaults (TOML). Default: ./raon.toml when present.", valueName: "path"))
  var config: String?

  /// The config file's defaults (empty when there is none).
  func loadConfig(_ environment: RaonEnvironment) throws -> RaonConfig {
    try RaonConfig.load(explicit: config, environment: environment)
  }

  /// Opens the store chosen by `--db`, the config, `RAON_DB` or the default: creating it
  /// if needed, or, for commands that only read, never creating or writing anything.
  func openStore(
    _ environment: RaonEnvironment, config: RaonConfig, readOnly: Bool = false
  ) throws -> (SnapshotStore, String) {
    let url = try StoreLocation.resolve(explicit: db ?? config.db, environment: environment)
    if readOnly && !FileManager.default.fileExists(atPath: url.path) {
      throw WorkflowError.noStore(path: url.path)
    }
    return (try SnapshotStore(path: url.path, readOnly: readOnly), url.path)
  }
}
