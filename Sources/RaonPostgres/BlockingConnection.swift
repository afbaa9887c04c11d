import Foundation
import PostgresNIO

/// One PostgreSQL connection used from Raon's synchronous jobs: the one place where Raon
/// waits for PostgresNIO.
///
/// PostgresNIO works on SwiftNIO's event loops and answers with futures; Raon's store API
/// is synchronous (the jobs, like GRDB's, block the calling thread). Each call here sends
/// one statement and blocks the calling thread until its future resolves
/// (`EventLoopFuture.wait()`). That is safe because the waiting thread is never an event
/// loop thread (the connection's I/O runs on NIO's shared event loop group) and never
/// needs a Swift concurrency thread to make progress, so a job blocked here on one of the
/// two cores cannot starve the connection it waits for — unlike waiting on a `Task` with a
/// semaphore, which can deadlock a small cooperative pool.
///
/// A connection serves one operation, on one thread, at a time (``ConnectionPool`` hands
/// it to the next), so a read-ahead thread and the thread writing a report never share one.
final class BlockingConnection {
  private let connection: PostgresConnection
  private let logger: Logger

  /// Opens a connection whose `search_path` is the store's schema, so every statement
  /// names tables as the SQLite store does.
  ///
  /// JIT compilation is turned off for the session: the lookups and inserts of a recording
  /// bind thousands of rows at once, so the planner's estimates pass `jit_above_cost` and
  /// PostgreSQL spent ~0.5 s compiling a query that then ran in 20 ms (measured on the
  /// sample). Both are startup parameters: no extra round trip.
  ///
  /// - Throws: PostgresNIO's or NIO's error (the caller words it, without the password).
  init(_ address: PostgresAddress) throws {
    var logger = Logger(label: "raon.postgres")
    // PostgresNIO logs at debug and trace; nothing of it belongs on Raon's standard error.
    logger.logLevel = .critical
    self.logger = logger
    var configuration = PostgresConnection.Configuration(
      host: address.host, port: address.port, username: address.user,
      password: address.password, database: address.database, tls: try Self.tls(address))
    configuration.options.connectTimeout = .seconds(10)
    configuration.options.additionalStartupParameters = [
      ("search_path", address.quotedSchema), ("jit", "off"),
    ]
    connection = try PostgresConnection.connect(
      on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1,
      logger: logger
    ).wait()
  }

  /// TLS as libpq's `sslmode` means it: `prefer` and `require` encrypt without checking
  /// the certificate, `verify-full` checks it against the system's roots and the host name.
  private static func tls(_ address: PostgresAddress) throws -> PostgresConnection.Configuration.TLS {
    var tls = TLSConfiguration.makeClientConfiguration()
    switch address.tls {
    case .disable:
      return .disable
    case .prefer:
      tls.certificateVerification = .none
      return .prefer(try NIOSSLContext(configuration: tls))
    case .require:
      tls.certificateVerification = .none
      return .require(try NIOSSLContext(configuration: tls))
    case .verifyFull:
      return .require(try NIOSSLContext(configuration: tls))
    }
  }

  /// Runs one statement and returns all its rows.
  @discardableResult
  func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
    try connection.query(query, logger: logger).wait()
  }

  /// Runs one statement whose text holds no values (only Raon's own SQL and the
  /// validated, quoted schema name).
  func run(_ sql: String) throws {
    try query(PostgresQuery(unsafeSQL: sql))
  }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  /// (A process killed meanwhile drops the connection, and the server rolls back.)
  func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
    try run(begin)
    let result: T
    do {
      result = try body()
    } catch {
      try? run("ROLLBACK")
      throw error
    }
    try run("COMMIT")
    return result
  }

  /// Closes the connection; a failure to close is of no consequence once the work is done.
  func close() {
    try? connection.close().wait()
  }
}
