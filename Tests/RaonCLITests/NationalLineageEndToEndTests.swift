import Foundation
import TestSupport
import Testing

/// A merger the shipped lineage does not know, built from the shared national download
/// (Scripts/national_merger.py: 충청북도 renamed 충북특별자치도 with new provider names, codes
/// and addresses, 음성군 and 진천군 merged into 진천음성시, real edits, additions and
/// removals), reported by the real binary (issue 45): found, counted as the same data with
/// the matching `renames`/`merges` written by hand counts it, and both as an independent
/// Python count of the same data without the lineage change says; named in 자료 정보 and on
/// standard error with the `raon.toml` lines that keep it; still right a week later.
@Suite(.serialized) struct NationalLineageEndToEndTests {
  static let scripts = NationalReportEndToEndTests.scripts
  static let download = NationalReportEndToEndTests.download
  static let region = "충북특별자치도"
  /// What an operator who knows the merger writes (not Raon's printed lines).
  static let handWritten = """
    [national]
    renames = [ { old = "충청북도", new = "충북특별자치도", since = 2025-04-07 } ]
    merges = [
      { from = "충청북도 음성군", into = "충북특별자치도 진천음성시", on = 2025-04-07 },
      { from = "충청북도 진천군", into = "충북특별자치도 진천음성시", on = 2025-04-07 },
    ]
    """

  struct Counts: Equatable, CustomStringConvertible {
    var added: Int
    var removed: Int
    var changed: Int
    var fields: [String: Int]
    var description: String { "+\(added) -\(removed) ~\(changed) \(fields.sorted { $0.key < $1.key })" }

    init(added: Int, removed: Int, changed: Int, fields: [String: Int]) {
      (self.added, self.removed, self.changed, self.fields) = (added, removed, changed, fields)
    }

    /// From Python's count.
    init(python: Any?) throws {
      let object = try #require(python as? [String: Any])
      self.init(
        added: object["added"] as? Int ?? -1, removed: object["removed"] as? Int ?? -1,
        changed: object["changed"] as? Int ?? -1, fields: object["fields"] as? [String: Int] ?? [:])
    }

    /// From a report.json's changes: each changed event's fields, counted by name.
    init(report: URL) throws {
      let json = try NationalReportEndToEndTests.json(try String(contentsOf: report, encoding: .utf8))
      let changes = try #require(json["changes"] as? [String: Any], "\(report.path)")
      var fields: [String: Int] = [:]
      for case let list as [[String: Any]] in (changes["changedFields"] as? [String: Any] ?? [:]).values {
        for field in list { fields[field["field"] as? String ?? "?", default: 0] += 1 }
      }
      self.init(
        added: changes["added"] as? Int ?? -1, removed: changes["removed"] as? Int ?? -1,
        changed: changes["changed"] as? Int ?? -1, fields: fields)
    }
  }

