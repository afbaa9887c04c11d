import Foundation

/// Where the snapshot store lives: `--db`, else `RAON_DB`, else a per-user data directory
/// (`$XDG_DATA_HOME/raon/raon.sqlite`, by default `~/.local/share/raon/raon.sqlite`).
///
/// An empty `--db` or `RAON_DB` is refused rather than read as "not given": a cron line
/// with `--db "$UNSET"` must not write to the default store's history.
public enum StoreLocation {
  /// - Throws: ``WorkflowError/emptyPath(option:)`` for an empty `--db`, config `db` or
  ///   `RAON_DB`.
  public static func resolve(explicit: String?, environment: RaonEnvironment) throws -> URL {
    if let path = explicit {
      guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw WorkflowError.emptyPath(option: "--db")
      }
      return environment.url(forPath: path)
    }
    if let path = environment.variables["RAON_DB"] {
      guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw WorkflowError.emptyPath(option: "RAON_DB")
      }
      return environment.url(forPath: path)
    }
    let dataHome: URL
    if let xdg = environment.variables["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = URL(fileURLWithPath: xdg)
    } else {
      let home = environment.variables["HOME"] ?? NSHomeDirectory()
      dataHome = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
    }
    return dataHome.appendingPathComponent("raon/raon.sqlite")
  }
}
