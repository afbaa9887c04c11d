import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real HTTP server on 127.0.0.1 that plays the public data portal's Open API
/// (`GET /{operation}?serviceKey=KEY&pageNo=N&numOfRows=M&type=json|xml`) over given rows,
/// with faults a test scripts per page: the portal's result codes, its gateway's XML errors,
/// HTTP errors, pages short of rows.
///
/// The key is checked as the portal checks it: the `serviceKey` value is percent-decoded
/// and compared with the key (so a client may send the key encoded or as it is, once
/// encoded). A wrong key gets the gateway's `<OpenAPI_ServiceResponse>` (reason code 30).
/// Runs on the same blocking listener as ``LoopbackAPIServer`` (see there why).
public final class LoopbackPortalServer: Sendable {
  /// Something that goes wrong with one answer.
  public enum Fault: Sendable {
    /// Answer with this HTTP status and a short HTML body.
    case httpStatus(Int)
    /// Answer 200 with the JSON header's `resultCode` and `resultMsg`, no items.
    case resultCode(String, message: String)
    /// Answer 200 with the gateway's XML error (`returnReasonCode`, `returnAuthMsg`).
    case gatewayError(code: String, auth: String)
    /// Answer the right page with its last `count` rows left out (`totalCount` unchanged).
    case dropLastRows(Int)
    /// Answer the right page with another `totalCount`.
    case totalCount(Int)
  }

  public let baseURL: URL
  public let key: String
  public let operation: String
  private let state: State
  private let listener: LoopbackAPIServer.Listener

  private init(baseURL: URL, key: String, operation: String, state: State, listener: LoopbackAPIServer.Listener) {
    self.baseURL = baseURL
    self.key = key
    self.operation = operation
    self.state = state
    self.listener = listener
  }

  /// Starts a server over `rows` (the API's keys) accepting `key`; pages in XML when
  /// `xml` (whatever `type` asks), else as `type` asks.
  public static func start(
    key: String, rows: [[(key: String, value: String)]],
    operation: String = "tn_pubr_public_pblprfr_event_info_api", xml: Bool = false
  ) async throws -> LoopbackPortalServer {
    let state = State(key: key, rows: rows, operation: operation, forceXML: xml)
    let listener = try LoopbackAPIServer.Listener()
    guard let url = URL(string: "http://127.0.0.1:\(listener.port)") else {
      listener.stop()
      throw URLError(.cannotConnectToHost)
    }
    listener.serve { fd in Self.handle(fd, state: state) }
    return LoopbackPortalServer(baseURL: url, key: key, operation: operation, state: state, listener: listener)
  }

  /// Makes the next `times` requests for page `page` (any page when nil) fail with `fault`.
  public func inject(_ fault: Fault, forPage page: Int? = nil, times: Int = 1) async {
    state.addRule(Rule(page: page, fault: fault, remaining: times))
  }

  /// The request targets (path and query, as sent: the key in them) in arrival order.
  public func requestTargets() async -> [String] { state.log }

  public func stop() async { listener.stop() }

  // MARK: - One connection

