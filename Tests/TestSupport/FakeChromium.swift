import Foundation

/// A stand-in Chromium (a Python script) for Chromium's faults (issue 27): it prints a
/// PDF it makes itself, over the DevTools pipe (descriptors 3 and 4, as Raon drives
/// Chromium) or to `--print-to-pdf=PATH` (as Raon once did), and misbehaves as told.
///
/// The PDF is a real one (header, objects, cross-reference table, trailer, `%%EOF`),
/// 3 pages and about 40 KB, so that its first 20,000 bytes are a truncated PDF.
public enum FakeChromium {
  public enum Behaviour: String, Sendable {
    /// Prints the whole PDF.
    case good
    /// Prints the first 20,000 bytes of the PDF and exits 0.
    case truncate
    /// Prints the whole PDF, but answers its second `Page.printToPDF` with an error.
    case failSecondPrint
    /// Prints the whole PDF, exits 0, but leaves a child (`sleep 300`) holding its pipes.
    case linger
    /// Starts a child (`sleep 300`) and never answers.
    case hang
  }

  /// Writes the script into `directory` as `name`.
  ///
  /// - Parameter record: A file the script writes on start: its `SigBlk:`/`SigIgn:` lines
  ///   of `/proc/self/status`, `pid:`, `pgid:`, and `child:` (its child's pid) if any.
  public static func write(
    _ behaviour: Behaviour, named name: String = "chromium", in directory: URL, record: URL? = nil
  ) throws -> URL {
    let url = directory.appendingPathComponent(name)
    // The program is `raon_testkit.fake_chromium` (Tests/Scripts), shared with the
    // hostile runner; this is the same launcher its `write` makes.
    let kit = Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts").path
    let script = """
      #!/usr/bin/env python3
      import sys
      sys.path.insert(0, \(pythonLiteral(kit)))
      from raon_testkit.fake_chromium import main
      main(\(pythonLiteral(behaviour.rawValue)), \(pythonLiteral(record?.path ?? "")))

      """
    try Data(script.utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url
  }

  /// A Python string literal of `text` (JSON's escaping is valid Python).
  static func pythonLiteral(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    guard let data = try? encoder.encode(text), let literal = String(data: data, encoding: .utf8) else {
      return "''"
    }
    return literal
  }

  /// The record file's `key:value` lines, once it exists (waits up to `seconds`).
  public static func record(_ url: URL, waiting seconds: TimeInterval = 20) -> [String: String] {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let text = try? String(contentsOf: url, encoding: .utf8) {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
          guard let colon = line.firstIndex(of: ":") else { continue }
          out[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return out
      }
      usleep(50_000)
    }
    return [:]
  }

  /// Whether process `pid` is running (a zombie waiting for its parent counts as ended).
  public static func isRunning(_ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
    return !status.contains("State:\tZ")
  }

  /// Whether a signal mask line (`SigBlk: 0000000000004003`) holds HUP, INT or TERM.
  public static func holdsHangUpInterruptOrTerminate(_ mask: String) -> Bool {
    guard let bits = UInt64(mask, radix: 16) else { return true }
    return [SIGHUP, SIGINT, SIGTERM].contains { bits & (1 << UInt64($0 - 1)) != 0 }
  }
}
