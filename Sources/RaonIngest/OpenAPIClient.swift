import Foundation
import RaonConcurrency
import RaonCore
import RaonErrors

/// Fetches the whole catalog from the Seoul Open API
/// (`GET {base}/{KEY}/json/culturalEventInfo/{START}/{END}/`).
///
/// Page 1 tells `list_total_count`; the remaining pages are then fetched concurrently
/// (at most ``OpenAPIConfiguration/maxConcurrentRequests`` at once). A request is retried
/// with exponential backoff and jitter on network errors, timeouts, HTTP 5xx/429 and the
/// server-side results ERROR-500/600/601; it fails at once on INFO-100 (bad key),
/// INFO-200 (no data), ERROR-3xx, a non-JSON body and truncated JSON.
///
/// The result is complete only when every page reported the same total, every page held
/// the rows it should, no program id appeared twice, and the distinct ids number exactly
/// `list_total_count`. Otherwise the catalog changed while being paged: the fetch is
/// planned again from page 1, at most ``OpenAPIConfiguration/maxReplans`` times, then
/// fails with the counts.
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
    guard !configuration.key.isEmpty else { throw OpenAPIError.missingKey }
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
      throw OpenAPIError.missingTotal(page: range(1, total: nil).description)
    }
    guard total > 0 else {
      throw OpenAPIError.noData(
        page: range(1, total: nil).description, message: "list_total_count is 0")
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
        if seen.insert(Self.identity(of: record)).inserted {
          records.append(record)
        } else {
          duplicates += 1
        }
      }
    }
    if duplicates > 0 { problems.append("\(duplicates) row(s) appeared twice") }
    if records.count != total {
      problems.append("\(records.count) distinct programs for list_total_count \(total)")
    }
    guard problems.isEmpty else {
      let shown = problems.prefix(4).joined(separator: "; ")
      return .inconsistent(redactor.redact(shown + (problems.count > 4 ? "; …" : "")))
    }
    return .complete(CatalogBatch(source: sourceName, sourceTotal: total, records: records))
  }

  /// A row's identity: the portal URL's cultcode, or a hash of the whole raw record.
  static func identity(of record: RawRecord) -> String {
    if let url = record[.portalURL], let id = ProgramID.fromPortalURL(url) { return id }
    var hasher = SHA256()
    for (name, value) in zip(record.names.names, record.values) {
      hasher.update(name)
      hasher.update([0x1F])
      hasher.update(value ?? "\u{0}")
      hasher.update([0x1E])
    }
    return "raw:" + SHA256.hexString(hasher.finalize())
  }

  // MARK: - One page, with retries

  /// Why one attempt failed: worth retrying, or not.
  private enum AttemptFailure: RaonError {
    var exitStatus: ExitStatus { .failure }
    case retryable(String)
    case fatal(OpenAPIError)
  }

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
    let firstByte = response.body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    guard (200..<300).contains(response.status) else {
      throw AttemptFailure.fatal(
        .httpStatus(page: page, status: response.status, snippet: snippet(response.body)))
    }
    let parsed: OpenAPIPage
    if firstByte == UInt8(ascii: "<"), let result = APIResultXML.read(response.body) {
      // The service answers errors in XML even on /json/ requests.
      parsed = OpenAPIPage(
        totalCount: nil, resultCode: result.code, resultMessage: result.message, records: [])
    } else {
      guard firstByte == UInt8(ascii: "{") else {
        throw AttemptFailure.fatal(
          .notJSON(page: page, status: response.status, snippet: snippet(response.body)))
      }
      do {
        parsed = try JSONCatalogReader.readAPIPage(
          response.body, source: sourceName, firstRow: pageRange.start)
      } catch let error as JSONCatalogError {
        throw AttemptFailure.fatal(.malformedJSON(page: page, detail: redactor.excerpt(error.detail, limit: 200)))
      }
    }
    let code = parsed.resultCode ?? "INFO-000"
    let message = redactor.excerpt(parsed.resultMessage ?? "")
    switch code {
    case "INFO-000":
      return parsed
    case "INFO-100":
      throw AttemptFailure.fatal(.badKey(page: page, message: message))
    case "INFO-200":
      // On page 1 the catalog is empty; later, the catalog shrank while being paged,
      // which the completeness check turns into a new plan.
      if pageRange.index == 1 {
        throw AttemptFailure.fatal(.noData(page: page, message: message))
      }
      return OpenAPIPage(totalCount: nil, resultCode: code, resultMessage: message, records: [])
    case "ERROR-500", "ERROR-600", "ERROR-601":
      throw AttemptFailure.retryable("\(code) \(message)")
    case let other where other.hasPrefix("ERROR-3"):
      throw AttemptFailure.fatal(.requestRejected(page: page, code: other, message: message))
    default:
      throw AttemptFailure.fatal(.unexpectedResult(page: page, code: code, message: message))
    }
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

  /// `{base}/{KEY}/json/culturalEventInfo/{START}/{END}/`, the key percent-encoded.
  func requestURL(_ pageRange: PageRange) -> URL? {
    var base = configuration.baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    guard
      let key = configuration.key.addingPercentEncoding(
        withAllowedCharacters: KeyRedactor.unreserved)
    else { return nil }
    return URL(string: "\(base)/\(key)/json/culturalEventInfo/\(pageRange.start)/\(pageRange.end)/")
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
