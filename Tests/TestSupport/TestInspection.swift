import Foundation

/// Helpers for the hardening tests: scanning files for a secret, running Python, counting.
public enum TestInspection {
  /// Every regular file under `directory` (recursively, hidden ones too).
  public static func files(under directory: URL) -> [URL] {
    guard
      let walker = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [])
    else { return [] }
    var out: [URL] = []
    for case let url as URL in walker {
      if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
        out.append(url)
      }
    }
    return out
  }

  /// The forms a secret may take in bytes: as is, percent-encoded (both hex cases), and in
  /// UTF-16 (little and big endian, as SQLite or a spreadsheet could hold it).
  public static func forms(of secret: String) -> [[UInt8]] {
    var forms: [[UInt8]] = [Array(secret.utf8)]
    let unreserved = CharacterSet(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    if let encoded = secret.addingPercentEncoding(withAllowedCharacters: unreserved),
      encoded != secret
    {
      forms.append(Array(encoded.utf8))
      forms.append(Array(encoded.lowercased().utf8))
    }
    forms.append(secret.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    forms.append(secret.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    return forms
  }

  /// Whether `haystack` contains `needle` as bytes.
  public static func contains(_ haystack: Data, _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    return haystack.withUnsafeBytes { raw -> Bool in
      let h = raw.bindMemory(to: UInt8.self)
      let first = needle[0]
      var i = 0
      let last = h.count - needle.count
      while i <= last {
        if h[i] == first {
          var k = 1
          while k < needle.count, h[i + k] == needle[k] { k += 1 }
          if k == needle.count { return true }
        }
        i += 1
      }
      return false
    }
  }

  /// The files under `directories` and the texts that contain `secret` in any form.
  public static func leaks(of secret: String, in directories: [URL], texts: [String: String] = [:])
    -> [String]
  {
    let forms = forms(of: secret)
    var found: [String] = []
    for directory in directories {
      for file in files(under: directory) {
        guard let data = try? Data(contentsOf: file) else { continue }
        if forms.contains(where: { contains(data, $0) }) { found.append(file.path) }
      }
    }
    for (name, text) in texts where forms.contains(where: { contains(Data(text.utf8), $0) }) {
      found.append(name)
    }
    return found
  }

  /// Runs `python3 -c SCRIPT ARGS…` and returns its standard output (trimmed), or throws
  /// with its standard error.
  public static func python(_ script: String, _ arguments: [String] = []) throws -> String {
    let result = try Python.run(["-c", script] + arguments)
    guard result.status == 0 else { throw PythonFailed(stderr: result.stderr) }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  public struct PythonFailed: Error, CustomStringConvertible {
    public var stderr: String
    public var description: String { "python3 failed: \(stderr)" }
  }

  /// `PRAGMA integrity_check`, the snapshot ids and each snapshot's program count (from the
  /// presence intervals), read by Python's sqlite3 — not by the code under test.
  public static func storeSummary(_ path: String) throws -> (integrity: String, programCounts: [Int: Int]) {
    let script = """
      import sqlite3, sys, json
      db = sqlite3.connect(sys.argv[1])
      ok = db.execute("PRAGMA integrity_check").fetchone()[0]
      counts = {}
      for (sid, declared) in db.execute("SELECT id, program_count FROM snapshot ORDER BY id"):
          n = db.execute("SELECT coalesce(sum(copies),0) FROM presence WHERE first_snapshot_id <= ? AND ? <= last_snapshot_id", (sid, sid)).fetchone()[0]
          counts[sid] = n if n == declared else -1
      print(json.dumps({"ok": ok, "counts": counts}))
      """
    let text = try python(script, [path])
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    var counts: [Int: Int] = [:]
    for (k, v) in object["counts"] as? [String: Any] ?? [:] {
      if let id = Int(k), let n = (v as? NSNumber)?.intValue { counts[id] = n }
    }
    return (object["ok"] as? String ?? "?", counts)
  }
}
