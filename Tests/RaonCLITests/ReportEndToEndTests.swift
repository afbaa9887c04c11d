import Foundation
import TestSupport
import Testing

/// End-to-end: the built `raon` binary, a fresh store, real files — as a user runs it.
@Suite(.serialized) struct ReportEndToEndTests {
  /// What `read_report.py` (csv, json, openpyxl — not Raon's code) found in a report folder.
  struct ReadBack {
    let root: [String: Any]
    var json: [String: Any] { root["json"] as? [String: Any] ?? [:] }
    var csv: [String: [String: Any]] { root["csv"] as? [String: [String: Any]] ?? [:] }
    var xlsxSheets: [String: [[Any]]] {
      (root["xlsx"] as? [String: Any])?["sheets"] as? [String: [[Any]]] ?? [:]
    }
    var xlsxCharts: [String] { (root["xlsx"] as? [String: Any])?["charts"] as? [String] ?? [] }
    var markdown: String { (root["md"] as? [String: Any])?["text"] as? String ?? "" }
    var missingImages: [String] { (root["md"] as? [String: Any])?["missingImages"] as? [String] ?? ["?"] }
    var markdownImages: [String] { (root["md"] as? [String: Any])?["images"] as? [String] ?? [] }

    func csvRows(_ name: String) -> [[String]] { csv[name]?["rows"] as? [[String]] ?? [] }
  }

  static func readBack(_ directory: URL) throws -> ReadBack {
    let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/read_report.py")
    let result = try Python.run([script.path, directory.path])
    #expect(result.status == 0, "read_report.py failed: \(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return ReadBack(root: object as? [String: Any] ?? [:])
  }

  static func intValue(_ any: Any?) -> Int? {
    if let n = any as? NSNumber { return n.intValue }
    if let s = any as? String { return Int(s) }
    return nil
  }

