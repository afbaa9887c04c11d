import Foundation
import RaonCore

/// How the Open API client talks to a catalog's Open API (its ``CatalogAPIShape``: Seoul's
/// `GET {base}/{KEY}/json/culturalEventInfo/{START}/{END}/`, or the public data portal's
/// `GET {base}/{operation}?serviceKey=…&pageNo=…&numOfRows=…`).
public struct OpenAPIConfiguration: Sendable {
  /// The Seoul Open API's own address (``CatalogProfile/seoul``).
  public static var defaultBaseURL: URL { baseURL(of: CatalogProfile.seoul.api) }

  /// The most rows the Seoul Open API gives per request (asking for more answers ERROR-336).
  public static var maxPageSize: Int { CatalogProfile.seoul.api.maxPageSize }

  /// An API's own address.
  public static func baseURL(of api: CatalogAPIShape) -> URL {
    guard let url = URL(string: api.defaultBase) else {
      preconditionFailure("the default base URL of \(api.keyVariable)'s API is a valid URL")
    }
    return url
  }

  /// The API's shape (how pages are asked for and read).
  public var api: CatalogAPIShape

  /// The service address (default the API's own, ``CatalogAPIShape/defaultBase``).
  public var baseURL: URL
  /// The API key (from the API's ``CatalogAPIShape/keyVariable``). Never printed: see
  /// ``KeyRedactor``.
  public var key: String
  /// Rows per request, 1…the API's ``CatalogAPIShape/maxPageSize``.
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
  ///   - api: The API's shape; default Seoul's.
  ///   - baseURL: The service address; default the API's own.
  ///   - pageSize: Rows per request; clamped to 1…the API's maximum, which it refuses to exceed.
  ///   - maxConcurrentRequests: At least 1; default 4.
  ///   - requestTimeout: Default 30 s.
  ///   - retries: Default 4 (five attempts in all).
  ///   - maxReplans: Default 3.
  public init(
    key: String, api: CatalogAPIShape = CatalogProfile.seoul.api, baseURL: URL? = nil,
    pageSize: Int? = nil, maxConcurrentRequests: Int = 4,
    requestTimeout: TimeInterval = 30, retries: Int = 4,
    initialBackoff: Duration = .milliseconds(500), maxBackoff: Duration = .seconds(30),
    maxReplans: Int = 3
  ) {
    self.key = key
    self.api = api
    self.baseURL = baseURL ?? Self.baseURL(of: api)
    self.pageSize = min(max(pageSize ?? api.maxPageSize, 1), api.maxPageSize)
    self.maxConcurrentRequests = max(maxConcurrentRequests, 1)
    self.requestTimeout = requestTimeout
    self.retries = max(retries, 0)
    self.initialBackoff = initialBackoff
    self.maxBackoff = maxBackoff
    self.maxReplans = max(maxReplans, 0)
  }
}
