import Foundation

/// Where the snapshot store lives: `--db`, else `RAON_DB`, else a per-user data directory
/// (`$XDG_DATA_HOME/raon/raon.sqlite`, by default `~/.local/share/raon/raon.sqlite`).
public enum StoreLocation {
  public static func resolve(explicit: String?, environment: RaonEnvironment) -> URL {
    if let path = explicit, !path.isEmpty { return environment.url(forPath: path) }
    if let path = environment.variables["RAON_DB"], !path.isEmpty {
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
