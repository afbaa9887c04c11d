import Foundation
import RaonCore

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

  /// The Seoul Open API's key (``CatalogProfile/seoul``'s variable), if set and not blank.
  public var apiKey: String? { apiKey(variable: CatalogProfile.seoul.api.keyVariable) }

  /// An Open API key from the environment variable `variable` (`SEOUL_API_KEY`,
  /// `DATA_GO_KR_KEY`), if set and not blank.
  public func apiKey(variable: String) -> String? {
    guard let key = variables[variable]?.trimmingCharacters(in: .whitespacesAndNewlines),
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
