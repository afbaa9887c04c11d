import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real HTTP server on 127.0.0.1 (a free port) that plays the Seoul Open API's
/// `GET /{KEY}/json/culturalEventInfo/{START}/{END}/` over given rows, with faults that
/// tests script per request or page.
///
/// ```swift
/// let server = try await LoopbackAPIServer.start(key: "K", rows: rows)
/// await server.inject(.httpStatus(500), forPageStarting: 1001, times: 2)
/// // … client with baseURL: server.baseURL …
/// await server.stop()
/// ```
///
/// Hand-written on blocking sockets and threads of its own rather than on FlyingFox (used
/// here before), for a measured reason: FlyingFox accepts and answers on Swift's
/// cooperative pool, which has two threads on a 2-core machine, and every test waiting for
/// a child process holds one. With two such tests at once no server accepted at all: the
/// children's requests sat unread in the listen queue until their 30 s timeout (`ss -tanp`
/// showed them; 24 failures in one full run while the machine was busy). A test server
/// must not depend on the scheduling of the tests it serves. It speaks just what the
/// client needs: one GET per connection, `Connection: close`.
public final class LoopbackAPIServer: Sendable {
  /// Something that goes wrong with one answer.
  public enum Fault: Sendable {
    /// Answer with this HTTP status and a short HTML body.
    case httpStatus(Int)
    /// Answer 200 with `{"RESULT": {"CODE": code, "MESSAGE": message}}`.
    case resultCode(String, message: String)
    /// Answer 200 with this body as it is (the flat `{"CODE","MESSAGE"}` error shape, the
    /// XML `<RESULT>` one), under this content type.
    case body(String, contentType: String)
    /// Answer 200 with an HTML error page (which echoes the request path, key and all,
    /// as careless proxies do).
    case htmlBody
    /// Answer 200 with the right page cut in half.
    case truncatedJSON
    /// Wait this long, then answer normally.
    case delay(Duration)
    /// Send the status line, the headers (with the full `Content-Length`) and half the
    /// right page, then close the connection: a connection reset mid-body.
    case resetMidBody
    /// Answer the right page with its last `count` rows left out (a 1,000-row page that
    /// really holds 999), `list_total_count` unchanged.
    case dropLastRows(Int)
    /// Answer the right page with its first `count` rows replaced by the last `count` rows
    /// of the page before (rows duplicated across pages, the replaced ones never served).
    case repeatRowsOfPreviousPage(Int)
  }

  /// The base URL to give the client, e.g. `http://127.0.0.1:54321`.
  public let baseURL: URL
  /// The key the server accepts.
  public let key: String
  private let state: State
  private let listener: Listener

  private init(baseURL: URL, key: String, state: State, listener: Listener) {
    self.baseURL = baseURL
    self.key = key
    self.state = state
    self.listener = listener
  }

  /// Starts a server over `rows` (API upper-case keys) accepting `key`.
  public static func start(key: String, rows: [[String: String]]) async throws
    -> LoopbackAPIServer
  {
    let state = State(key: key, rows: rows)
    let listener = try Listener()
    guard let url = URL(string: "http://127.0.0.1:\(listener.port)") else {
      listener.stop()
      throw URLError(.cannotConnectToHost)
    }
    listener.serve { fd in Self.handle(fd, state: state) }
    return LoopbackAPIServer(baseURL: url, key: key, state: state, listener: listener)
  }

  /// Makes the next `times` requests whose START is `start` (any request when nil) fail
  /// with `fault`. Rules are consulted in the order they were added.
  public func inject(_ fault: Fault, forPageStarting start: Int? = nil, times: Int = 1) async {
    state.addRule(Rule(start: start, fault: fault, remaining: times))
  }

  /// After the first answer for rows starting at 1, inserts `row` at the front: the total
  /// grows by one and every later row shifts down, as when the catalog changes mid-paging.
  public func insertRowAtFrontAfterFirstPage(_ row: [String: String]) async {
    state.setPendingInsertion(row)
  }

  /// The request paths served so far, in arrival order (they contain the key).
  public func requestPaths() async -> [String] { state.log }

