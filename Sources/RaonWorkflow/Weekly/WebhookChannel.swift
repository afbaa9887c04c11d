import Foundation
import RaonConcurrency
import RaonCore
import RaonErrors
import RaonExport
import RaonMail
import RaonStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a webhook is sent: page 1 of the list's week, the files the mail carries (names,
/// sizes, SHA-256, not their bytes) and links into the site. `text` is page 1 as lines, for
/// endpoints that show one field (Slack's and 카카오워크's incoming webhooks read `text`).
struct WebhookPayload: Codable, Equatable {
  struct File: Codable, Equatable {
    var name: String
    var bytes: Int
    var sha256: String
  }

  var week: String
  var list: String
  var language: String
  var title: String
  var period: String
  var dataAsOf: String
  var sentences: [String]
  var headline: WeeklySummary.HeadlineTable
  var source: String
  var office: [String]
  var files: [File]
  /// The week's report page and the site's front page, when `site_url` is set.
  var reportURL: String?
  var siteURL: String?
  var text: String

  enum CodingKeys: String, CodingKey {
    case week, list, language, title, period, sentences, headline, source, office, files, text
    case dataAsOf = "data_as_of"
    case reportURL = "report_url"
    case siteURL = "site_url"
  }

  /// The payload of `parcel` (a report's, with its page 1), the files read from `out`.
  static func make(
    _ parcel: WeeklyParcel, summary: WeeklySummary, out: URL, siteURL: String?, packFolder: String
  ) throws -> WebhookPayload {
    var files: [File] = []
    for file in parcel.files {
      let url = out.appendingPathComponent(file.path)
      guard let data = FileManager.default.contents(atPath: url.path) else { throw WorkflowError.inputNotFound(path: url.path) }
      var hash = SHA256()
      hash.update(data)
      files.append(File(name: file.name, bytes: data.count, sha256: SHA256.hexString(hash.finalize())))
    }
    let week = CalendarDay(iso: parcel.week).map(ISOWeek.init(containing:))
    let base = siteURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    let report = week.flatMap { week in
      base.map {
        $0
          + SitePaths.encode(
            parcel.list == WeeklyList.city
              ? SitePaths.weekReport(week) : SitePaths.weekReport(week, pack: parcel.list, in: packFolder))
      }
    }
    let table: [String] = ([summary.headline.header] + summary.headline.rows).map { $0.joined(separator: " | ") }
    var lines: [String] = [summary.title, summary.period, summary.dataAsOf, ""]
    lines += summary.sentences.map { "• " + $0 }
    lines.append("")
    lines += table
    if let report { lines += ["", report] }
    let text = lines.joined(separator: "\n")
    return WebhookPayload(
      week: week?.description ?? parcel.week, list: parcel.list, language: summary.language, title: summary.title,
      period: summary.period, dataAsOf: summary.dataAsOf, sentences: summary.sentences, headline: summary.headline,
      source: summary.sourceLine, office: summary.office ?? [], files: files, reportURL: report, siteURL: base, text: text)
  }

  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}

/// The HTTP webhook as a ``DeliveryChannel``: each `[webhook.NAME]` a recipient of its
/// list. A 2xx answer is a delivery; anything else — no answer, a refusal, a URL variable
/// unset — leaves it pending for the next run (a wrong URL or token is fixed in the
/// environment, and the week then goes out). Neither the URL nor any part of it is written
/// anywhere: it carries the endpoint's token.
final class WebhookChannel: DeliveryChannel {
  let name = "webhook"
  let needsMailParts = false
  private let hooks: [String: WebhookSettings]
  private let variables: [String: String]
  private let out: URL
  private let packFolder: String
  private let post: HTTPPost

  init(hooks: [WebhookSettings], variables: [String: String], out: URL, packFolder: String, post: @escaping HTTPPost = WebhookChannel.urlSessionPost) {
    self.hooks = Dictionary(hooks.map { ($0.recipient, $0) }, uniquingKeysWith: { a, _ in a })
    self.variables = variables
    self.out = out
    self.packFolder = packFolder
    self.post = post
  }

  func delivers(to recipient: String) -> Bool { recipient.hasPrefix(WebhookSettings.recipientPrefix) }

