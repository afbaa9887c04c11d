import Foundation
import RaonPostgres
import RaonStore

/// Which store `--db`, `db =` in `raon.toml` or `RAON_DB` names: a PostgreSQL URL
/// (`postgresql://…` or `postgres://…`) or an SQLite file (a path, or `sqlite:PATH`); the
/// per-user SQLite file when none is given. Any other `SCHEME://` is refused
/// (``unknownScheme(of:)``) rather than taken for a file path.
public enum StoreAddress: Equatable, Sendable {
  case sqlite(URL)
  /// The URL as given (it may hold a password: print ``display`` only).
  case postgres(String)

  /// - Throws: ``WorkflowError/emptyPath(option:)`` for an empty value (see
  ///   ``StoreLocation``), ``WorkflowError/unknownStoreScheme(_:option:)`` for a URL of
  ///   another database.
  public static func resolve(explicit: String?, environment: RaonEnvironment) throws -> StoreAddress {
    let given: (value: String, option: String)? =
      explicit.map { ($0, "--db") } ?? environment.variables["RAON_DB"].map { ($0, "RAON_DB") }
    guard let given else {
      return .sqlite(try StoreLocation.resolve(explicit: nil, environment: environment))
    }
    if PostgresAddress.isPostgresURL(given.value) { return .postgres(given.value) }
    if let scheme = unknownScheme(of: given.value) {
      throw WorkflowError.unknownStoreScheme(scheme, option: given.option)
    }
    var path = given.value
    if path.hasPrefix("sqlite:") { path.removeFirst("sqlite:".count) }
    // Named here, not by StoreLocation: it would call an empty RAON_DB "--db".
    guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw WorkflowError.emptyPath(option: given.option)
    }
    return .sqlite(try StoreLocation.resolve(explicit: path, environment: environment))
  }

  /// The schemes a store's URL may have, as messages list them.
  public static let knownSchemes = "postgresql://…, postgres://… or sqlite:PATH"

  /// The scheme of `text` when it is a URL (`SCHEME://…`, RFC 3986's scheme) of a database
  /// Raon does not know: `mysql` for `mysql://x/y`, `postgresq` for a misspelt URL. A path
  /// with a colon elsewhere (`backup:2024.sqlite`) is a path.
  public static func unknownScheme(of text: String) -> String? {
    guard let end = text.range(of: "://") else { return nil }
    let scheme = text[..<end.lowerBound]
    guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
      scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) })
    else { return nil }
    return ["postgresql", "postgres", "sqlite"].contains(scheme.lowercased()) ? nil : String(scheme)
  }

  /// The address as Raon prints it: a path, or the URL without its password.
  public var display: String {
    switch self {
    case .sqlite(let url): return url.path
    case .postgres(let text): return PostgresAddress.redact(text)
    }
  }
}
