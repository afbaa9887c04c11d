import Foundation
import TestSupport
import Testing

/// Mondays of August and September 2025 for `raon weekly`, on the clock `RAON_NOW` sets, with
/// a folder of downloads as the source: each test drops the files a Monday would find (their
/// modification time is their time) and runs the week.
extension WeeklyFixture {
  /// `2025-08-18T07:00:00+09:00` and the following Mondays, 07:00 in Seoul; with `ofSample`,
  /// the sample's Monday (2024-09-09, its programs current then) and the following ones.
  static func monday(_ n: Int, at clock: String = "07:00", ofSample: Bool = false) -> String {
    let days =
      ofSample
      ? ["2024-09-09", "2024-09-16", "2024-09-23", "2024-09-30"]
      : ["2025-08-18", "2025-08-25", "2025-09-01", "2025-09-08", "2025-09-15"]
    return "\(days[n - 1])T\(clock):00+09:00"
  }

  /// The instant of `monday(n, at:)`.
  static func date(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text) ?? Date.distantPast
  }

  var inbox: URL { dir.appendingPathComponent("inbox") }

  /// The source becomes the folder `inbox` (the Open API is not asked), the formats the
  /// workbook and Markdown only (no browser needed), and `weekly` is added to `[weekly]`.
  func useInbox(weekly extra: String = "", formats: String = "[\"xlsx\", \"md\"]") throws {
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    try writeConfig(weekly: extra)
    let config = dir.appendingPathComponent("raon.toml")
    let text = try String(contentsOf: config, encoding: .utf8)
      .replacingOccurrences(of: "source = \"api\"", with: "source = \"inbox\"")
      .replacingOccurrences(of: "formats = [\"pdf\", \"xlsx\", \"md\"]", with: "formats = \(formats)")
    try Data(text.utf8).write(to: config)
  }

  /// Puts `file` in the inbox as the portal's download, modified at `time` (ISO 8601).
  func drop(_ file: URL, at time: String, as name: String = "서울시 문화행사 정보.csv") throws {
    let target = inbox.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    try FileManager.default.copyItem(at: file, to: target)
    try FileManager.default.setAttributes([.modificationDate: Self.date(time)], ofItemAtPath: target.path)
  }

  /// `raon weekly ARGS` on the clock `time`.
  func weekly(_ arguments: [String] = [], at time: String, in folder: URL? = nil) async throws -> RaonProcess.Result {
    try await RaonProcess.runDetached(
      ["weekly"] + arguments, in: folder ?? dir, environment: environment.merging(["RAON_NOW": time]) { _, b in b })
  }

  /// `raon runs --json` on the clock `time`.
  func runs(at time: String) async throws -> (status: Int32, json: [String: Any], stderr: String) {
    let run = try await RaonProcess.runDetached(
      ["runs", "--json", "--db", db], in: dir, environment: environment.merging(["RAON_NOW": time]) { _, b in b })
    let json = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]) ?? [:]
    return (run.status, json, run.stderr)
  }

  /// The catalogs of a gate case (``gate_cases.py``): the base, the case, and the figures
  /// the gates should find, computed from the rows.
  func gateCase(_ name: String) throws -> (base: URL, case: URL, expected: [String: Any]) {
    let folder = dir.appendingPathComponent("cases-\(name)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/gate_cases.py").path
    let run = try Python.run([script, Fixtures.sampleCSV.path, folder.path, name])
    #expect(run.status == 0, "\(run.stderr)")
    let expected = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
    return (folder.appendingPathComponent("base.csv"), folder.appendingPathComponent("case.csv"), expected)
  }

  /// Every received message's recipients (the envelope's).
  static func recipients(_ message: [String: Any]) -> [String] {
    (message["envelope"] as? [String: Any])?["rcpt_tos"] as? [String] ?? []
  }

  /// Keeps a received message for the lead to show — the raw `.eml`, its text and its HTML —
  /// in /work/helpers/out-monday/NAME (outside the repository; skipped where that folder
  /// cannot be made).
  func keep(_ message: [String: Any], index: Int, as name: String) {
    let folder = URL(fileURLWithPath: "/work/helpers/out-monday").appendingPathComponent(name)
    guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return }
    let eml = smtp.folder.appendingPathComponent(String(format: "%04d.eml", index))
    try? FileManager.default.removeItem(at: folder.appendingPathComponent("message.eml"))
    try? FileManager.default.copyItem(at: eml, to: folder.appendingPathComponent("message.eml"))
    let subject = message["subject"] as? String ?? ""
    try? Data(("Subject: \(subject)\n\n" + (message["text"] as? String ?? "")).utf8)
      .write(to: folder.appendingPathComponent("message.txt"))
    try? Data((message["html"] as? String ?? "").utf8).write(to: folder.appendingPathComponent("message.html"))
  }
}
