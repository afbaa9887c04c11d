import Foundation

/// Runs the built `raon` binary the way a user does, for end-to-end tests.
public enum RaonProcess {
  /// The result of one run.
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
      self.status = status
      self.stdout = stdout
      self.stderr = stderr
    }
  }

  /// The `raon` executable beside the test bundle (SwiftPM builds it with the tests), or
  /// the one `RAON_TEST_EXECUTABLE` names (to run the end-to-end tests against another
  /// build, e.g. the release binary of the previous version, and see which fail).
  public static var executable: URL {
    if let path = ProcessInfo.processInfo.environment["RAON_TEST_EXECUTABLE"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    let candidates: [URL] = [
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("raon"),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("raon"),
      Fixtures.repositoryRoot.appendingPathComponent(".build/debug/raon"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[candidates.count - 1]
  }

  /// Runs `raon ARGS` in `directory` with `environment` added to a minimal environment
  /// (no SEOUL_API_KEY or RAON_DB unless given), and waits for it.
  @available(*, noasync, message: "use runDetached: waiting here blocks a cooperative thread, and in-process loopback servers starve")
  public static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) throws -> Result {
    let process = try start(arguments, in: directory, environment: environment)
    let out = process.standardOutput as? Pipe
    let err = process.standardError as? Pipe
    // Read both pipes while the process runs so a full pipe never blocks it.
    let outData = LockedData()
    let errData = LockedData()
    let group = DispatchGroup()
    for (pipe, sink) in [(out, outData), (err, errData)] {
      guard let pipe else { continue }
      group.enter()
      DispatchQueue.global().async {
        sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
        group.leave()
      }
    }
    process.waitUntilExit()
    group.wait()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: outData.get(), as: UTF8.self),
      stderr: String(decoding: errData.get(), as: UTF8.self))
  }

  /// Starts `raon ARGS` without waiting (for kill tests). Output goes to pipes.
  public static func start(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) throws -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env: [String: String] = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": directory.path,
      "LANG": "C.UTF-8",
    ]
    for (k, v) in sanitizerEnvironment { env[k] = v }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }
}

/// A box for bytes filled from another thread.
final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
  func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
