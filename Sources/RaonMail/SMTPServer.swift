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
  ///   `smtps://` with a host, ``MailConfigurationError/badServerPort(_:)`` for a port
  ///   outside 1–65535 or not a number, ``MailConfigurationError/badEHLOName(_:)`` for a
  ///   path that is not a host name (libcurl says it in `EHLO`).
  public init(
    url text: String, user: String? = nil, password: MailPassword? = nil, caFile: String? = nil,
    connectTimeout: Int = 30, timeout: Int = 120
  ) throws {
    self.url = try Self.checked(text)
    self.user = user
    self.password = password
    self.caFile = caFile
    self.connectTimeout = connectTimeout
    self.timeout = timeout
  }

  /// `text` as a server URL, each part checked before libcurl sees it.
  private static func checked(_ text: String) throws -> URL {
    let bad = MailConfigurationError.badServerURL(text)
    guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value != 127 }),
      let schemeEnd = text.range(of: "://")
    else { throw bad }
    guard ["smtp", "smtps"].contains(text[..<schemeEnd.lowerBound].lowercased()) else { throw bad }
    let rest = text[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let path = rest.dropFirst(authority.count)
    guard !authority.contains("@"), !path.contains("?"), !path.contains("#") else { throw bad }
    // host[:port], or [v6][:port]
    var host = authority
    var port: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw bad }
      host = authority[...close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw bad }
        port = after.dropFirst()
      }
    } else if let colon = authority.firstIndex(of: ":") {
      host = authority[..<colon]
      port = authority[authority.index(after: colon)...]
    }
    guard isHost(host) else { throw bad }
    if let port {
      guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(port),
        (1...65_535).contains(n)
      else { throw MailConfigurationError.badServerPort(text) }
    }
    // libcurl takes the path, percent-decoded, as the EHLO name.
    let name = path.drop { $0 == "/" }
    guard name.isEmpty || (path.hasPrefix("/") && !path.dropFirst().contains("/") && isHost(name)) else {
      throw MailConfigurationError.badEHLOName(text)
    }
    guard let url = URL(string: text), url.host != nil else { throw bad }
    return url
  }

  /// A name of letters, digits and inner hyphens in dot-separated labels, an IPv4
  /// address, or an IPv6 address in brackets.
  private static func isHost(_ text: Substring) -> Bool {
    if text.hasPrefix("[") {
      return text.hasSuffix("]") && text.count > 2
        && text.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let labels = text.split(separator: ".", omittingEmptySubsequences: false)
    return !text.isEmpty && text.utf8.count <= 253
      && labels.allSatisfy { label in
        !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
          && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
      }
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
      // An environment file written with CRLF line ends leaves a CR on the value.
      var bytes = Substring(value).utf8[...]
      while let last = bytes.last, last == 10 || last == 13 { bytes = bytes.dropLast() }
      return MailPassword(String(decoding: bytes, as: UTF8.self))
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
    let password = firstLine(of: text)
    guard !password.isEmpty else {
      throw MailConfigurationError.passwordFile(path: passwordFile, problem: "its first line is empty")
    }
    return MailPassword(password)
  }
}

extension MailPassword {
  /// The first line of a password file, as `.pgpass` and `--password-file` options read
  /// it: up to the first LF, CR or CRLF (an editor on Windows ends lines in CRLF), without
  /// a byte-order mark before it. Nothing else is trimmed: a space may be part of it.
  ///
  /// Bytes, not Characters: Swift reads `"\r\n"` as one Character, which is not `"\n"`.
  static func firstLine(of text: String) -> String {
    var bytes = Substring(text).utf8[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    return String(decoding: bytes.prefix { $0 != 10 && $0 != 13 }, as: UTF8.self)
  }
}

/// A mail setting that cannot be used.
public enum MailConfigurationError: RaonError, Equatable, CustomStringConvertible {
  public var exitStatus: ExitStatus { .config }
  case badServerURL(String)
  /// A port outside 1–65535, empty or not a number.
  case badServerPort(String)
  /// A path after the host that is not a host name (libcurl sends it in `EHLO`).
  case badEHLOName(String)
  case passwordFile(path: String, problem: String)

  public var description: String {
    switch self {
    case .badServerURL(let text):
      "'\(Self.shown(text))' is not a mail server — write smtp://host:587 (STARTTLS) or smtps://host:465 (TLS), without a user or password in it"
    case .badServerPort(let text):
      "'\(Self.shown(text))' has no usable port (a number from 1 to 65535) — write smtp://host:587 (STARTTLS) or smtps://host:465 (TLS)"
    case .badEHLOName(let text):
      "'\(Self.shown(text))' has a path that is not a host name (it is said in EHLO) — remove it, or write smtp://host:587/this.machine.name"
    case .passwordFile(let path, let problem):
      "the SMTP password file \(path) cannot be used: \(problem)"
    }
  }

  /// The URL as a message may show it: a login in it (`smtp://user:password@host`) hidden.
  static func shown(_ text: String) -> String {
    guard let start = text.range(of: "://")?.upperBound else { return text }
    let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
    guard let at = text[start..<authorityEnd].lastIndex(of: "@") else { return text }
    return String(text[..<start]) + "(hidden)" + String(text[at...])
  }
}