  /// Stops listening (connections being answered finish on their own threads).
  public func stop() async {
    listener.stop()
  }

  /// ``stop()`` for synchronous code (a test's `defer`).
  public func stopNow() {
    listener.stop()
  }

  // MARK: - One connection

  /// Reads one request, answers it and closes the connection.
  private static func handle(_ fd: Int32, state: State) {
    var closeWithReset = false
    defer {
      if closeWithReset {
        // SO_LINGER 0: close sends RST, what a client sees as a connection reset.
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      }
      _ = Glibc.close(fd)
    }
    guard let path = readRequestPath(fd) else { return }
    var answer = state.answer(path, delayed: false)
    if case .delay(let duration) = answer {
      let (seconds, attoseconds) = duration.components
      Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
      answer = state.answer(path, delayed: true)
    }
    switch answer {
    case .delay:
      return
    case .respond(let status, let contentType, let body):
      write(fd, head(status: status, contentType: contentType, length: body.count) + body)
    case .resetMidBody(let contentType, let prefix, let declaredLength):
      write(fd, head(status: 200, contentType: contentType, length: declaredLength) + prefix)
      closeWithReset = true
    }
  }

  /// The path of `GET PATH HTTP/1.1`, once the request's headers have arrived.
  private static func readRequestPath(_ fd: Int32) -> String? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    while received.count < 65_536 {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return nil }
      received += buffer[0..<n]
      if received.count >= 4, received.indices.dropLast(3).contains(where: { Array(received[$0..<$0 + 4]) == end }) {
        break
      }
    }
    let line = String(decoding: received.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "GET" else { return nil }
    // The path without its query, percent-decoded as FlyingFox gave it.
    let target = parts[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
    return target.removingPercentEncoding ?? target
  }

  private static func head(status: Int, contentType: String, length: Int) -> [UInt8] {
    let phrase = status == 200 ? "OK" : "Error"
    return Array(
      "HTTP/1.1 \(status) \(phrase)\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
        .utf8)
  }

  private static func write(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return }
      offset += n
    }
  }

  // MARK: - Listening socket

  /// A listening socket on 127.0.0.1 with an accept loop on a thread of its own; each
  /// connection is answered on its own thread.
  final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stopped = false

    init() throws {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw URLError(.cannotConnectToHost) }
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = 0
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
      }
      let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
      }
      guard bound == 0, listen(fd, 128) == 0, named == 0 else {
        _ = Glibc.close(fd)
        throw URLError(.cannotConnectToHost)
      }
      self.fd = fd
      self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func serve(_ handle: @escaping @Sendable (Int32) -> Void) {
      let thread = Thread { [self] in
        while true {
          let connection = accept(fd, nil, nil)
          if connection < 0 {
            if errno == EINTR { continue }
            break  // stopped: the socket was shut down
          }
          if isStopped {
            _ = Glibc.close(connection)
            break
          }
          Thread.detachNewThread { handle(connection) }
        }
        _ = Glibc.close(fd)
      }
      thread.start()
    }

    private var isStopped: Bool {
      lock.lock()
      defer { lock.unlock() }
      return stopped
    }

    func stop() {
      lock.lock()
      let wasStopped = stopped
      stopped = true
      lock.unlock()
      // Wakes the accept loop, which then closes the socket.
      if !wasStopped { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }

  // MARK: - State

  struct Rule: Sendable {
    var start: Int?
    var fault: Fault
    var remaining: Int
  }

  /// What a connection sends back.
  enum Answer {
    case respond(status: Int, contentType: String, body: [UInt8])
    /// Wait, then ask again with `delayed: true`.
    case delay(Duration)
    /// The status line, the headers with the full length, part of the body, then a reset.
    case resetMidBody(contentType: String, prefix: [UInt8], declaredLength: Int)
  }

  /// The catalog, the scripted faults and the request log, shared by the connection
  /// threads. Each answer is computed under the lock; a delay is waited out without it, so
  /// other requests are answered meanwhile.
  final class State: @unchecked Sendable {
    let key: String
    // Guarded by `lock`.
    private let lock = NSLock()
    private var rows: [[String: String]]
    private var rules: [Rule] = []
    private var pendingInsertion: [String: String]?
    private var requests: [String] = []

    init(key: String, rows: [[String: String]]) {
      self.key = key
      self.rows = rows
    }

    var log: [String] { locked { requests } }

    func addRule(_ rule: Rule) { locked { rules.append(rule) } }
    func setPendingInsertion(_ row: [String: String]) { locked { pendingInsertion = row } }

    private func locked<T>(_ body: () -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body()
    }

    /// The answer to `GET path`; `delayed` when asked again after a `.delay` fault (the
    /// request is then neither logged nor matched against the rules a second time).
    func answer(_ path: String, delayed: Bool) -> Answer {
      locked { unlockedAnswer(path, delayed: delayed) }
    }

    private func unlockedAnswer(_ path: String, delayed: Bool) -> Answer {
      if !delayed { requests.append(path) }
      let parts = path.split(separator: "/").map(String.init)
      guard parts.count == 5, parts[1] == "json", parts[2] == "culturalEventInfo",
        let start = Int(parts[3]), let end = Int(parts[4]), start >= 1, end >= start
      else {
        return Self.json(result("ERROR-300", "필수 값이 누락되어 있습니다."))
      }
      guard parts[0] == key else {
        return Self.json(result("INFO-100", "인증키가 유효하지 않습니다."))
      }
      if !delayed, let index = rules.firstIndex(where: { $0.remaining > 0 && ($0.start ?? start) == start }) {
        rules[index].remaining -= 1
        switch rules[index].fault {
        case .httpStatus(let status):
          return .respond(
            status: status, contentType: "text/html",
            body: Array("<html><body>\(status) Error</body></html>".utf8))
        case .resultCode(let code, let message):
          return Self.json(result(code, message))
        case .body(let text, let contentType):
          return .respond(status: 200, contentType: contentType, body: Array(text.utf8))
        case .htmlBody:
          return .respond(
            status: 200, contentType: "text/html",
            body: Array(
              "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>\n<h1>Bad Gateway</h1><p>while requesting \(path)</p></body></html>"
                .utf8))
        case .truncatedJSON:
          let full = page(start: start, end: end)
          return .respond(status: 200, contentType: "application/json", body: Array(full.prefix(full.count / 2)))
        case .delay(let duration):
          return .delay(duration)
        case .resetMidBody:
          let full = page(start: start, end: end)
          return .resetMidBody(
            contentType: "application/json", prefix: Array(full.prefix(full.count / 2)),
            declaredLength: full.count)
        case .dropLastRows(let count):
          return Self.json(page(start: start, end: end, dropLast: count))
        case .repeatRowsOfPreviousPage(let count):
          return Self.json(page(start: start, end: end, repeatPrevious: count))
        }
      }
      if end - start + 1 > 1_000 {
        return Self.json(result("ERROR-336", "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."))
      }
      guard start <= rows.count else {
        return Self.json(result("INFO-200", "해당하는 데이터가 없습니다."))
      }
      let body = page(start: start, end: end)
      if start == 1, let row = pendingInsertion {
        pendingInsertion = nil
        rows.insert(row, at: 0)
      }
      return Self.json(body)
    }
    private func page(start: Int, end: Int, dropLast: Int = 0, repeatPrevious: Int = 0) -> Data {
      var slice = Array(rows[(start - 1)..<min(end, rows.count)])
      slice.removeLast(min(dropLast, slice.count))
      if repeatPrevious > 0 {
        let n = min(repeatPrevious, start - 1, slice.count)
        slice.replaceSubrange(0..<n, with: rows[(start - 1 - n)..<(start - 1)])
      }
      let object: [String: Any] = [
        "culturalEventInfo": [
          "list_total_count": rows.count,
          "RESULT": ["CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"],
          "row": slice,
        ] as [String: Any]
      ]
      return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    private func result(_ code: String, _ message: String) -> Data {
      let object = ["RESULT": ["CODE": code, "MESSAGE": message]]
      return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    private static func json(_ body: Data) -> Answer {
      .respond(status: 200, contentType: "application/json", body: Array(body))
    }
  }
}
