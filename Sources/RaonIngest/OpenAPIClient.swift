import Foundation
import RaonConcurrency
import RaonCore
import RaonErrors

/// Fetches a whole catalog from its Open API: the Seoul Open API
/// (`GET {base}/{KEY}/json/culturalEventInfo/{START}/{END}/`) or the public data portal's
/// (`GET {base}/{operation}?serviceKey=…&pageNo=…&numOfRows=…&type=json`), as the
/// configuration's ``CatalogAPIShape`` says (``APIDialect`` reads each one's answers).
///
/// Page 1 tells the total (`list_total_count`, `totalCount`); the remaining pages are then
/// fetched concurrently (at most ``OpenAPIConfiguration/maxConcurrentRequests`` at once). A
/// request is retried with exponential backoff and jitter on network errors, timeouts, HTTP
/// 5xx/429 and the server-side results (Seoul: ERROR-500/600/601; the portal: resultCode
/// 01, 02, 04, 05, 99); it fails at once on a refused key (INFO-100; 20, 21, 30–33), no
/// data (INFO-200; 03), a refused request (ERROR-3xx; 10–12, 22), a body that is neither
/// JSON nor the API's XML, and truncated JSON.
///
/// The result is complete only when every page reported the same total, every page held
/// the rows it should, no row appeared twice (Seoul: no program id; the portal's rows have
/// no id, so identical rows may stand: two rows the same are kept and flagged later), and
/// the rows number exactly the total. Otherwise the catalog changed while being paged: the
/// fetch is planned again from page 1, at most ``OpenAPIConfiguration/maxReplans`` times,
/// then fails with the counts.
///
/// The key never leaves in any error, progress event or batch.
///
/// ```swift
/// let client = OpenAPIClient(configuration: .init(key: key))
/// let batch = try await client.fetchAll()
/// ```
public struct OpenAPIClient: Sendable {
  /// Sleeps between attempts; tests pass one that returns at once.
  public typealias Sleep = TaskWaiting.Sleep

  public let configuration: OpenAPIConfiguration
  private let transport: any HTTPTransport
  private let sleep: Sleep
  private let random: @Sendable () -> Double
  private let progress: @Sendable (ProgressEvent) -> Void
  private let redactor: KeyRedactor
  private let dialect: APIDialect

