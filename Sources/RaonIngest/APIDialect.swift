import Foundation
import RaonCore
import RaonErrors

/// Why one attempt at a page failed: worth retrying, or not.
enum APIAttemptFailure: RaonError {
  var exitStatus: ExitStatus { .failure }
  case retryable(String)
  case fatal(OpenAPIError)
}

/// How one catalog's Open API is asked for a page and how its answers read
/// (``CatalogAPIShape/Style``): the part of ``OpenAPIClient`` that differs between the
/// Seoul Open API and the public data portal. Paging, retries, concurrency and the
/// completeness check are the client's, the same for both.
struct APIDialect: Sendable {
  let shape: CatalogAPIShape

  /// The request for rows `start…end` (page `index` of `pageSize` rows); `nil` when the
  /// base and key make no URL.
  func requestURL(base: URL, key: String, index: Int, start: Int, end: Int, pageSize: Int) -> URL? {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    switch shape.style {
    case .keyInPath(let service):
      guard let key = key.addingPercentEncoding(withAllowedCharacters: KeyRedactor.unreserved) else { return nil }
      return URL(string: "\(text)/\(key)/json/\(service)/\(start)/\(end)/")
    case .keyInQuery(let operation):
      // The portal hands out a key twice: as it is, and percent-encoded ("Encoding" key).
      // An encoded one is sent as it is; any other is encoded here.
      let sent: String
      if key.contains("%"), key.removingPercentEncoding != nil {
        sent = key
      } else {
        guard let encoded = key.addingPercentEncoding(withAllowedCharacters: KeyRedactor.unreserved) else { return nil }
        sent = encoded
      }
      return URL(string: "\(text)/\(operation)?serviceKey=\(sent)&pageNo=\(index)&numOfRows=\(pageSize)&type=json")
    }
  }

  /// The error for a missing key.
  var missingKey: OpenAPIError {
    switch shape.style {
    case .keyInPath: return .missingKey
    case .keyInQuery: return .noKey(variable: shape.keyVariable, portal: shape.keyPortal)
    }
  }

  /// Whether identical rows may stand in the catalog (the portal's rows have no id: two
  /// identical rows are two rows, which the normalisation flags; Seoul's have one).
  var keepsIdenticalRows: Bool {
    if case .keyInQuery = shape.style { return true }
    return false
  }

  /// The total's name in the answers, for messages.
  var totalName: String {
    switch shape.style {
    case .keyInPath: return "list_total_count"
    case .keyInQuery: return "totalCount"
    }
  }

  /// A row's identity, for telling rows served twice: Seoul's portal URL's cultcode, or a
  /// hash of the whole raw record.
  func identity(of record: RawRecord) -> String {
    if case .keyInPath = shape.style, let url = record[.portalURL], let id = ProgramID.fromPortalURL(url) {
      return id
    }
    var hasher = SHA256()
    for (name, value) in zip(record.names.names, record.values) {
      hasher.update(name)
      hasher.update([0x1F])
      hasher.update(value ?? "\u{0}")
      hasher.update([0x1E])
    }
    return "raw:" + SHA256.hexString(hasher.finalize())
  }

  /// The page an answer holds, or why it holds none.
  ///
  /// - Throws: ``APIAttemptFailure``.
  func page(
    _ body: [UInt8], status: Int, page: String, source: String, firstRow: Int, isFirst: Bool,
    redactor: KeyRedactor, snippet: ([UInt8]) -> String
  ) throws -> OpenAPIPage {
    let firstByte = body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    let parsed: OpenAPIPage
    switch shape.style {
    case .keyInPath:
      if firstByte == UInt8(ascii: "<"), let result = APIResultXML.read(body) {
        // The service answers errors in XML even on /json/ requests.
        parsed = OpenAPIPage(totalCount: nil, resultCode: result.code, resultMessage: result.message, records: [])
      } else {
        parsed = try json(body, firstByte: firstByte, status: status, page: page, redactor: redactor, snippet: snippet) {
          try JSONCatalogReader.readAPIPage(body, source: source, firstRow: firstRow)
        }
      }
    case .keyInQuery:
      if firstByte == UInt8(ascii: "<"), let xml = PortalAPIPage.readXML(body, source: source, firstRow: firstRow) {
        parsed = xml
      } else {
        parsed = try json(body, firstByte: firstByte, status: status, page: page, redactor: redactor, snippet: snippet) {
          let root = try JSONCatalogReader.parse(body, source: source)
          guard let found = try PortalAPIPage.read(root: root, source: source, firstRow: firstRow) else {
            throw JSONCatalogError.unrecognizedShape(source: source, found: JSONCatalogReader.shape(of: root))
          }
          return found
        }
      }
    }
    return try verdict(parsed, page: page, isFirst: isFirst, redactor: redactor)
  }

