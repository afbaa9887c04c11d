import Foundation

/// The effects a job may use, injected so tests control them: the clock, the process
/// environment, the working directory and a progress sink.
public struct RaonEnvironment: Sendable {
  public var now: @Sendable () -> Date
  public var variables: [String: String]
  public var workingDirectory: URL
  /// Receives progress lines for long work; the CLI shows them only on a terminal.
  public var progress: @Sendable (String) -> Void
  /// Receives warnings (one line each) that do not stop the job.
  public var warn: @Sendable (String) -> Void

  public init(
    now: @escaping @Sendable () -> Date = { Date() },
    variables: [String: String] = ProcessInfo.processInfo.environment,
    workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    progress: @escaping @Sendable (String) -> Void = { _ in },
    warn: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.now = now
    self.variables = variables
    self.workingDirectory = workingDirectory
    self.progress = progress
    self.warn = warn
  }

  /// The Open API key from `SEOUL_API_KEY`, if set and not blank.
  public var apiKey: String? {
    guard let key = variables["SEOUL_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines),
      !key.isEmpty
    else { return nil }
    return key
  }

  /// Resolves a path given on the command line against the working directory.
  public func url(forPath path: String) -> URL {
    let expanded = (path as NSString).expandingTildeInPath
    return expanded.hasPrefix("/")
      ? URL(fileURLWithPath: expanded)
      : workingDirectory.appendingPathComponent(expanded)
  }
}
