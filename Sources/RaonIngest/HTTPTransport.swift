import Foundation
import RaonConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP answer: status and body bytes, nothing else the client needs.
public struct HTTPResponse: Sendable, Equatable {
  /// The HTTP status code, e.g. 200.
  public var status: Int
  /// The body, as received.
  public var body: [UInt8]

  public init(status: Int, body: [UInt8]) {
    self.status = status
    self.body = body
  }
}

/// What the Open API client sends requests through; tests pass their own.
public protocol HTTPTransport: Sendable {
  /// Performs `GET url`, giving up after `timeout` seconds without an answer.
  ///
  /// - Throws: Any error (network, timeout, cancellation); the client retries them.
  func get(_ url: URL, timeout: TimeInterval) async throws -> HTTPResponse
}

/// The real transport: `URLSession` (FoundationNetworking on Linux), no caching, no
/// cookies.
public struct URLSessionTransport: HTTPTransport {
  private let session: URLSession

  /// Creates a transport over an ephemeral session of its own.
  public init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    self.session = URLSession(configuration: configuration)
  }

  /// Creates a transport over the given session.
  public init(session: URLSession) {
    self.session = session
  }

  public func get(_ url: URL, timeout: TimeInterval) async throws -> HTTPResponse {
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    request.httpMethod = "GET"
    let handle = TaskHandle()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(throwing: error)
          } else if let http = response as? HTTPURLResponse {
            continuation.resume(
              returning: HTTPResponse(status: http.statusCode, body: [UInt8](data ?? Data())))
          } else {
            continuation.resume(throwing: URLError(.badServerResponse))
          }
        }
        handle.start(task)
      }
    } onCancel: {
      handle.cancel()
    }
  }
}

/// Lets a cancellation that arrives before or after the task starts cancel it.
private final class TaskHandle: Sendable {
  private enum State {
    case waiting
    case started(URLSessionDataTask)
    case cancelled
  }

  // Set from the caller's thread (start) and the cancellation handler's (cancel).
  private let state = Guarded(State.waiting)

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { state in
      guard case .waiting = state else { return true }
      state = .started(task)
      return false
    }
    if cancelled { task.cancel() } else { task.resume() }
  }

  func cancel() {
    let started = state.withLock { state -> URLSessionDataTask? in
      defer { state = .cancelled }
      guard case .started(let task) = state else { return nil }
      return task
    }
    started?.cancel()
  }
}
