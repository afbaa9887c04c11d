import Foundation
import RaonErrors
#if canImport(Glibc)
  import Glibc
#endif

/// Where and how to send: the server's URL (`smtp://host:587` — STARTTLS required — or
/// `smtps://host:465`, TLS from the start), the login, and a private CA to trust.
///
/// The password is a ``MailPassword``: it prints as `(hidden)` and is handed only to the
/// transport.
public struct SMTPServer: Sendable, Equatable {
  public var url: URL
  public var user: String?
  public var password: MailPassword?
  /// A PEM file of CA certificates to trust instead of the system's.
  public var caFile: String?
  /// Seconds to connect, and for one message's whole conversation.
  public var connectTimeout: Int
  public var timeout: Int

  /// - Throws: ``MailConfigurationError/badServerURL(_:)`` for anything but `smtp://` or
  ///   `smtps://` with a host.
  public init(
    url text: String, user: String? = nil, password: MailPassword? = nil, caFile: String? = nil,
    connectTimeout: Int = 30, timeout: Int = 120
  ) throws {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["smtp", "smtps"].contains(scheme),
      let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.query == nil
    else { throw MailConfigurationError.badServerURL(text) }
    self.url = url
    self.user = user
    self.password = password
    self.caFile = caFile
    self.connectTimeout = connectTimeout
    self.timeout = timeout
  }

  /// `smtps://`: TLS from the first byte; else STARTTLS is required.
  public var implicitTLS: Bool { url.scheme?.lowercased() == "smtps" }

  /// `host:port` for messages.
  public var displayName: String {
    let port = url.port ?? (implicitTLS ? 465 : 25)
    return "\(url.scheme?.lowercased() ?? "smtp")://\(url.host ?? "?"):\(port)"
  }
}

/// The SMTP password: from `RAON_SMTP_PASSWORD`, or a file only its owner can read. Its
/// description never shows it, so it cannot reach a message, a log or the ledger by way of
/// string interpolation.
public struct MailPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  /// For the transport only.
  public let secret: String

  public init(_ secret: String) { self.secret = secret }

  public var description: String { "(hidden)" }
  public var debugDescription: String { "(hidden)" }

  /// The environment variable the password comes from.
  public static let variable = "RAON_SMTP_PASSWORD"

  /// The password from `RAON_SMTP_PASSWORD` (when set and not blank), else from
  /// `passwordFile`, else `nil`.
  ///
  /// - Throws: ``MailConfigurationError`` when the file cannot be read, is not a regular
  ///   file, or may be read by anyone but its owner.
  public static func resolve(environment: [String: String], passwordFile: String?) throws -> MailPassword? {
    if let value = environment[variable], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      return MailPassword(value)
    }
    guard let passwordFile else { return nil }
    var info = stat()
    guard stat(passwordFile, &info) == 0 else {
      throw MailConfigurationError.passwordFile(path: passwordFile, problem: "it cannot be read (\(String(cString: strerror(errno))))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw MailConfigurationError.passwordFile(path: passwordFile, problem: "it is not a regular file")
    }
    guard info.st_mode & 0o077 == 0 else {
      let mode = String(info.st_mode & 0o777, radix: 8)
      throw MailConfigurationError.passwordFile(
        path: passwordFile, problem: "others may read it (mode \(mode)) — run 'chmod 600 \(passwordFile)'")
    }
    guard let data = FileManager.default.contents(atPath: passwordFile), data.count <= 4_096,
      let text = String(data: data, encoding: .utf8)
    else {
      throw MailConfigurationError.passwordFile(path: passwordFile, problem: "it cannot be read as a short UTF-8 text")
    }
    // The first line, as `.pgpass` and `--password-file` options read it.
    let first = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let password = first.hasSuffix("\r") ? String(first.dropLast()) : String(first)
    guard !password.isEmpty else {
      throw MailConfigurationError.passwordFile(path: passwordFile, problem: "its first line is empty")
    }
    return MailPassword(password)
  }
}

/// A mail setting that cannot be used.
public enum MailConfigurationError: RaonError, Equatable, CustomStringConvertible {
  public var exitStatus: ExitStatus { .config }
  case badServerURL(String)
  case passwordFile(path: String, problem: String)

  public var description: String {
    switch self {
    case .badServerURL(let text):
      "'\(text)' is not a mail server — write smtp://host:587 (STARTTLS) or smtps://host:465 (TLS), without a user or password in it"
    case .passwordFile(let path, let problem):
      "the SMTP password file \(path) cannot be used: \(problem)"
    }
  }
}
