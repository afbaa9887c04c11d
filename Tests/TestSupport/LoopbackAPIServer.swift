import FlyingFox
import Foundation

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
  private let server: HTTPServer
  private let task: Task<Void, Error>

  private init(baseURL: URL, key: String, state: State, server: HTTPServer, task: Task<Void, Error>) {
    self.baseURL = baseURL
    self.key = key
    self.state = state
    self.server = server
    self.task = task
  }

  /// Starts a server over `rows` (API upper-case keys) accepting `key`.
  public static func start(key: String, rows: [[String: String]]) async throws
    -> LoopbackAPIServer
  {
    let state = State(key: key, rows: rows)
    let server = HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled,
      handler: ClosureHTTPHandler { request in await state.answer(request) })
    let task = Task { try await server.run() }
    try await server.waitUntilListening(timeout: 10)
    guard case .ip4(_, let port)? = await server.listeningAddress,
      let url = URL(string: "http://127.0.0.1:\(port)")
    else {
      task.cancel()
      throw URLError(.cannotConnectToHost)
    }
    return LoopbackAPIServer(baseURL: url, key: key, state: state, server: server, task: task)
  }

  /// Makes the next `times` requests whose START is `start` (any request when nil) fail
  /// with `fault`. Rules are consulted in the order they were added.
  public func inject(_ fault: Fault, forPageStarting start: Int? = nil, times: Int = 1) async {
    await state.addRule(Rule(start: start, fault: fault, remaining: times))
  }

  /// After the first answer for rows starting at 1, inserts `row` at the front: the total
  /// grows by one and every later row shifts down, as when the catalog changes mid-paging.
  public func insertRowAtFrontAfterFirstPage(_ row: [String: String]) async {
    await state.setPendingInsertion(row)
  }

  /// The request paths served so far, in arrival order (they contain the key).
  public func requestPaths() async -> [String] { await state.log }

  /// Stops listening.
  public func stop() async {
    await server.stop(timeout: 1)
    task.cancel()
  }

  // MARK: - State

  struct Rule: Sendable {
    var start: Int?
    var fault: Fault
    var remaining: Int
  }

  actor State {
    let key: String
    var rows: [[String: String]]
    var rules: [Rule] = []
    var pendingInsertion: [String: String]?
    var log: [String] = []

    init(key: String, rows: [[String: String]]) {
      self.key = key
      self.rows = rows
    }

    func addRule(_ rule: Rule) { rules.append(rule) }
    func setPendingInsertion(_ row: [String: String]) { pendingInsertion = row }

    func answer(_ request: HTTPRequest) async -> HTTPResponse {
      log.append(request.path)
      let parts = request.path.split(separator: "/").map(String.init)
      guard parts.count == 5, parts[1] == "json", parts[2] == "culturalEventInfo",
        let start = Int(parts[3]), let end = Int(parts[4]), start >= 1, end >= start
      else {
        return Self.json(result("ERROR-300", "필수 값이 누락되어 있습니다."))
      }
      guard parts[0] == key else {
        return Self.json(result("INFO-100", "인증키가 유효하지 않습니다."))
      }
      if let index = rules.firstIndex(where: { $0.remaining > 0 && ($0.start ?? start) == start }) {
        rules[index].remaining -= 1
        switch rules[index].fault {
        case .httpStatus(let status):
          return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: "Error"),
            body: Data("<html><body>\(status) Error</body></html>".utf8))
        case .resultCode(let code, let message):
          return Self.json(result(code, message))
        case .body(let text, let contentType):
          return HTTPResponse(
            statusCode: .ok, headers: [.contentType: contentType], body: Data(text.utf8))
        case .htmlBody:
          return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "text/html"],
            body: Data(
              "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>\n<h1>Bad Gateway</h1><p>while requesting \(request.path)</p></body></html>"
                .utf8))
        case .truncatedJSON:
          let full = page(start: start, end: end)
          return HTTPResponse(statusCode: .ok, body: full.prefix(full.count / 2))
        case .delay(let duration):
          // The actor is reentrant: other requests are answered while this one waits.
          try? await Task.sleep(for: duration)
        case .resetMidBody:
          let full = page(start: start, end: end)
          return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "application/json"],
            body: ResettingBody.sequence(sending: Array(full.prefix(full.count / 2)), of: full.count))
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
      return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
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

    private static func json(_ body: Data) -> HTTPResponse {
      HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }
  }
}
