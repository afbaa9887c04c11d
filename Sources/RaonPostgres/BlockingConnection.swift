import Foundation
import PostgresNIO
import RaonConcurrency
import RaonErrors

/// One PostgreSQL connection used from Raon's synchronous jobs: the one place where Raon
/// waits for PostgresNIO.
///
/// PostgresNIO works on SwiftNIO's event loops and answers with futures; Raon's store API
/// is synchronous (the jobs, like GRDB's, block the calling thread). Each call here sends
/// one statement and blocks the calling thread until its future resolves
/// (through a ``PendingResult``). That is safe because the waiting thread is never an event
/// loop thread (the connection's I/O runs on NIO's shared event loop group) and never
/// needs a Swift concurrency thread to make progress, so a job blocked here on one of the
/// two cores cannot starve the connection it waits for — unlike waiting on a `Task` with a
/// semaphore, which can deadlock a small cooperative pool.
///
/// A connection serves one operation, on one thread, at a time (``ConnectionPool`` hands
/// it to the next), so a read-ahead thread and the thread writing a report never share one.
///
/// Every wait also ends when the connection closes (``waitOrClosed(_:)``): PostgresNIO
/// hands a statement to its channel without watching that write, so a statement sent
/// after the server dropped the connection (a `ROLLBACK` after the error that said so, the
/// next `FETCH`) got a future that nothing would ever complete, and raon waited forever.
final class BlockingConnection: @unchecked Sendable {
  private let connection: PostgresConnection
  private let logger: Logger
  /// Fails the statement being waited for once the connection has closed.
  private let closing = CloseWatch()

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
    connection = try Self.outcome(
      PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1,
        logger: logger))
    let closing = self.closing
    let eventLoop = connection.eventLoop
    connection.closeFuture.whenComplete { _ in
      eventLoop.scheduleTask(in: Self.closeGrace) { closing.closed() }
    }
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
    guard !connection.isClosed else { throw ConnectionClosed() }
    return try waitOrClosed(connection.query(query, logger: logger))
  }

  /// How long a statement's own outcome may still come after its connection closed: the
  /// server's reason (`57P01`, "terminating connection due to administrator command") is
  /// read before the close and fails the statement on the same event loop at once; the
  /// wait is for safety only.
  static let closeGrace: TimeAmount = .milliseconds(500)

  /// The outcome of `future`, or ``ConnectionClosed`` once the connection has closed and
  /// the future did not complete within ``closeGrace``.
  private func waitOrClosed<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
    let outcome = PendingResult<T>()
    // The first outcome wins: the statement's, or the connection's closing.
    closing.watch { outcome.fulfil(.failure($0)) }
    defer { closing.unwatch() }
    future.whenComplete { outcome.fulfil($0) }
    return try outcome.wait().get()
  }

  /// Waits, on this (non event loop) thread, for the outcome of `future`.
  private static func outcome<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
    let outcome = PendingResult<T>()
    future.whenComplete { outcome.fulfil($0) }
    return try outcome.wait().get()
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
    _ = try? Self.outcome(connection.close())
  }
}

/// The connection to the server closed while a statement waited for its outcome, or
/// before it was sent.
struct ConnectionClosed: RaonError, CustomStringConvertible {
  var description: String {
    "the connection to the server was closed (the server stopped, or its process for this connection was ended)"
  }
}

/// The failure of the one statement a ``BlockingConnection`` waits for, called when the
/// connection has closed (then, or at once for a statement waited for afterwards).
private final class CloseWatch: Sendable {
  private struct State {
    var fail: (@Sendable (Error) -> Void)?
    var isClosed = false
  }
  private let state = Guarded(State())

  func watch(_ fail: @escaping @Sendable (Error) -> Void) {
    let closedAlready = state.withLock { state in
      state.fail = fail
      return state.isClosed
    }
    if closedAlready { fail(ConnectionClosed()) }
  }

  func unwatch() {
    state.withLock { $0.fail = nil }
  }

  func closed() {
    let fail = state.withLock { state in
      state.isClosed = true
      return state.fail
    }
    fail?(ConnectionClosed())
  }
}

extension ConnectionClosed {
  var exitStatus: ExitStatus { .failure }
}
