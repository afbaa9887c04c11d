import ArgumentParser
import Foundation
import RaonStore
import RaonWorkflow

/// Options every command that reads the store shares.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The snapshot store: an SQLite file (a path or sqlite:PATH) or postgresql://user@host:port/database[?schema=NAME].",
      discussion: "Default: $RAON_DB if set, else ~/.local/share/raon/raon.sqlite (or under $XDG_DATA_HOME). A PostgreSQL password comes from the URL, $PGPASSWORD or ~/.pgpass and is never printed.",
      valueName: "path|url"))
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

  /// Opens the store chosen by `--db`, the config, `RAON_DB` or the default (see
  /// ``StoreOpening/open(_:environment:readOnly:readOnlyIfUnwritable:)``), and says where
  /// it is as messages may print it (never a password).
  func openStore(
    _ environment: RaonEnvironment, config: RaonConfig, readOnly: Bool = false,
    readOnlyIfUnwritable: Bool = false
  ) throws -> (any SnapshotStoring, String) {
    let address = try StoreAddress.resolve(explicit: db ?? config.db, environment: environment)
    let store = try StoreOpening.open(
      address, environment: environment, readOnly: readOnly, readOnlyIfUnwritable: readOnlyIfUnwritable)
    return (store, store.location)
  }

  /// The store, for a command that needs nothing else from the environment or the config.
  func openStore(readOnly: Bool) throws -> any SnapshotStoring {
    let environment = Console.environment()
    return try openStore(environment, config: try loadConfig(environment), readOnly: readOnly).0
  }
}
