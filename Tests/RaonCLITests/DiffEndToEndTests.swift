import Foundation
import TestSupport
import Testing

/// `raon diff` (issue 24, item 13): the report's change analysis and JSON keys, and files
/// only where `--out` says.
@Suite("raon diff end to end")
struct DiffEndToEndTests {
  /// Writes "next week" from the sample, with one change of each kind chosen by its own
  /// dates, and prints the expected split computed here from the CSV alone:
  /// removed rows end before D (2024-09-16) → ended, else withdrawn; a title made
  /// "a  b" from "a b" → minor; a title with a suffix → material; one new program.
  static let makeNextWeek = #"""
    import csv, io, json, re, sys
    raw = open(sys.argv[1], "rb").read()
    text = raw.decode("cp949", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header, body = rows[0], rows[1:]
    url, title, end = header.index("문화포털상세URL"), header.index("공연/행사명"), header.index("종료일")
    D = "2024-09-16"
    cid = lambda r: "cult:" + re.search(r"cultcode=(\d+)", r[url]).group(1)
    # Rows with undecodable bytes change when re-encoded: they leave, like any removed row.
    removed = [i for i, r in enumerate(body) if any("\ufffd" in c for c in r)]
    removed.append(next(i for i, r in enumerate(body) if i not in removed and r[end][:10] < D))
    removed.append(next(i for i, r in enumerate(body) if i not in removed and r[end][:10] >= D))
    free = [i for i in range(len(body)) if i not in removed]
    material = free[10]
    minor = next(i for i in free[11:] if " " in body[i][title].strip())
    body[material][title] += " (변경)"
    body[minor][title] = body[minor][title].replace(" ", "  ", 1)
    new = list(body[free[20]])
    new[url] = re.sub(r"cultcode=\d+", "cultcode=990001", new[url])
    out = [r for i, r in enumerate(body) if i not in removed] + [new]
    with open(sys.argv[2], "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerows([header] + out)
    gone = [body[i] for i in removed]
    print(json.dumps({
        "addedIds": ["cult:990001"],
        "removedEndedIds": sorted(cid(r) for r in gone if r[end][:10] < D),
        "removedWithdrawnIds": sorted(cid(r) for r in gone if not r[end][:10] < D),
        "changedMaterialIds": [cid(body[material])],
        "changedMinorIds": [cid(body[minor])],
    }))
    """#

  /// A store with the sample (2024-09-09) and next week (2024-09-16); the expected split.
  static func store() throws -> (dir: URL, env: [String: String], expected: [String: [String]]) {
    let dir = try Fixtures.temporaryDirectory("raon-diff-kinds")
    let script = dir.appendingPathComponent("next_week.py")
    try makeNextWeek.write(to: script, atomically: true, encoding: .utf8)
    let next = dir.appendingPathComponent("next.csv")
    let made = try Python.run([script.path, Fixtures.sampleCSV.path, next.path])
    #expect(made.status == 0, "\(made.stderr)")
    let expected = try #require(
      try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: [String]])
    let env = ["RAON_DB": "store.sqlite"]
    let rec = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, next.path, "--taken-at", "2024-09-09", "--taken-at", "2024-09-16"],
      in: dir, environment: env)
    #expect(rec.status == 0, "\(rec.stderr)")
    return (dir, env, expected)
  }

  @Test func diffJSONSplitsRemovedAndChangedWithTheReportsKeys() throws {
    let (dir, env, expected) = try Self.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(["diff", "1", "2", "--out", "d", "--format", "json"], in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    let data = try Data(contentsOf: dir.appendingPathComponent("d/changes.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for (key, ids) in expected {
      #expect(json[key] as? [String] == ids, "\(key): \(json[key] ?? "missing") ≠ \(ids)")
      let count = String(key.dropLast(3))
      if count != "added" { #expect((json[count] as? NSNumber)?.intValue == ids.count, "\(count)") }
    }
    let removed = (expected["removedEndedIds"] ?? []) + (expected["removedWithdrawnIds"] ?? [])
    #expect((json["removed"] as? NSNumber)?.intValue == removed.count)
    // The summary line says the same split.
    let ended = expected["removedEndedIds"]?.count ?? 0, withdrawn = expected["removedWithdrawnIds"]?.count ?? 0
    #expect(run.stdout.contains("removed: \(ended) ended, \(withdrawn) withdrawn; changed: 1 material, 1 minor"), "\(run.stdout)")
  }

  @Test func diffWithoutOutPrintsItsSummaryAndWritesNothing() throws {
    let (dir, env, expected) = try Self.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
    let run = try RaonProcess.run(["diff", "1", "2"], in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    let removed = (expected["removedEndedIds"]?.count ?? 0) + (expected["removedWithdrawnIds"]?.count ?? 0)
    #expect(run.stdout.contains("snapshot 1 → 2: 1 added, \(removed) removed, 2 changed"), "\(run.stdout)")
    // Only the store's own files may appear (SQLite's -wal/-shm), nothing under reports/.
    let after = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
    #expect(after.subtracting(before).allSatisfy { $0.hasPrefix("store.sqlite") }, "\(after.subtracting(before))")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("reports").path))

    let asked = try RaonProcess.run(["diff", "1", "2", "--format", "csv"], in: dir, environment: env)
    #expect(asked.status == 64, "a format without --out is a usage error: \(asked.stderr)")
    #expect(asked.stderr.contains("--out"))
  }
}
