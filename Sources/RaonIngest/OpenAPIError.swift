import RaonErrors

/// Why fetching the catalog from the Open API failed. Every text in it is redacted: the
/// API key never appears (see ``KeyRedactor``).
public enum OpenAPIError: RaonError, CustomStringConvertible, Equatable {
  /// No key was configured.
  case missingKey
  /// The base URL and key do not form a valid request URL.
  case invalidURL(base: String)
  /// INFO-100: the service rejected the key.
  case badKey(page: String, message: String)
  /// INFO-200 on the first page (or a total of 0): the catalog is empty.
  case noData(page: String, message: String)
  /// ERROR-3xx: the service refused the request (336: more than 1,000 rows asked).
  case requestRejected(page: String, code: String, message: String)
  /// A RESULT code this client does not know.
  case unexpectedResult(page: String, code: String, message: String)
  /// A page without `list_total_count`.
  case missingTotal(page: String)
  /// An HTTP status that retrying will not fix (e.g. 404).
  case httpStatus(page: String, status: Int, snippet: String)
  /// The body is not JSON (e.g. an HTML error page from a proxy).
  case notJSON(page: String, status: Int, snippet: String)
  /// The body is JSON that is truncated or not a page.
  case malformedJSON(page: String, detail: String)
  /// Every attempt at one page failed.
  case retriesExhausted(page: String, attempts: Int, lastProblem: String)
  /// The pages never agreed into one complete catalog.
  case incomplete(attempts: Int, detail: String)

  public var description: String {
    switch self {
    case .missingKey:
      return "no Open API key: set SEOUL_API_KEY to your key from data.seoul.go.kr"
    case .invalidURL(let base):
      return "cannot build a request URL from the base \(base) and the key; check "
        + "--api-base and SEOUL_API_KEY"
    case .badKey(let page, let message):
      return "the API key was refused (INFO-100\(message.isEmpty ? "" : ": " + message)) at "
        + "\(page) — set SEOUL_API_KEY to a valid key from data.seoul.go.kr"
    case .noData(let page, let message):
      return "the Open API has no data (INFO-200 \(message)) at \(page); nothing was "
        + "recorded — try again later"
    case .requestRejected(let page, let code, let message):
      let hint =
        code == "ERROR-336"
        ? "ask for at most 1,000 rows per page" : "check --api-base and the request"
      return "the Open API refused \(page) with \(code) (\(message)); \(hint)"
    case .unexpectedResult(let page, let code, let message):
      return "the Open API answered \(page) with the unknown result \(code) (\(message)); "
        + "try again later"
    case .missingTotal(let page):
      return "the Open API's answer for \(page) lacks list_total_count; is --api-base the "
        + "Seoul Open API?"
    case .httpStatus(let page, let status, let snippet):
      return "the Open API answered \(page) with HTTP \(status) (\(snippet)); check "
        + "--api-base"
    case .notJSON(let page, let status, let snippet):
      return "the Open API answered \(page) with something other than JSON (HTTP "
        + "\(status): \(snippet)); the service or a proxy is failing, try again later"
    case .malformedJSON(let page, let detail):
      return "the Open API's answer for \(page) is unusable: \(detail)"
    case .retriesExhausted(let page, let attempts, let problem):
      return "\(page) failed \(attempts) times (last: \(problem)); the service is "
        + "unreachable or failing, try again later"
    case .incomplete(let attempts, let detail):
      return "the catalog could not be fetched completely in \(attempts) attempt(s): "
        + "\(detail); it is changing right now, try again later"
    }
  }
}

extension OpenAPIError {
  public var exitStatus: ExitStatus {
    switch self {
    case .missingKey, .invalidURL, .badKey, .noData, .requestRejected, .unexpectedResult, .missingTotal, .httpStatus, .notJSON, .malformedJSON, .retriesExhausted, .incomplete: .failure
    }
  }
}