  private static func handle(_ fd: Int32, state: State) {
    defer { _ = Glibc.close(fd) }
    guard let target = readTarget(fd) else { return }
    let (status, contentType, body) = state.answer(target)
    let phrase = status == 200 ? "OK" : "Error"
    let head = Array(
      "HTTP/1.1 \(status) \(phrase)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        .utf8)
    let bytes = head + body
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return }
      offset += n
    }
  }

  /// The target of `GET TARGET HTTP/1.1`, once the headers have arrived.
  private static func readTarget(_ fd: Int32) -> String? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while received.count < 65_536 {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return nil }
      received += buffer[0..<n]
      if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
    }
    let line = String(decoding: received.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "GET" else { return nil }
    return String(parts[1])
  }

  // MARK: - State

  struct Rule: Sendable {
    var page: Int?
    var fault: Fault
    var remaining: Int
  }

  final class State: @unchecked Sendable {
    let key: String
    let rows: [[(key: String, value: String)]]
    let operation: String
    let forceXML: Bool
    // Guarded by `lock`.
    private let lock = NSLock()
    private var rules: [Rule] = []
    private var requests: [String] = []

    init(key: String, rows: [[(key: String, value: String)]], operation: String, forceXML: Bool) {
      self.key = key
      self.rows = rows
      self.operation = operation
      self.forceXML = forceXML
    }

    var log: [String] {
      lock.lock()
      defer { lock.unlock() }
      return requests
    }

    func addRule(_ rule: Rule) {
      lock.lock()
      rules.append(rule)
      lock.unlock()
    }

    func answer(_ target: String) -> (Int, String, [UInt8]) {
      lock.lock()
      defer { lock.unlock() }
      requests.append(target)
      let pieces = target.split(separator: "?", maxSplits: 1).map(String.init)
      var query: [String: String] = [:]
      for pair in (pieces.count > 1 ? pieces[1] : "").split(separator: "&") {
        let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
        // A query decodes `+` as a space, then percent escapes.
        let value = kv.count > 1 ? (kv[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? kv[1]) : ""
        query[kv[0]] = value
      }
      guard pieces[0] == "/" + operation else {
        return (404, "text/html", Array("<html><body>404 Not Found</body></html>".utf8))
      }
      guard query["serviceKey"] == key else {
        return gateway("30", "SERVICE_KEY_IS_NOT_REGISTERED_ERROR")
      }
      guard let page = Int(query["pageNo"] ?? ""), let size = Int(query["numOfRows"] ?? ""), page >= 1, size >= 1 else {
        return json(code: "10", message: "INVALID_REQUEST_PARAMETER_ERROR", items: [], total: nil, page: 0, size: 0)
      }
      let xml = forceXML || query["type"]?.lowercased() != "json"
      var items = Array(rows.dropFirst((page - 1) * size).prefix(size))
      var total = rows.count
      if let index = rules.firstIndex(where: { $0.remaining > 0 && ($0.page ?? page) == page }) {
        rules[index].remaining -= 1
        switch rules[index].fault {
        case .httpStatus(let status):
          return (status, "text/html", Array("<html><body>\(status) Error</body></html>".utf8))
        case .resultCode(let code, let message):
          return json(code: code, message: message, items: [], total: nil, page: page, size: size)
        case .gatewayError(let code, let auth):
          return gateway(code, auth)
        case .dropLastRows(let count):
          items.removeLast(min(count, items.count))
        case .totalCount(let count):
          total = count
        }
      }
      return xml
        ? xmlPage(items: items, total: total, page: page, size: size)
        : json(code: "00", message: "NORMAL SERVICE.", items: items, total: total, page: page, size: size)
    }

    private func gateway(_ code: String, _ auth: String) -> (Int, String, [UInt8]) {
      let body = """
        <OpenAPI_ServiceResponse>
        \t<cmmMsgHeader>
        \t\t<errMsg>SERVICE ERROR</errMsg>
        \t\t<returnAuthMsg>\(auth)</returnAuthMsg>
        \t\t<returnReasonCode>\(code)</returnReasonCode>
        \t</cmmMsgHeader>
        </OpenAPI_ServiceResponse>
        """
      return (200, "text/xml;charset=UTF-8", Array(body.utf8))
    }

    private func json(
      code: String, message: String, items: [[(key: String, value: String)]], total: Int?, page: Int, size: Int
    ) -> (Int, String, [UInt8]) {
      func quoted(_ s: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [s], options: [])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
      }
      let objects = items.map { item in
        "{" + item.map { "\(quoted($0.key)):\(quoted($0.value))" }.joined(separator: ",") + "}"
      }
      var body = "{\"response\":{\"header\":{\"resultCode\":\(quoted(code)),\"resultMsg\":\(quoted(message))}"
      if let total {
        body += ",\"body\":{\"items\":[" + objects.joined(separator: ",") + "],\"numOfRows\":\"\(size)\",\"pageNo\":\"\(page)\",\"totalCount\":\"\(total)\"}"
      }
      body += "}}"
      return (200, "application/json;charset=UTF-8", Array(body.utf8))
    }

    private func xmlPage(items: [[(key: String, value: String)]], total: Int, page: Int, size: Int) -> (Int, String, [UInt8]) {
      func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
          .replacingOccurrences(of: ">", with: "&gt;")
      }
      var body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><response><header><resultCode>00</resultCode><resultMsg>NORMAL SERVICE.</resultMsg></header><body><items>"
      for item in items {
        body += "<item>" + item.map { "<\($0.key)>\(escaped($0.value))</\($0.key)>" }.joined() + "</item>"
      }
      body += "</items><numOfRows>\(size)</numOfRows><pageNo>\(page)</pageNo><totalCount>\(total)</totalCount></body></response>"
      return (200, "text/xml;charset=UTF-8", Array(body.utf8))
    }
  }
}
