import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real SMTP server on 127.0.0.1 for the mail tests: `raon_testkit.smtp_server` (Python's
/// aiosmtpd) with STARTTLS required (or TLS from the start), AUTH against one user and
/// password, and a certificate from a throwaway CA made for the test. Every message handed
/// over is kept as a file and read back with Python's standard MIME parser
/// (``messages()``).
///
/// ```swift
/// let smtp = try SMTPTestServer.start(in: dir, user: "raon", password: "pw")
/// // raon.toml: server = "smtp://127.0.0.1:\(smtp.port)", ca_file = smtp.caFile
/// let received = try smtp.messages()
/// smtp.stop()
/// ```
public final class SMTPTestServer: @unchecked Sendable {
  public let port: Int
  /// The CA that signed the server's certificate (PEM), for `ca_file`.
  public let caFile: String
  /// Where messages are kept (`NNNN.eml` and `NNNN.json`, the envelope).
  public let folder: URL
  public let user: String
  public let password: String
  private let certificates: URL
  private var process: Process?
  private let options: Options

  /// What the server does besides accepting mail.
  public struct Options: Sendable {
    /// Addresses refused at `RCPT TO` with 550.
    public var reject: [String] = []
    /// After this many messages, answer 421 to everything and exit (a server going away).
    public var stopAfter: Int?
    /// TLS from the first byte (`smtps://`) instead of STARTTLS.
    public var implicitTLS = false
    /// No TLS offered at all, AUTH taken in clear: a server a client must refuse.
    public var noStartTLS = false
    /// Every `MAIL FROM` refused with this code (553, 530): a refusal of the session.
    public var refuseSender: Int?
    /// Each message from the `slowFrom`th on answered this many seconds after its data
    /// arrived (`NNNN.arrived` marks the arrival); one whose client went away meanwhile is
    /// not kept.
    public var slow: Double?
    public var slowFrom = 1
    public init(
      reject: [String] = [], stopAfter: Int? = nil, implicitTLS: Bool = false, noStartTLS: Bool = false,
      refuseSender: Int? = nil, slow: Double? = nil, slowFrom: Int = 1
    ) {
      self.reject = reject
      self.stopAfter = stopAfter
      self.implicitTLS = implicitTLS
      self.noStartTLS = noStartTLS
      self.refuseSender = refuseSender
      self.slow = slow
      self.slowFrom = slowFrom
    }
  }

  private init(
    port: Int, caFile: String, folder: URL, certificates: URL, user: String, password: String, process: Process,
    options: Options
  ) {
    self.port = port
    self.caFile = caFile
    self.folder = folder
    self.certificates = certificates
    self.user = user
    self.password = password
    self.process = process
    self.options = options
  }

  /// Starts a server keeping its messages in `directory/mail` (certificates in
  /// `directory/certs`), on `port` (a free one when 0).
  public static func start(
    in directory: URL, user: String, password: String, port: Int = 0, options: Options = Options()
  ) throws -> SMTPTestServer {
    let folder = directory.appendingPathComponent("mail")
    let certificates = directory.appendingPathComponent("certs")
    let (process, port, ca) = try launch(
      folder: folder, certificates: certificates, user: user, password: password, port: port, options: options)
    return SMTPTestServer(
      port: port, caFile: ca, folder: folder, certificates: certificates, user: user, password: password,
      process: process, options: options)
  }

  /// Starts it again on the same port, with the same certificate and folder.
  public func restart(options: Options = Options()) throws -> SMTPTestServer {
    stop()
    let (process, port, ca) = try Self.launch(
      folder: folder, certificates: certificates, user: user, password: password, port: port, options: options)
    return SMTPTestServer(
      port: port, caFile: ca, folder: folder, certificates: certificates, user: user, password: password,
      process: process, options: options)
  }

  private static func launch(
    folder: URL, certificates: URL, user: String, password: String, port: Int, options: Options
  ) throws -> (Process, Int, String) {
    var arguments = [
      "python3", "-m", "raon_testkit.smtp_server", "--dir", folder.path, "--certs", certificates.path, "--user", user,
      "--password", password, "--port", String(port),
    ]
    for address in options.reject { arguments += ["--reject", address] }
    if let n = options.stopAfter { arguments += ["--stop-after", String(n)] }
    if options.implicitTLS { arguments.append("--implicit-tls") }
    if options.noStartTLS { arguments.append("--no-starttls") }
    if let code = options.refuseSender { arguments += ["--refuse-sender", String(code)] }
    if let seconds = options.slow { arguments += ["--slow", String(seconds), "--slow-from", String(options.slowFrom)] }
    return try launchPython(arguments)
  }

  /// Runs one of the test kit's servers (`python3 -m raon_testkit.…`) and reads the first
  /// line it prints, where it listens: `{"port": N, "ca": "…"}`.
  static func launchPython(_ arguments: [String]) throws -> (Process, Int, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts")
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    let handle = out.fileHandleForReading
    while !line.contains(10) {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    guard let object = try? JSONSerialization.jsonObject(with: line.prefix { $0 != 10 }) as? [String: Any],
      let port = object["port"] as? Int, let ca = object["ca"] as? String
    else {
      process.terminate()
      throw ServerDidNotStart(output: String(decoding: line, as: UTF8.self))
    }
    return (process, port, ca)
  }

  public struct ServerDidNotStart: Error, CustomStringConvertible {
    public var output: String
    public var description: String { "the SMTP test server did not start (is aiosmtpd installed?): \(output)" }
  }

  /// Whether the server still runs (a `stopAfter` server exits on its own).
  public var isRunning: Bool { process?.isRunning ?? false }

  /// Stops the server (SIGTERM) and waits for it.
  public func stop() {
    guard let process else { return }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    self.process = nil
  }

  /// Waits until a `stopAfter` server has exited.
  public func waitUntilGone() {
    process?.waitUntilExit()
  }

  deinit { stop() }

  /// Every message received so far, read back by Python's `email` package
  /// (`raon_testkit.mail`): from, to, subject, messageId, text, html, attachments
  /// (filename, size, sha256), rawHeaders, envelope (rcpt_tos, tls, login), …
  public func messages() throws -> [[String: Any]] {
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts").path
    let run = try Python.run([
      "-c", "import sys; sys.path.insert(0, sys.argv[1]); from raon_testkit.mail import main; sys.exit(main(sys.argv[1:]))",
      scripts, folder.path,
    ])
    guard run.status == 0 else { throw ServerDidNotStart(output: run.stderr) }
    return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
  }

  /// The raw bytes of every message received (for scans: no password anywhere).
  public func rawMessages() throws -> [Data] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return try names.filter { $0.hasSuffix(".eml") }.sorted().map {
      try Data(contentsOf: folder.appendingPathComponent($0))
    }
  }
}