  func deliver(_ parcel: WeeklyParcel, _ delivery: DeliveryRecord, runID: Int64) throws -> ChannelOutcome {
    func pending(_ why: String) -> ChannelOutcome { ChannelOutcome(attempt: .deferred(reason: why), failure: why) }
    guard let hook = hooks[delivery.recipient] else {
      let why = "no longer in raon.toml's [webhook] sections"
      return ChannelOutcome(attempt: .refused(reason: why), failure: why, refusedForGood: true)
    }
    guard let summary = parcel.summary else { return pending("a webhook gets the week's report only, not a notice") }
    guard let text = variables[hook.urlVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
      return pending("\(hook.urlVariable) is not set — put the webhook's URL in the service's environment")
    }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
    else { return pending("\(hook.urlVariable) is not an http:// or https:// URL") }
    let body = try WebhookPayload.make(parcel, summary: summary, out: out, siteURL: hook.siteURL, packFolder: packFolder).encoded()
    let status: Int
    do {
      status = try post(url, body, hook.timeout)
    } catch let error as WebhookError {
      return pending("webhook \(hook.name): \(error)")
    }
    guard (200..<300).contains(status) else { return pending("webhook \(hook.name): the endpoint answered HTTP \(status)") }
    return .sent(messageID: "webhook \(hook.name) HTTP \(status)", documentHash: parcel.documentHash)
  }

  /// A POST through `URLSession`, waiting at most `timeout` seconds for it all (URLSession's
  /// own timeouts are idle timeouts: an answer trickled in, or held 5 s under a 3 s
  /// timeout, passed them), never following a redirect: a 3xx is the endpoint's answer, so
  /// a moved URL leaves the delivery pending (followed, a 301–303 turns the POST into a GET
  /// without the JSON, and a 200 from the new place was recorded as delivered). The error
  /// says what went wrong in our words: Foundation's would quote the URL.
  static let urlSessionPost: HTTPPost = { url, body, timeout in
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: TimeInterval(timeout))
    request.httpMethod = "POST"
    request.httpBody = body
    request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
    request.setValue("raon", forHTTPHeaderField: "User-Agent")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForResource = TimeInterval(timeout)
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    let answer = PostAnswer()
    // A delegate (not a completion handler): only a delegate is asked about redirects.
    let session = URLSession(configuration: configuration, delegate: answer, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    let task = session.dataTask(with: request)
    task.resume()
    guard answer.done.wait(timeout: .now() + .seconds(timeout)) == .success else {
      task.cancel()
      throw WebhookError.timedOut(seconds: timeout)
    }
    let (status, error) = answer.result.withLock { $0 }
    if let status, error == nil { return status }
    throw WebhookError(error, timeout: timeout)
  }
}

/// The session's delegate for one POST: refuses redirects, keeps the status and the error,
/// and signals when the task is over.
private final class PostAnswer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // Immutable but for `result`, which is Guarded.
  let result = Guarded<(status: Int?, error: (any Error)?)>((nil, nil))
  let done = DispatchSemaphore(value: 0)

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let status = (task.response as? HTTPURLResponse)?.statusCode
    result.withLock { $0 = (status, error) }
    done.signal()
  }
}

/// Why a POST did not get an answer, without the URL.
enum WebhookError: RaonError, CustomStringConvertible {
  // Never thrown out of the run: a failed post leaves the delivery pending.
  var exitStatus: ExitStatus { .failure }
  case timedOut(seconds: Int)
  case unreachable
  case tls
  case other(code: Int)

  var description: String {
    switch self {
    case .timedOut(let seconds): "no answer within \(seconds) s"
    case .unreachable: "the endpoint cannot be reached"
    case .tls: "the TLS connection failed (certificate?)"
    case .other(let code): "the request failed (URLError \(code))"
    }
  }
}

extension WebhookError {
  /// Foundation's error in our words.
  init(_ error: (any Error)?, timeout: Int) {
    let code = (error as? URLError)?.code
    switch code {
    case .timedOut?: self = .timedOut(seconds: timeout)
    case .cannotConnectToHost?, .cannotFindHost?, .networkConnectionLost?, .notConnectedToInternet?, .dnsLookupFailed?:
      self = .unreachable
    case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
      .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .clientCertificateRejected?:
      self = .tls
    default: self = .other(code: code?.rawValue ?? (error as NSError?)?.code ?? 0)
    }
  }
}