  @Test func aFreshStoreReportsOnTheBundledSampleInAllFourFormats() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["report"], in: dir, environment: ["RAON_DB": "store.sqlite"])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    // Standard error is a pipe here, not a terminal: no progress lines.
    #expect(run.stderr.isEmpty, "progress leaked into a non-terminal: \(run.stderr)")
    // The sample was taken 2024-09-09 (a Monday): its ISO week is 2024-W37.
    let out = dir.appendingPathComponent("reports/2024-W37")
    for file in ["report.md", "report.xlsx", "report.json", "csv/programs.csv", "csv/by_category.csv",
      "csv/by_district.csv", "csv/by_fee.csv", "csv/by_duration.csv", "csv/category_by_district.csv",
      "csv/changes.csv"]
    {
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file) missing")
    }
    let r = try Self.readBack(out)

    // JSON: the snapshot and its count (4,998 data rows in the sample, per its README).
    let snapshot = r.json["snapshot"] as? [String: Any]
    #expect(Self.intValue(snapshot?["programCount"]) == 4998)
    #expect(snapshot?["takenAt"] as? String == "2024-09-08T15:00:00Z")
    #expect(r.json["compareTo"] is NSNull)
    #expect(r.json["changes"] is NSNull)

    // CSV: one row per program, with a BOM; category rows sum to the total.
    #expect(r.csv["programs.csv"]?["bom"] as? Bool == true)
    #expect(r.csvRows("programs.csv").count == 4998 + 1)
    let categoryRows = r.csvRows("by_category.csv").dropFirst()
    #expect(categoryRows.compactMap { Int($0[1]) }.reduce(0, +) == 4998)

    // JSON and CSV agree group by group.
    let jsonCategories = (r.json["byCategory"] as? [[String: Any]] ?? []).map {
      ($0["key"] as? String ?? "", Self.intValue($0["count"]) ?? -1)
    }
    let csvCategories = categoryRows.map { ($0[0], Int($0[1]) ?? -2) }
    #expect(jsonCategories.map(\.0) == csvCategories.map(\.0))
    #expect(jsonCategories.map(\.1) == csvCategories.map(\.1))
    // The sample's largest category, counted by Python's csv module: 교육/체험 1,826.
    #expect(jsonCategories.first?.0 == "교육/체험")
    #expect(jsonCategories.first?.1 == 1826)

    // XLSX (openpyxl): the programs sheet has every program; charts are present.
    let programSheets = r.xlsxSheets.filter { $0.key.hasPrefix("프로그램") }
    #expect(programSheets.values.map { $0.count - 1 }.reduce(0, +) == 4998)
    #expect(r.xlsxCharts.count >= 4)
    let categorySheet = r.xlsxSheets["분류별"] ?? []
    // Group rows, then a 합계 (total) row.
    let groupRows = categorySheet.dropFirst().filter { ($0.first as? String) != "합계" }
    let xlsxCategoryCounts = groupRows.compactMap { Self.intValue($0.count > 1 ? $0[1] : nil) }
    #expect(xlsxCategoryCounts == jsonCategories.map(\.1))
    let totalRow = categorySheet.first { ($0.first as? String) == "합계" }
    #expect(Self.intValue(totalRow.flatMap { $0.count > 1 ? $0[1] : nil }) == 4998)
    // The closing 자료 정보 sheet states the program count (요약 is the week's page 1).
    let aboutValues = (r.xlsxSheets["자료 정보"] ?? []).flatMap { $0 }.compactMap { Self.intValue($0) }
    let aboutText = (r.xlsxSheets["자료 정보"] ?? []).flatMap { $0 }.compactMap { $0 as? String }.joined(separator: " ")
    #expect(aboutValues.contains(4998) || aboutText.contains("4,998"), "\(aboutText.prefix(300))")

    // Markdown: Korean title with the week, the count, charts that exist beside it.
    #expect(r.markdown.contains("2024-W37"))
    #expect(r.markdown.contains("4,998"))
    #expect(r.markdownImages.count >= 4)
    #expect(r.missingImages.isEmpty)
    #expect(r.markdown.contains("공공누리"))
  }

  @Test func comparingWithAModifiedCopyShowsExactlyTheChangedIdsInEveryFormat() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-diff")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The modified copy and its expected ids come from a Python script, not from Raon.
    let modified = dir.appendingPathComponent("next-week.csv")
    let expectedURL = dir.appendingPathComponent("expected.json")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, modified.path, "--expected", expectedURL.path,
    ])
    #expect(make.status == 0, "\(make.stderr)")
    let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any] ?? [:]
    let added = (expected["added"] as? [String] ?? []).sorted()
    let removed = (expected["removed"] as? [String] ?? []).sorted()
    let changed = (expected["changed"] as? [String: [String]] ?? [:]).keys.sorted()
    #expect(added.count == 3 && removed.count == 5 && changed.count == 4)

    let env = ["RAON_DB": "store.sqlite"]
    let first = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let report = try RaonProcess.run(
      ["report", "--input", modified.path, "--taken-at", "2024-09-16", "--compare-to", "previous", "--out", "out"],
      in: dir, environment: env)
    #expect(report.status == 0, "\(report.stderr)")
    let r = try Self.readBack(dir.appendingPathComponent("out"))

    // JSON
    let changes = r.json["changes"] as? [String: Any]
    #expect(changes?["addedIds"] as? [String] == added)
    #expect(changes?["removedIds"] as? [String] == removed)
    #expect(changes?["changedIds"] as? [String] == changed)
    #expect(Self.intValue(changes?["added"]) == 3)
    #expect(Self.intValue((r.json["compareTo"] as? [String: Any])?["programCount"]) == 4998)
    #expect(Self.intValue((r.json["snapshot"] as? [String: Any])?["programCount"]) == 4998 - 5 + 3)

    // CSV: ids per kind of change, and each changed field named.
    let rows = r.csvRows("changes.csv")
    let header = rows.first ?? []
    let kindColumn = header.firstIndex(of: "change") ?? 0
    let idColumn = header.firstIndex(of: "id") ?? 1
    let fieldColumn = header.firstIndex(of: "field")
    func ids(_ kind: String) -> [String] {
      Array(Set(rows.dropFirst().filter { $0[kindColumn] == kind }.map { $0[idColumn] })).sorted()
    }
    #expect(ids("added") == added)
    #expect(ids("removed") == removed)
    #expect(ids("changed") == changed)
    if let fieldColumn {
      let expectedFields = expected["changed"] as? [String: [String]] ?? [:]
      for id in changed {
        let fields = rows.dropFirst().filter { $0[kindColumn] == "changed" && $0[idColumn] == id }.map { $0[fieldColumn] }
        #expect(Set(fields) == Set(expectedFields[id] ?? []), "fields of \(id)")
      }
    }

    // XLSX: the changes sheet names the same ids.
    let sheet = r.xlsxSheets["변경 사항"] ?? []
    let sheetIds = Set(sheet.flatMap { $0 }.compactMap { $0 as? String }.filter { $0.hasPrefix("cult:") })
    #expect(sheetIds == Set(added + removed + changed))

    // Markdown: every id appears (lists are capped at 20, these are fewer).
    for id in added + removed + changed {
      #expect(r.markdown.contains(id.replacingOccurrences(of: "cult:", with: "")), "\(id) missing from report.md")
    }
  }

  @Test func rerunningTheSameReportGivesByteIdenticalTextOutputs() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-determinism")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let a = try RaonProcess.run(["report", "--out", "a"], in: dir, environment: env)
    let b = try RaonProcess.run(["report", "--snapshot", "1", "--out", "b"], in: dir, environment: env)
    #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
    let files = try FileManager.default.subpathsOfDirectory(atPath: dir.appendingPathComponent("a").path)
      .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".md") || $0.hasSuffix(".json") || $0.hasSuffix(".svg") }
    #expect(files.count >= 9)
    for file in files {
      let x = try Data(contentsOf: dir.appendingPathComponent("a/\(file)"))
      let y = try Data(contentsOf: dir.appendingPathComponent("b/\(file)"))
      #expect(x == y, "\(file) differs between runs")
    }
  }

  @Test func theCommittedSampleReportIsWhatTheCurrentCodeGenerates() throws {
    let committed = Fixtures.repositoryRoot.appendingPathComponent("reports/sample")
    let dir = try Fixtures.temporaryDirectory("raon-e2e-sample")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The same command scripts/regenerate-sample-report.sh runs.
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "sample"], in: dir, environment: [:])
    #expect(run.status == 0, "\(run.stderr)")
    let fresh = dir.appendingPathComponent("sample")
    let files = try FileManager.default.subpathsOfDirectory(atPath: fresh.path)
      .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".md") || $0.hasSuffix(".json") || $0.hasSuffix(".svg") }
    #expect(!files.isEmpty)
    for file in files {
      let x = try? Data(contentsOf: committed.appendingPathComponent(file))
      let y = try Data(contentsOf: fresh.appendingPathComponent(file))
      #expect(x == y, "reports/sample/\(file) is stale — run scripts/regenerate-sample-report.sh")
    }
  }
}
