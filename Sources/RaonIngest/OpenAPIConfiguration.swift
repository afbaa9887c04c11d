import Foundation

/// How the Open API client talks to `GET {base}/{KEY}/json/culturalEventInfo/{START}/{END}/`.
public struct OpenAPIConfiguration: Sendable {
  /// The service's own address.
  public static let defaultBaseURL: URL = {
    guard let url = URL(string: "http://openapi.seoul.go.kr:8088") else {
      preconditionFailure("the default base URL literal is a valid URL")
    }
    return url
  }()

  /// The most rows the API gives per request (asking for more answers ERROR-336).
  public static let maxPageSize = 1_000

  /// The service address, e.g. `http://openapi.seoul.go.kr:8088`.
  public var baseURL: URL
  /// The API key (`SEOUL_API_KEY`). Never printed: see ``KeyRedactor``.
  public var key: String
  /// Rows per request, 1…1,000.
  public var pageSize: Int
  /// Requests in flight at once.
  public var maxConcurrentRequests: Int
  /// Seconds a request may take before it counts as failed (and is retried).
  public var requestTimeout: TimeInterval
  /// Further attempts after a retryable failure of one request.
  public var retries: Int
  /// The first retry's delay; each further one doubles it, up to ``maxBackoff``, and is
  /// then scaled by a random factor in 0.5…1 (jitter, so parallel retries spread out).
  public var initialBackoff: Duration
  /// The longest delay between two attempts.
  public var maxBackoff: Duration
  /// How often the whole fetch is planned again when pages disagree (the catalog
  /// changed while being paged) before giving up.
  public var maxReplans: Int

  /// - Parameters:
  ///   - key: The API key.
  ///   - baseURL: The service address; default ``defaultBaseURL``.
  ///   - pageSize: Rows per request; clamped to 1…1,000 because the API refuses more.
  ///   - maxConcurrentRequests: At least 1; default 4.
  ///   - requestTimeout: Default 30 s.
  ///   - retries: Default 4 (five attempts in all).
  ///   - maxReplans: Default 3.
  public init(
    key: String, baseURL: URL = OpenAPIConfiguration.defaultBaseURL,
    pageSize: Int = OpenAPIConfiguration.maxPageSize, maxConcurrentRequests: Int = 4,
    requestTimeout: TimeInterval = 30, retries: Int = 4,
    initialBackoff: Duration = .milliseconds(500), maxBackoff: Duration = .seconds(30),
    maxReplans: Int = 3
  ) {
    self.key = key
    self.baseURL = baseURL
    self.pageSize = min(max(pageSize, 1), OpenAPIConfiguration.maxPageSize)
    self.maxConcurrentRequests = max(maxConcurrentRequests, 1)
    self.requestTimeout = requestTimeout
    self.retries = max(retries, 0)
    self.initialBackoff = initialBackoff
    self.maxBackoff = maxBackoff
    self.maxReplans = max(maxReplans, 0)
  }
}
