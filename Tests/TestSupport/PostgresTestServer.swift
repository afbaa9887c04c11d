import Foundation

/// A private PostgreSQL server for the tests: `initdb` and `pg_ctl` in a temporary folder,
/// listening on 127.0.0.1 only, on a free port, started once per test process and stopped
/// when it exits. As root (PostgreSQL refuses to run as root) it runs as `nobody`.
///
/// Each test takes a store of its own with ``url(schema:)`` (a fresh schema name), so
/// tests never see each other's snapshots.
public final class PostgresTestServer: @unchecked Sendable {
  /// The superuser's password (a test secret: redaction tests look for it in outputs).
  public static let password = "pg-test-secret-7Hq9"
  public let port: Int
  public let binaries: URL
  private let dataDirectory: URL

  /// The shared server, or why there is none (no PostgreSQL binaries, or it did not start).
  public static let shared: Result<PostgresTestServer, SkipReason> = start()

  /// Why the PostgreSQL tests cannot run here.
  public struct SkipReason: Error, CustomStringConvertible {
    public var description: String
  }

  /// The server, or `nil` after printing why its tests are skipped.
  public static func available(_ test: String = #function) -> PostgresTestServer? {
    switch shared {
    case .success(let server): return server
    case .failure(let reason):
      print("SKIPPED \(test): \(reason)")
      return nil
    }
  }

  /// Whether the tests that need a server run: binaries installed, server started.
  public static var isAvailable: Bool {
    if case .success = shared { return true }
    return false
  }

  /// A URL for a store of its own (a new schema), without the password (tests pass it in
  /// `PGPASSWORD`, or append it themselves).
  public func url(schema: String = PostgresTestServer.freshSchema()) -> String {
    "postgresql://postgres@127.0.0.1:\(port)/postgres?schema=\(schema)"
  }

  /// The URL with the password in it.
  public func urlWithPassword(schema: String = PostgresTestServer.freshSchema()) -> String {
    "postgresql://postgres:\(Self.password)@127.0.0.1:\(port)/postgres?schema=\(schema)"
  }

  /// The environment a process needs to reach the server (`PGPASSWORD`).
  public var environment: [String: String] { ["PGPASSWORD": Self.password] }

  /// A schema name no other test uses.
  public static func freshSchema() -> String {
    "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
  }

  /// Runs SQL through `psql` as the superuser and returns its output (unaligned, no headers).
  @discardableResult
  public func psql(_ sql: String) throws -> String {
    let result = try Self.run(
      binaries.appendingPathComponent("psql").path,
      ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
      environment: ["PGPASSWORD": Self.password], asServerUser: false)
    guard result.status == 0 else {
      throw SkipReason(description: "psql failed: \(result.output)")
    }
    return result.output
  }

