import Foundation
import RaonErrors

#if canImport(Glibc)
  import Glibc
#endif

/// Prints an HTML file to PDF with a headless Chromium: the one place Raon runs another
/// program.
///
/// Found as `RAON_CHROMIUM` (a path or a name on `PATH`), else the first of `chromium`,
/// `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`. A browser
/// (``ChromiumSession``) gets a fresh profile folder (removed afterwards), runs without the
/// sandbox (needed as root) and without a GPU, in a process group of its own, and each
/// print is given ``timeout`` seconds before the group is stopped.
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

  public enum Error: RaonError, CustomStringConvertible, Equatable {
    /// No Chromium on the machine (or `RAON_CHROMIUM` names nothing runnable).
    case notFound(configured: String?)
    /// Chromium exited with `status`, or exited without writing the PDF.
    case failed(file: String, status: Int32, detail: String)
    /// Chromium took longer than the time allowed.
    case timedOut(file: String, seconds: Int)
    /// Chromium gave a PDF that is cut short or has no pages.
    case incomplete(file: String, bytes: Int)

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
      case .incomplete(let file, let bytes):
        return
          "Chromium gave an incomplete PDF for \(file) (\(bytes) bytes without a whole trailer or a page) — check that it prints (chromium --headless --print-to-pdf), or try again; earlier reports were left as they were"
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
    if name.contains("/") {
      return isRunnableFile(name) ? URL(fileURLWithPath: name) : nil
    }
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if isRunnableFile(candidate.path) { return candidate }
    }
    return nil
  }

  /// An executable regular file (after links): a folder is "executable" to `access(2)`,
  /// and `RAON_CHROMIUM=/tmp` passed the check before recording (issue 27).
  static func isRunnableFile(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    let fm = FileManager.default
    guard fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
      let type = (try? fm.attributesOfItem(atPath: (path as NSString).resolvingSymlinksInPath))?[.type]
        as? FileAttributeType, type == .typeRegular
    else { return false }
    return fm.isExecutableFile(atPath: path)
  }

  // MARK: - Printing

  /// A browser that prints many pages, started on its first print; ``ChromiumSession/close()``
  /// ends it.
  func session() -> ChromiumSession { ChromiumSession(printer: self) }

  /// Prints `html` (a file) to `pdf` in a browser of its own.
  ///
  /// - Parameter name: The file named in errors (`report.pdf`).
  /// - Throws: ``Error/failed(file:status:detail:)``, ``Error/timedOut(file:seconds:)`` or
  ///   ``Error/incomplete(file:bytes:)``; `pdf` is written only when it is whole.
  public func print(html: URL, to pdf: URL, name: String? = nil) throws {
    let file = name ?? pdf.lastPathComponent
    let session = self.session()
    defer { session.close() }
    let page = try String(contentsOf: html, encoding: .utf8)
    try session.print(html: page, name: file).write(to: pdf)
  }

  /// The last meaningful line Chromium printed, shortened, for the error message.
  static func lastMessage(in log: URL) -> String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    let meaningful = lines.last { !$0.isEmpty && !$0.contains("dbus") && !$0.hasPrefix("DevTools listening") } ?? ""
    return meaningful.count > 160 ? String(meaningful.prefix(160)) + "…" : meaningful
  }
}

extension ChromiumPrinter.Error {
  public var exitStatus: ExitStatus {
    switch self {
    case .notFound, .failed, .timedOut, .incomplete: .failure
    }
  }
}