  private func json(
    _ body: [UInt8], firstByte: UInt8?, status: Int, page: String, redactor: KeyRedactor,
    snippet: ([UInt8]) -> String, _ read: () throws -> OpenAPIPage
  ) throws -> OpenAPIPage {
    guard firstByte == UInt8(ascii: "{") else {
      throw APIAttemptFailure.fatal(.notJSON(page: page, status: status, snippet: snippet(body)))
    }
    do {
      return try read()
    } catch let error as JSONCatalogError {
      throw APIAttemptFailure.fatal(.malformedJSON(page: page, detail: redactor.excerpt(error.detail, limit: 200)))
    }
  }

  /// The page when its result says rows, else the failure its result code means.
  private func verdict(_ parsed: OpenAPIPage, page: String, isFirst: Bool, redactor: KeyRedactor) throws
    -> OpenAPIPage
  {
    let message = redactor.excerpt(parsed.resultMessage ?? "")
    switch shape.style {
    case .keyInPath:
      let code = parsed.resultCode ?? "INFO-000"
      switch code {
      case "INFO-000":
        return parsed
      case "INFO-100":
        throw APIAttemptFailure.fatal(.badKey(page: page, message: message))
      case "INFO-200":
        // On page 1 the catalog is empty; later, the catalog shrank while being paged,
        // which the completeness check turns into a new plan.
        if isFirst { throw APIAttemptFailure.fatal(.noData(page: page, message: message)) }
        return OpenAPIPage(totalCount: nil, resultCode: code, resultMessage: message, records: [])
      case "ERROR-500", "ERROR-600", "ERROR-601":
        throw APIAttemptFailure.retryable("\(code) \(message)")
      case let other where other.hasPrefix("ERROR-3"):
        throw APIAttemptFailure.fatal(.requestRejected(page: page, code: other, message: message))
      default:
        throw APIAttemptFailure.fatal(.unexpectedResult(page: page, code: code, message: message))
      }
    case .keyInQuery:
      // A page without a result code but with its body is taken as it is.
      let code = (parsed.resultCode ?? PortalAPIPage.success).trimmingCharacters(in: .whitespaces)
      switch code {
      case PortalAPIPage.success, "0", "000":
        return parsed
      case "03":
        // NODATA_ERROR: as INFO-200.
        if isFirst { throw APIAttemptFailure.fatal(.noData(page: page, message: "\(code) \(message)")) }
        return OpenAPIPage(totalCount: nil, resultCode: code, resultMessage: message, records: [])
      case "01", "02", "04", "05", "99":
        // Application, database, HTTP, time-out and unknown errors on the portal's side.
        throw APIAttemptFailure.retryable("resultCode \(code) \(message)")
      case "20", "21", "30", "31", "32", "33":
        throw APIAttemptFailure.fatal(
          .keyRefused(page: page, code: code, message: message, variable: shape.keyVariable, portal: shape.keyPortal))
      case "22":
        throw APIAttemptFailure.fatal(.requestRejected(page: page, code: code, message: message + " (the key's daily requests are used up; try again tomorrow)"))
      default:
        throw APIAttemptFailure.fatal(.requestRejected(page: page, code: code, message: message))
      }
    }
  }
}
