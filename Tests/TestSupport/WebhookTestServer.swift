import Foundation

/// A real HTTP endpoint on 127.0.0.1 for the webhook channel (`raon_testkit.webhook_server`):
/// keeps every POST (path, headers, body) and answers as scripted per path.
///
/// ```swift
/// let hook = try WebhookTestServer.start(in: dir, answers: ["/hook/b": [503, 200]])
/// // RAON_WEBHOOK_X = hook.url("/hook/b")
/// let posts = try hook.posts()
/// ```
public final class WebhookTestServer: @unchecked Sendable {
  public let port: Int
  public let folder: URL
  // Only the test's own thread starts and stops it.
  private var process: Process?

  private init(port: Int, folder: URL, process: Process) {
    self.port = port
    self.folder = folder
    self.process = process
  }

  /// Starts one in `directory/webhook-posts`; `answers`: the statuses of a path, in order
  /// (the last repeats; 200 by default); `hang`: how many first requests to a path go
  /// unanswered.
  public static func start(in directory: URL, answers: [String: [Int]] = [:], hang: [String: Int] = [:]) throws
    -> WebhookTestServer
  {
    let folder = directory.appendingPathComponent("webhook-posts")
    var arguments = ["python3", "-m", "raon_testkit.webhook_server", "--dir", folder.path]
    for (path, codes) in answers { arguments += ["--answer", "\(path)=" + codes.map(String.init).joined(separator: ",")] }
    for (path, n) in hang { arguments += ["--hang", "\(path)=\(n)"] }
    let (process, port, _) = try SMTPTestServer.launchPython(arguments)
    return WebhookTestServer(port: port, folder: folder, process: process)
  }

  /// `http://127.0.0.1:PORT/PATH`.
  public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Every request received, in order: `path`, `headers`, `body` (parsed JSON), `status`.
  public func posts() throws -> [[String: Any]] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    return try names.map {
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent($0))) as? [String: Any] ?? [:]
    }
  }

  public func stop() {
    guard let process else { return }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    self.process = nil
  }

  deinit { stop() }
}