  /// - Parameters:
  ///   - configuration: Where and how to fetch.
  ///   - transport: Default ``URLSessionTransport``.
  ///   - sleep: Waits between attempts; default the real clock's (``TaskWaiting/sleep``).
  ///   - random: A number in 0..<1 for jitter; default the system generator.
  ///   - progress: Receives ``ProgressEvent``s (from several tasks; must be thread-safe).
  public init(
    configuration: OpenAPIConfiguration,
    transport: any HTTPTransport = URLSessionTransport(),
    sleep: @escaping Sleep = TaskWaiting.sleep,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in }
  ) {
    self.configuration = configuration
    self.transport = transport
    self.sleep = sleep
    self.random = random
    self.progress = progress
    self.redactor = KeyRedactor(key: configuration.key)
    self.dialect = APIDialect(shape: configuration.api)
  }

  /// The base URL as it may be shown: without a trailing slash, key redacted.
  public var sourceName: String {
    var text = redactor.redact(configuration.baseURL.absoluteString)
    while text.hasSuffix("/") { text.removeLast() }
    return text
  }

  /// Fetches every row of the catalog.
  ///
  /// - Returns: The records in row order, deduplicated by program id; `source` is the
  ///   redacted base URL and `sourceTotal` is `list_total_count`.
  /// - Throws: ``OpenAPIError`` (redacted), or `CancellationError`.
  public func fetchAll() async throws -> CatalogBatch {
    guard !configuration.key.isEmpty else { throw dialect.missingKey }
    var reason = ""
    let attempts = configuration.maxReplans + 1
    for attempt in 1...attempts {
      if attempt > 1 {
        progress(.replanning(attempt: attempt, of: attempts, reason: reason))
      }
      switch try await fetchOnce(attempt: attempt) {
      case .complete(let batch): return batch
      case .inconsistent(let problem): reason = problem
      }
    }
    throw OpenAPIError.incomplete(attempts: attempts, detail: reason)
  }

  // MARK: - One plan

  private enum Outcome {
    case complete(CatalogBatch)
    case inconsistent(String)
  }

  /// The rows one request asks for.
  struct PageRange: Sendable, CustomStringConvertible {
    var index: Int
    var start: Int
    var end: Int
    var description: String { "page \(index) (rows \(start)–\(end))" }
  }

  private func range(_ index: Int, total: Int?) -> PageRange {
    let size = configuration.pageSize
    let start = (index - 1) * size + 1
    let end = total.map { min(start + size - 1, $0) } ?? (start + size - 1)
    return PageRange(index: index, start: start, end: end)
  }

  private func fetchOnce(attempt: Int) async throws -> Outcome {
    let first = try await fetchPage(range(1, total: nil))
    guard let total = first.totalCount else {
      if case .keyInPath = configuration.api.style {
        throw OpenAPIError.missingTotal(page: range(1, total: nil).description)
      }
      throw OpenAPIError.missingTotalCount(page: range(1, total: nil).description, field: dialect.totalName)
    }
    guard total > 0 else {
      throw OpenAPIError.noData(
        page: range(1, total: nil).description, message: "\(dialect.totalName) is 0")
    }
    let size = configuration.pageSize
    let pageCount = (total + size - 1) / size
    progress(.planned(totalRows: total, pages: pageCount, attempt: attempt))
    var pages: [Int: OpenAPIPage] = [1: first]
    var rowsFetched = first.records.count
    progress(
      .pageFetched(pagesDone: 1, pages: pageCount, rowsFetched: rowsFetched, totalRows: total))

    if pageCount > 1 {
      try await withThrowingTaskGroup(of: (Int, OpenAPIPage).self) { group in
        var next = 2
        func launch() {
          let pageRange = range(next, total: total)
          group.addTask { (pageRange.index, try await fetchPage(pageRange)) }
          next += 1
        }
        while next <= pageCount, next - 2 < configuration.maxConcurrentRequests { launch() }
        while let (index, page) = try await group.next() {
          pages[index] = page
          rowsFetched += page.records.count
          progress(
            .pageFetched(
              pagesDone: pages.count, pages: pageCount, rowsFetched: rowsFetched,
              totalRows: total))
          if next <= pageCount { launch() }
        }
      }
    }
    return check(pages, pageCount: pageCount, total: total)
  }

  /// Whether the pages form the whole catalog exactly once.
  private func check(_ pages: [Int: OpenAPIPage], pageCount: Int, total: Int) -> Outcome {
    var problems: [String] = []
    var records: [RawRecord] = []
    records.reserveCapacity(total)
    var seen = Set<String>()
    var duplicates = 0
    for index in 1...pageCount {
      let pageRange = range(index, total: total)
      let page = pages[index]
      let rows = page?.records ?? []
      if let pageTotal = page?.totalCount, pageTotal != total {
        problems.append("\(pageRange) reported \(pageTotal) rows in all, page 1 \(total)")
      }
      let expected = pageRange.end - pageRange.start + 1
      if rows.count != expected {
        problems.append("\(pageRange) held \(rows.count) rows")
      }
      for record in rows {
        if dialect.keepsIdenticalRows || seen.insert(dialect.identity(of: record)).inserted {
          records.append(record)
        } else {
          duplicates += 1
        }
      }
    }
    if duplicates > 0 { problems.append("\(duplicates) row(s) appeared twice") }
    if records.count != total {
      let what = dialect.keepsIdenticalRows ? "rows" : "distinct programs"
      problems.append("\(records.count) \(what) for \(dialect.totalName) \(total)")
    }
    guard problems.isEmpty else {
      let shown = problems.prefix(4).joined(separator: "; ")
      return .inconsistent(redactor.redact(shown + (problems.count > 4 ? "; …" : "")))
    }
    return .complete(CatalogBatch(source: sourceName, sourceTotal: total, records: records))
  }

  /// A row's identity (Seoul's: the portal URL's cultcode, or a hash of the whole raw
  /// record).
  static func identity(of record: RawRecord) -> String {
    APIDialect(shape: CatalogProfile.seoul.api).identity(of: record)
  }

  // MARK: - One page, with retries

  private typealias AttemptFailure = APIAttemptFailure

  private func fetchPage(_ pageRange: PageRange) async throws -> OpenAPIPage {
    let attempts = configuration.retries + 1
    var lastProblem = ""
    for attempt in 1...attempts {
      try Task.checkCancellation()
      do {
        return try await attemptPage(pageRange)
      } catch AttemptFailure.fatal(let error) {
        throw error
      } catch AttemptFailure.retryable(let problem) {
        lastProblem = problem
      }
      if attempt < attempts {
        let delay = backoff(afterAttempt: attempt)
        progress(
          .retrying(
            page: pageRange.description, attempt: attempt, of: configuration.retries,
            delay: delay, problem: lastProblem))
        try await sleep(delay)
      }
    }
    throw OpenAPIError.retriesExhausted(
      page: pageRange.description, attempts: attempts, lastProblem: lastProblem)
  }

  /// Exponential backoff with "equal jitter": half the delay fixed, half random.
  private func backoff(afterAttempt attempt: Int) -> Duration {
    let base = configuration.initialBackoff * (1 << min(attempt - 1, 20))
    let capped = min(base, configuration.maxBackoff)
    let factor = 0.5 + 0.5 * min(max(random(), 0), 1)
    return capped * factor
  }

  private func attemptPage(_ pageRange: PageRange) async throws -> OpenAPIPage {
    let page = pageRange.description
    guard let url = requestURL(pageRange) else {
      throw AttemptFailure.fatal(.invalidURL(base: sourceName))
    }
    let response: HTTPResponse
    do {
      response = try await getWithDeadline(url)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw AttemptFailure.retryable(redactor.describe(error))
    }
    if response.status >= 500 || response.status == 429 {
      throw AttemptFailure.retryable("HTTP \(response.status)")
    }
    guard (200..<300).contains(response.status) else {
      throw AttemptFailure.fatal(
        .httpStatus(page: page, status: response.status, snippet: snippet(response.body)))
    }
    return try dialect.page(
      response.body, status: response.status, page: page, source: sourceName,
      firstRow: pageRange.start, isFirst: pageRange.index == 1, redactor: redactor, snippet: snippet)
  }

  /// The transport's answer, or a timeout after ``OpenAPIConfiguration/requestTimeout``
  /// seconds of real time whatever the transport does with its own timeout.
  private func getWithDeadline(_ url: URL) async throws -> HTTPResponse {
    let transport = self.transport
    let timeout = configuration.requestTimeout
    guard let response = try await TaskWaiting.result(within: timeout, of: { try await transport.get(url, timeout: timeout) })
    else { throw RequestTimedOut(seconds: timeout) }
    return response
  }

  private struct RequestTimedOut: RaonError, CustomStringConvertible {
    var exitStatus: ExitStatus { .failure }
    var seconds: TimeInterval
    var description: String { "no answer within \(seconds) s" }
  }

  /// The request for a page (``APIDialect/requestURL(base:key:index:start:end:pageSize:)``),
  /// the key percent-encoded.
  func requestURL(_ pageRange: PageRange) -> URL? {
    dialect.requestURL(
      base: configuration.baseURL, key: configuration.key, index: pageRange.index,
      start: pageRange.start, end: pageRange.end, pageSize: configuration.pageSize)
  }

  /// The start of a body, on one line, redacted and without control characters: enough
  /// to recognise an error page, never the body itself.
  private func snippet(_ body: [UInt8]) -> String {
    // Redact before shortening, then drop the window's last characters when the window
    // cuts the body: a key cut in two is not redacted, so its part must go (an escaped
    // key is at most ten bytes a character, as `&#x1F600;`).
    let window = 16_384
    var text = String(decoding: body.prefix(window), as: UTF8.self)
    if body.count > window { text = String(text.dropLast(configuration.key.utf8.count * 10)) }
    let short = redactor.excerpt(text)
    return short.isEmpty ? "empty body" : short
  }
}