  /// The built downloads (merged.csv, plain.csv, stops.csv) in `dir/built`.
  static func built(_ dir: URL) throws -> URL {
    let folder = dir.appendingPathComponent("built")
    let run = try Python.run([
      scripts.appendingPathComponent("national_merger.py").path, "build", download.path, folder.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    return folder
  }

  /// Python's count of `download` → `later`: every event, and 충북's.
  static func counted(_ later: URL) throws -> (all: Counts, province: Counts) {
    let run = try Python.run([
      scripts.appendingPathComponent("national_merger.py").path, "count", download.path, later.path, "충북",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let json = try NationalReportEndToEndTests.json(run.stdout)
    return (try Counts(python: json["all"]), try Counts(python: json["province"]))
  }

  /// A store in `dir` with the download (2025-03-31) and `later` (2025-04-07), `config`
  /// written first when given.
  static func recorded(_ dir: URL, later: URL, config: String? = nil) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    if let config { try config.write(to: dir.appendingPathComponent("raon.toml"), atomically: true, encoding: .utf8) }
    let run = try RaonProcess.run(
      ["snapshot", "--catalog", "national", "--db", "national.sqlite", download.path, later.path,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--taken-at", "2025-04-07T09:00:00+09:00"],
      in: dir)
    #expect(run.status == 0, "\(run.stderr)")
  }

  /// `raon report` of the latest snapshot with 충북특별자치도's pack: its run, the country's
  /// counts and the pack's.
  static func report(_ dir: URL, out: String, _ extra: [String] = []) throws
    -> (run: RaonProcess.Result, country: Counts, pack: Counts)
  {
    let run = try RaonProcess.run(
      ["report", "--db", "national.sqlite", "--region", region, "--format", "md,json", "--out", out] + extra, in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let folder = dir.appendingPathComponent(out)
    return (
      run, try Counts(report: folder.appendingPathComponent("report.json")),
      try Counts(report: folder.appendingPathComponent("regions/\(region)/report.json"))
    )
  }

  /// The `raon.toml` lines a warning prints to keep what was found (`warning:   …`).
  static func keepLines(_ stderr: String) -> String {
    var lines: [String] = []
    var keeping = false
    for line in stderr.split(separator: "\n").map(String.init) {
      if line.hasPrefix("warning: to keep this") { keeping = true; continue }
      if keeping, line.hasPrefix("warning:   ") { lines.append(String(line.dropFirst("warning:   ".count))); continue }
      keeping = false
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func theBuiltMergerIsFoundAndCountsAsTheHandWrittenConfig() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-lineage")
    defer { try? FileManager.default.removeItem(at: dir) }
    let built = try Self.built(dir)
    let merged = built.appendingPathComponent("merged.csv")
    let expected = try Self.counted(built.appendingPathComponent("plain.csv"))
    // The built edits themselves (national_merger.py's docstring), as Python counts them.
    #expect(expected.all == Counts(added: 6, removed: 8, changed: 8, fields: ["feeText": 5, "startTime": 3]))
    #expect(expected.province == Counts(added: 5, removed: 6, changed: 6, fields: ["feeText": 3, "startTime": 3]))
    // Read by the shipped lineage alone, the lineage change hides them: 충북's every event
    // removed and added again.
    let unaware = try Self.counted(merged)
    #expect(unaware.all.removed > 250 && unaware.province.changed == 0)

    // Found in the data.
    let found = dir.appendingPathComponent("found")
    try Self.recorded(found, later: merged)
    let detected = try Self.report(found, out: "out")
    // By hand, in raon.toml from the start.
    let hand = dir.appendingPathComponent("hand")
    try Self.recorded(hand, later: merged, config: Self.handWritten)
    let byHand = try Self.report(hand, out: "out")
    // Raon's printed lines, written into raon.toml after both snapshots were recorded.
    let pasted = dir.appendingPathComponent("pasted")
    try Self.recorded(pasted, later: merged)
    let lines = Self.keepLines(detected.run.stderr)
    #expect(lines.hasPrefix("[national]\nrenames = [{ old = \"충청북도\", new = \"충북특별자치도\", since = 2025-04-07 }]\n"), "\(lines)")
    try lines.write(to: pasted.appendingPathComponent("raon.toml"), atomically: true, encoding: .utf8)
    let byLines = try Self.report(pasted, out: "out")

    for (name, result) in [("found", detected), ("hand", byHand), ("pasted", byLines)] {
      #expect(result.country == expected.all, "\(name): \(result.country) ≠ \(expected.all)")
      #expect(result.pack == expected.province, "\(name): \(result.pack) ≠ \(expected.province)")
    }
    #expect(detected.run.stderr.contains(
      "warning: regions renamed or merged that Raon's lineage does not know, found in the data between 2025-03-31 and 2025-04-07"))
    #expect(detected.run.stderr.contains("충청북도 음성군 + 충청북도 진천군 → 충북특별자치도 진천음성시 (merged;"))
    for result in [byHand, byLines] { #expect(!result.run.stderr.contains("renamed or merged"), "\(result.run.stderr)") }

    // 자료 정보 names it, with the lines, in the country's report and the region's pack.
    for path in ["out/report.md", "out/regions/\(Self.region)/report.md"] {
      let md = try String(contentsOf: found.appendingPathComponent(path), encoding: .utf8)
      let about = String(md[(md.range(of: "자료 정보\n")?.lowerBound ?? md.endIndex)...])
      #expect(about.contains("**자료에서 찾은 지역 변경**"), "\(path)")
      #expect(about.contains("  - 충청북도 → 충북특별자치도: 시·도 이름 변경(2025.\u{00A0}4.\u{00A0}7.(월)부터, 제공기관 11곳"), "\(path)")
      #expect(about.contains("  - 충청북도 음성군, 충청북도 진천군 → 충북특별자치도 진천음성시: 통합(2025.\u{00A0}4.\u{00A0}7.(월)부터"), "\(path)")
      #expect(about.contains("  - `renames = [{ old = \"충청북도\", new = \"충북특별자치도\", since = 2025-04-07 }]`"), "\(path)")
      #expect(about.contains("  - `detect_lineage = false`") || about.contains("`detect_lineage = false`"), "\(path)")
    }
    let plain = try String(contentsOf: hand.appendingPathComponent("out/report.md"), encoding: .utf8)
    #expect(!plain.contains("자료에서 찾은 지역 변경"))

    // In English.
    let english = try RaonProcess.run(
      ["report", "--db", "national.sqlite", "--lang", "en", "--format", "md", "--out", "en"], in: found)
    #expect(english.status == 0, "\(english.stderr)")
    let en = try String(contentsOf: found.appendingPathComponent("en/report.md"), encoding: .utf8)
    #expect(en.contains("**Region changes found in the data**"))
    let line = en.split(separator: "\n").first { $0.contains("충청북도 → 충북특별자치도") }.map(String.init) ?? ""
    #expect(line.hasPrefix("  - 충청북도 → 충북특별자치도: 시·도 renamed (from Mon") && line.contains("; 11 providers; "), "\(line)")

    // `raon diff` counts the same and says the same.
    let diff = try RaonProcess.run(["diff", "--db", "national.sqlite", "previous", "latest"], in: found)
    #expect(diff.status == 0, "\(diff.stderr)")
    #expect(diff.stdout.contains(
      "\(expected.all.added) added, \(expected.all.removed) removed, \(expected.all.changed) changed"), "\(diff.stdout)")
    #expect(diff.stderr.contains("warning:   " + lines.split(separator: "\n")[1]), "\(diff.stderr)")

    // A week later, on the new names, with or without the lines in raon.toml: nothing
    // changed, and the 시·도 is still named and packed as 충북특별자치도.
    for store in [found, pasted] {
      let next = try RaonProcess.run(
        ["snapshot", "--db", "national.sqlite", merged.path, "--taken-at", "2025-04-14T09:00:00+09:00"], in: store)
      #expect(next.status == 0, "\(next.stderr)")
      let week = try Self.report(store, out: "next")
      #expect(week.country == Counts(added: 0, removed: 0, changed: 0, fields: [:]))
      #expect(week.pack == Counts(added: 0, removed: 0, changed: 0, fields: [:]))
      #expect(week.run.stderr.contains("found in the data between 2025-03-31 and 2025-04-07") == (store == found))
    }
  }

  /// `raon report --input` (the new download held while it is recorded, compared as it is
  /// read): found and counted the same, and recorded once.
  @Test func aReportOfTheNewDownloadAsItIsRecordedFindsItToo() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-lineage-input")
    defer { try? FileManager.default.removeItem(at: dir) }
    let built = try Self.built(dir)
    let expected = try Self.counted(built.appendingPathComponent("plain.csv"))
    let first = try RaonProcess.run(
      ["snapshot", "--catalog", "national", "--db", "national.sqlite", Self.download.path,
       "--taken-at", "2025-03-31T09:00:00+09:00"], in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let run = try Self.report(
      dir, out: "out", ["--input", built.appendingPathComponent("merged.csv").path, "--taken-at", "2025-04-07T09:00:00+09:00"])
    #expect(run.country == expected.all && run.pack == expected.province, "\(run.country) \(run.pack)")
    #expect(run.run.stderr.contains("충청북도 → 충북특별자치도 (시·도 renamed, 11 providers;"), "\(run.run.stderr)")
    let listed = try RaonProcess.run(["snapshots", "--db", "national.sqlite"], in: dir)
    #expect(listed.stdout.split(separator: "\n").filter { $0.contains("merged.csv") }.count == 1, "\(listed.stdout)")
    // `raon site` follows the stored keys week by week, as before (docs/NATIONAL.md).
    let site = try RaonProcess.run(["site", "--db", "national.sqlite", "--format", "html", "--out", "site"], in: dir)
    #expect(site.status == 0, "\(site.stderr)")
  }

  /// A provider that stops and an unrelated one that starts (listing two of its events and
  /// three of its titles elsewhere) are counted as they are: removed and added, no lineage.
  @Test func aProviderThatStopsAndAnUnrelatedNewOneAreNotMerged() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-lineage-stops")
    defer { try? FileManager.default.removeItem(at: dir) }
    let stops = try Self.built(dir).appendingPathComponent("stops.csv")
    let expected = try Self.counted(stops)
    // 청양군's 36 events removed; the new body's 6 + 2 + 3 added.
    #expect(expected.all == Counts(added: 11, removed: 36, changed: 0, fields: [:]), "\(expected.all)")
    try Self.recorded(dir, later: stops)
    let run = try RaonProcess.run(["report", "--db", "national.sqlite", "--format", "json", "--out", "out"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("renamed or merged"), "\(run.stderr)")
    #expect(try Counts(report: dir.appendingPathComponent("out/report.json")) == expected.all)
  }

  /// `detect_lineage = false`: the data is read as before — the new 시·도's name refused by
  /// `--region`, every event of it removed and added — and nothing is said.
  @Test func detectionOffReadsTheDataAsBefore() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-lineage-off")
    defer { try? FileManager.default.removeItem(at: dir) }
    let merged = try Self.built(dir).appendingPathComponent("merged.csv")
    let unaware = try Self.counted(merged)
    try Self.recorded(dir, later: merged, config: "[national]\ndetect_lineage = false\n")
    let refused = try RaonProcess.run(
      ["report", "--db", "national.sqlite", "--region", Self.region, "--format", "json", "--out", "out"], in: dir)
    #expect(refused.status == 64, "\(refused.stderr)")
    #expect(refused.stderr.contains("'\(Self.region)' is no 시·도 and no provider"), "\(refused.stderr)")
    let run = try RaonProcess.run(["report", "--db", "national.sqlite", "--format", "json", "--out", "out"], in: dir)
    #expect(run.status == 0 && !run.stderr.contains("renamed or merged"), "\(run.stderr)")
    #expect(try Counts(report: dir.appendingPathComponent("out/report.json")) == unaware.all)
  }
}
