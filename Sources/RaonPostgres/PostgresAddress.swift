import Foundation
import RaonErrors

/// A PostgreSQL store's address: `postgresql://user[:password]@host[:port]/database`,
/// with `?schema=NAME` (default `raon`) and `?sslmode=disable|prefer|require|verify-full`
/// (default `prefer`: TLS when the server offers it, as libpq does). As in libpq, the user
/// and the password may also be given as `?user=NAME` and `?password=SECRET` (they then
/// win over the URL's user part).
///
/// The password comes from the URL, else `PGPASSWORD`, else the password file
/// (`PGPASSFILE`, default `~/.pgpass`). It is never part of ``redacted``, the only form
/// Raon ever prints, nor of ``redact(_:)``'s text.
public struct PostgresAddress: Sendable, Equatable {
  public enum TLSMode: String, Sendable {
    case disable, prefer, require
    case verifyFull = "verify-full"
  }

  public var user: String
  public var host: String
  public var port: Int
  public var database: String
  /// The PostgreSQL schema holding the store's tables; checked by ``validSchemaName(_:)``.
  public var schema: String
  public var tls: TLSMode
  /// `nil`: none found (the server may not ask for one).
  var password: String?

  /// The schema when the URL names none.
  public static let defaultSchema = "raon"

  /// Whether `text` names a PostgreSQL store (`postgresql://` or `postgres://`).
  public static func isPostgresURL(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
  }

  /// Parses a URL and finds its password.
  ///
  /// - Parameter environment: Where `PGPASSWORD`, `PGPASSFILE`, `PGUSER` and `HOME` are read.
  /// - Throws: ``PostgresAddressError`` naming the URL without its password.
  public init(url text: String, environment: [String: String]) throws {
    let shown = Self.redact(text)
    guard Self.isPostgresURL(text), let components = URLComponents(string: text) else {
      throw PostgresAddressError(url: shown, problem: "it is not a URL of the form postgresql://user@host:port/database")
    }
    user = components.user ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
    host = components.host.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 } ?? ""
    if host.isEmpty { host = "localhost" }
    port = components.port ?? 5432
    guard (1...65535).contains(port) else {
      throw PostgresAddressError(url: shown, problem: "the port \(port) is not between 1 and 65535")
    }
    let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
    database = path.isEmpty ? user : path
    schema = Self.defaultSchema
    tls = .prefer
    var queryPassword: String?
    for item in components.queryItems ?? [] {
      switch item.name {
      case "user":
        guard let name = item.value, !name.isEmpty else {
          throw PostgresAddressError(url: shown, problem: "user= takes a user name")
        }
        user = name
        if path.isEmpty { database = name }
      case "password":
        queryPassword = item.value ?? ""
      case "schema":
        guard let name = item.value, Self.validSchemaName(name) else {
          throw PostgresAddressError(
            url: shown, problem: "schema= takes a name of letters, digits and _ (not starting with a digit, at most 63)")
        }
        schema = name
      case "sslmode":
        guard let value = item.value, let mode = TLSMode(rawValue: value) else {
          throw PostgresAddressError(url: shown, problem: "sslmode= is one of disable, prefer, require, verify-full")
        }
        tls = mode
      default:
        throw PostgresAddressError(url: shown, problem: "unknown parameter '\(item.name)' (Raon knows schema=, sslmode=, user= and password=)")
      }
    }
    if let given = queryPassword, !given.isEmpty {
      password = given
    } else if let given = components.password, !given.isEmpty {
      password = given
    } else if let variable = environment["PGPASSWORD"], !variable.isEmpty {
      password = variable
    } else {
      password = PasswordFile(environment: environment)?.password(
        host: host, port: port, database: database, user: user)
    }
  }

  /// The address as Raon prints it: never the password.
  public var redacted: String {
    let hostPart = host.contains(":") ? "[\(host)]" : host
    let schemaPart = schema == Self.defaultSchema ? "" : "?schema=\(schema)"
    return "postgresql://\(user)@\(hostPart):\(port)/\(database)\(schemaPart)"
  }

  /// `schema` quoted as an SQL identifier (validated names only, so no quote can be in it).
  var quotedSchema: String { "\"\(schema)\"" }

  /// A plain identifier: a letter or `_`, then letters, digits or `_`, 63 bytes at most
  /// (PostgreSQL's limit), so it can be quoted without escaping.
  public static func validSchemaName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.utf8.count <= 63 else { return false }
    let letters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
    let rest = letters.union(CharacterSet(charactersIn: "0123456789"))
    return letters.contains(first) && name.unicodeScalars.allSatisfy { rest.contains($0) }
  }

  /// A URL with whatever stands between `user:` and `@`, and the value of `password=` (and
  /// of any parameter Raon does not show), replaced by `***`, for messages about a URL
  /// that may not parse.
  public static func redact(_ text: String) -> String {
    redactQueryPasswords(redactUserPart(text))
  }

  private static func redactUserPart(_ text: String) -> String {
    guard let scheme = text.range(of: "://") else { return text }
    let rest = text[scheme.upperBound...]
    // The last `@` anywhere: a password may hold `?`, `/` or `#`; one in a parameter's
    // value only hides more than needed.
    guard let at = rest.lastIndex(of: "@") else { return text }
    let credentials = rest[..<at]
    guard let colon = credentials.firstIndex(of: ":") else { return text }
    return String(text[..<colon]) + ":***" + String(text[at...])
  }

  /// The query with the value of every parameter but `schema`, `sslmode` and `user`
  /// replaced by `***` (up to the next `&`): `password=`'s, and any other's, which may be a
  /// mistyped `password` (`passwd=`, `Password=`).
  private static func redactQueryPasswords(_ text: String) -> String {
    guard let question = text.firstIndex(of: "?") else { return text }
    let shown: Set<String> = ["schema", "sslmode", "user"]
    let items = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
      .map { item -> String in
        guard let equals = item.firstIndex(of: "=") else { return String(item) }
        return shown.contains(String(item[..<equals])) ? String(item) : String(item[...equals]) + "***"
      }
    return String(text[...question]) + items.joined(separator: "&")
  }

  /// Replaces the password wherever it appears in `text` (a server's message, say).
  func scrub(_ text: String) -> String {
    guard let password, !password.isEmpty else { return text }
    var out = text.replacingOccurrences(of: password, with: "***")
    if let escaped = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
      escaped != password
    {
      out = out.replacingOccurrences(of: escaped, with: "***")
    }
    return out
  }
}

/// A PostgreSQL URL that cannot be used; the URL is shown without its password.
public struct PostgresAddressError: RaonError, CustomStringConvertible, Equatable {
  public var url: String
  public var problem: String

  public var description: String {
    "cannot use the PostgreSQL store \(url): \(problem) — fix --db, RAON_DB or db = in raon.toml"
  }
}

extension PostgresAddressError {
  public var exitStatus: ExitStatus {
    // A malformed `--db`/`RAON_DB` URL: the command was given wrongly (in the config file
    // it is caught while the config is read, 78).
    .usage
  }
}
