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
  ///
  /// With `readOnlyIfUnwritable`, an existing store on a read-only file or mount is opened
  /// for reading (a report that records nothing needs no more).
  func openStore(
    _ environment: RaonEnvironment, config: RaonConfig, readOnly: Bool = false,
    readOnlyIfUnwritable: Bool = false
  ) throws -> (SnapshotStore, String) {
    let url = try StoreLocation.resolve(explicit: db ?? config.db, environment: environment)
    let exists = FileManager.default.fileExists(atPath: url.path)
    if readOnly && !exists { throw WorkflowError.noStore(path: url.path) }
    let unwritable =
      exists
      && (access(url.path, W_OK) != 0 || access(url.deletingLastPathComponent().path, W_OK) != 0)
    let reading = readOnly || (readOnlyIfUnwritable && unwritable)
    return (try SnapshotStore(path: url.path, readOnly: reading), url.path)
  }
}
