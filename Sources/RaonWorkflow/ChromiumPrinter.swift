import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Prints an HTML file to PDF with a headless Chromium: the one place Raon runs another
/// program.
///
/// Found as `RAON_CHROMIUM` (a path or a name on `PATH`), else the first of `chromium`,
/// `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`. Each print gets
/// a fresh profile folder (removed afterwards), runs without the sandbox (needed as root)
/// and without a GPU, and is given ``timeout`` seconds before it is stopped.
///
/// ```swift
/// let printer = try ChromiumPrinter.locate(in: ProcessInfo.processInfo.environment)
/// try printer.print(html: staged.appendingPathComponent("report.html"), to: pdfURL)
/// ```
public struct ChromiumPrinter: Sendable {
  /// The Chromium (or Chrome) executable.
  public var executable: URL
  /// Seconds one print may take before Chromium is stopped and the print fails.
  public var timeout: TimeInterval

  public init(executable: URL, timeout: TimeInterval = 120) {
    self.executable = executable
    self.timeout = timeout
  }

  /// Names tried on `PATH`, in order, when `RAON_CHROMIUM` is not set.
  public static let candidates = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

  public enum Error: Swift.Error, CustomStringConvertible, Equatable {
    /// No Chromium on the machine (or `RAON_CHROMIUM` names nothing runnable).
    case notFound(configured: String?)
    /// Chromium exited with `status`, or exited without writing the PDF.
    case failed(file: String, status: Int32, detail: String)
    /// Chromium took longer than the time allowed.
    case timedOut(file: String, seconds: Int)

    public var description: String {
      switch self {
      case .notFound(let configured?):
        return
          "RAON_CHROMIUM is set to '\(configured)', which is not an executable — point it at chromium or google-chrome, or unset it to search PATH"
      case .notFound(nil):
        return
          "--format pdf needs a Chromium to print with and none was found (tried \(ChromiumPrinter.candidates.joined(separator: ", ")) on PATH) — install one (Debian: sudo apt-get install chromium) or set RAON_CHROMIUM to its path"
      case .failed(let file, let status, let detail):
        let said = detail.isEmpty ? "" : " (\(detail))"
        let what = status == 0 ? "it exited without writing the PDF" : "it exited with status \(status)"
        return
          "Chromium could not print \(file): \(what)\(said) — check that it starts (chromium --headless --version); earlier reports were left as they were"
      case .timedOut(let file, let seconds):
        return
          "Chromium did not finish printing \(file) within \(seconds) s and was stopped — try again when the machine is less busy; earlier reports were left as they were"
      }
    }
  }

  // MARK: - Finding Chromium

  /// The Chromium to print with, from `RAON_CHROMIUM` or `PATH` in `variables`.
  ///
  /// - Throws: ``Error/notFound(configured:)``.
  public static func locate(in variables: [String: String]) throws -> ChromiumPrinter {
    let path = variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    if let configured = variables["RAON_CHROMIUM"]?.trimmingCharacters(in: .whitespaces),
      !configured.isEmpty
    {
      guard let found = executable(named: configured, searching: path) else {
        throw Error.notFound(configured: configured)
      }
      return ChromiumPrinter(executable: found)
    }
    for name in candidates {
      if let found = executable(named: name, searching: path) { return ChromiumPrinter(executable: found) }
    }
    throw Error.notFound(configured: nil)
  }

  /// `name` itself when it holds a `/`, else the first runnable `name` in `path`'s folders.
  static func executable(named name: String, searching path: String) -> URL? {
    let fm = FileManager.default
    if name.contains("/") {
      return fm.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
    }
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      var isDirectory: ObjCBool = false
      if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
        fm.isExecutableFile(atPath: candidate.path)
      {
        return candidate
      }
    }
    return nil
  }

  // MARK: - Printing

  /// The arguments of one print (a profile folder of its own, no sandbox, no GPU, no
  /// header or footer: the page is A4 by its own `@page` rule).
  func arguments(html: URL, pdf: URL, profile: URL) -> [String] {
    [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
      "--no-first-run", "--no-default-browser-check", "--disable-extensions",
      "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)",
      "--print-to-pdf=\(pdf.path)", html.absoluteURL.absoluteString,
    ]
  }

  /// Prints `html` (a file) to `pdf`.
  ///
  /// - Parameter name: The file named in errors (`report.pdf`).
  /// - Throws: ``Error/failed(file:status:detail:)`` or ``Error/timedOut(file:seconds:)``;
  ///   a partly written `pdf` may remain (the caller's folder is staged).
  public func print(html: URL, to pdf: URL, name: String? = nil) throws {
    let file = name ?? pdf.lastPathComponent
    let fm = FileManager.default
    let scratch = fm.temporaryDirectory.appendingPathComponent("raon-chromium-\(UUID().uuidString)")
    try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? fm.removeItem(at: scratch) }
    let log = scratch.appendingPathComponent("chromium.log")
    _ = fm.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    defer { try? logHandle.close() }

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments(
      html: html, pdf: pdf, profile: scratch.appendingPathComponent("profile", isDirectory: true))
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = logHandle
    process.standardError = logHandle
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    do {
      try process.run()
    } catch {
      throw Error.failed(file: file, status: -1, detail: "\(executable.path) did not start: \(error.localizedDescription)")
    }
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      if finished.wait(timeout: .now() + 5) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        _ = finished.wait(timeout: .now() + 5)
      }
      throw Error.timedOut(file: file, seconds: Int(timeout.rounded()))
    }
    let status = process.terminationStatus
    let written = (try? FileHandle(forReadingFrom: pdf)).map { handle -> Bool in
      defer { try? handle.close() }
      return (try? handle.read(upToCount: 5)) == Data("%PDF-".utf8)
    } ?? false
    guard status == 0, written else {
      throw Error.failed(file: file, status: status, detail: Self.lastMessage(in: log))
    }
  }

  /// The last meaningful line Chromium printed, shortened, for the error message.
  static func lastMessage(in log: URL) -> String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    let meaningful = lines.last { !$0.isEmpty && !$0.contains("dbus") } ?? ""
    return meaningful.count > 160 ? String(meaningful.prefix(160)) + "…" : meaningful
  }
}