  /// Turns TLS on with a new self-signed certificate (made with `openssl`).
  public func enableTLS() throws {
    let folder = dataDirectory.deletingLastPathComponent()
    let key = folder.appendingPathComponent("server.key").path
    let certificate = folder.appendingPathComponent("server.crt").path
    let made = try Self.run(
      "/usr/bin/openssl",
      ["req", "-new", "-x509", "-days", "2", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", certificate],
      asServerUser: true)
    guard made.status == 0 else { throw SkipReason(description: "openssl failed: \(made.output)") }
    try psql("ALTER SYSTEM SET ssl_cert_file = '\(certificate)'")
    try psql("ALTER SYSTEM SET ssl_key_file = '\(key)'")
    try psql("ALTER SYSTEM SET ssl = on")
    try psql("SELECT pg_reload_conf()")
    Thread.sleep(forTimeInterval: 0.3)
  }

  private init(port: Int, binaries: URL, dataDirectory: URL) {
    self.port = port
    self.binaries = binaries
    self.dataDirectory = dataDirectory
  }

  // MARK: - Starting and stopping

  private static func start() -> Result<PostgresTestServer, SkipReason> {
    guard let binaries = findBinaries() else {
      return .failure(SkipReason(description: "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb); install Debian's postgresql (scripts/install-deps.sh --test)"))
    }
    stopServersOfEndedRuns(binaries)
    do {
      let folder = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("raon-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
      let data = folder.appendingPathComponent("data")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let passwordFile = folder.appendingPathComponent("pw")
      try Data(password.utf8).write(to: passwordFile)
      if getuid() == 0 {
        // The server's files belong to the user it runs as.
        _ = try run("/bin/chown", ["-R", "nobody:nogroup", folder.path], asServerUser: false)
      }
      let initdb = try run(
        binaries.appendingPathComponent("initdb").path,
        ["-D", data.path, "-U", "postgres", "--pwfile", passwordFile.path, "--auth=scram-sha-256",
         "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
        asServerUser: true)
      guard initdb.status == 0 else {
        return .failure(SkipReason(description: "initdb failed: \(initdb.output.suffix(400))"))
      }
      let port = try freePort()
      let log = folder.appendingPathComponent("server.log")
      let options = "-h 127.0.0.1 -p \(port) -k \(folder.path) -c fsync=off -c max_connections=60"
      let started = try run(
        binaries.appendingPathComponent("pg_ctl").path,
        ["-D", data.path, "-l", log.path, "-o", options, "-w", "-t", "60", "start"],
        asServerUser: true)
      guard started.status == 0 else {
        let serverLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return .failure(SkipReason(description: "the test server did not start: \(started.output) \(serverLog.suffix(400))"))
      }
      let server = PostgresTestServer(port: port, binaries: binaries, dataDirectory: data)
      stopAtExit = { [binaries, data, folder] in
        _ = try? run(
          binaries.appendingPathComponent("pg_ctl").path,
          ["-D", data.path, "-m", "immediate", "-w", "stop"], asServerUser: true)
        try? FileManager.default.removeItem(at: folder)
      }
      atexit { PostgresTestServer.stopAtExit?() }
      return .success(server)
    } catch {
      return .failure(SkipReason(description: "the test server could not be set up: \(error)"))
    }
  }

  nonisolated(unsafe) private static var stopAtExit: (() -> Void)?

  /// Stops the servers of test processes that ended without stopping theirs (killed, or
  /// crashed: `atexit` never ran), found by the process id in their folder's name.
  private static func stopServersOfEndedRuns(_ binaries: URL) {
    let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    for name in names where name.hasPrefix("raon-pg-") {
      let parts = name.split(separator: "-")
      guard parts.count == 4, let pid = Int32(parts[2]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let folder = temporary.appendingPathComponent(name)
      _ = try? run(
        binaries.appendingPathComponent("pg_ctl").path,
        ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
        asServerUser: true)
      try? FileManager.default.removeItem(at: folder)
    }
  }

  /// The newest `/usr/lib/postgresql/N/bin` holding `initdb`, or `PG_BIN`.
  private static func findBinaries() -> URL? {
    if let bin = ProcessInfo.processInfo.environment["PG_BIN"] {
      return URL(fileURLWithPath: bin)
    }
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
      .compactMap(Int.init).sorted(by: >)
    for version in versions {
      let bin = URL(fileURLWithPath: "\(root)/\(version)/bin")
      if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path)
        && FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path)
      {
        return bin
      }
    }
    return nil
  }

  /// A port nothing listens on now: bound to port 0 on loopback, then released.
  private static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SkipReason(description: "no socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw SkipReason(description: "no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Runs a program and waits; as root and `asServerUser`, as `nobody`.
  ///
  /// Through `posix_spawn` and `waitpid`, not Foundation's `Process`: `pg_ctl start` leaves
  /// a server running that inherits the descriptors `Process` watches to learn that its
  /// child ended, so `Process.waitUntilExit()` would wait for the server to stop.
  private static func run(
    _ path: String, _ arguments: [String], environment: [String: String] = [:], asServerUser: Bool
  ) throws -> (status: Int32, output: String) {
    let argv = asServerUser && getuid() == 0 ? ["/sbin/runuser", "-u", "nobody", "--", path] + arguments : [path] + arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let output = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("raon-pg-output-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      cArguments.forEach { free($0) }
      cEnvironment.forEach { free($0) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
    guard spawned == 0 else { throw SkipReason(description: "cannot run \(argv[0]): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let data = (try? Data(contentsOf: output)) ?? Data()
    return (exited, String(decoding: data, as: UTF8.self))
  }
}
