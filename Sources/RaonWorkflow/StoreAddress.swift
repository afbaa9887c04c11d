import Foundation
import RaonPostgres
import RaonStore

/// Which store `--db`, `db =` in `raon.toml` or `RAON_DB` names: a PostgreSQL URL
/// (`postgresql://…` or `postgres://…`) or an SQLite file (a path, or `sqlite:PATH`); the
/// per-user SQLite file when none is given.
public enum StoreAddress: Equatable, Sendable {
  case sqlite(URL)
  /// The URL as given (it may hold a password: print ``display`` only).
  case postgres(String)

  /// - Throws: ``WorkflowError/emptyPath(option:)`` for an empty value (see
  ///   ``StoreLocation``).
  public static func resolve(explicit: String?, environment: RaonEnvironment) throws -> StoreAddress {
    let given: (value: String, option: String)? =
      explicit.map { ($0, "--db") } ?? environment.variables["RAON_DB"].map { ($0, "RAON_DB") }
    guard let given else {
      return .sqlite(try StoreLocation.resolve(explicit: nil, environment: environment))
    }
    if PostgresAddress.isPostgresURL(given.value) { return .postgres(given.value) }
    var path = given.value
    if path.hasPrefix("sqlite:") { path.removeFirst("sqlite:".count) }
    // Named here, not by StoreLocation: it would call an empty RAON_DB "--db".
    guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw WorkflowError.emptyPath(option: given.option)
    }
    return .sqlite(try StoreLocation.resolve(explicit: path, environment: environment))
  }

  /// The address as Raon prints it: a path, or the URL without its password.
  public var display: String {
    switch self {
    case .sqlite(let url): return url.path
    case .postgres(let text): return PostgresAddress.redact(text)
    }
  }
}
