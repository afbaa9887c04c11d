import Foundation
import TestSupport
import Testing

/// Issue 27 ("promises kept on the new surfaces: the third round"), items 1, 12 and 13, end
/// to end with the real binary.
@Suite(.serialized) struct CatalogEdgeCasesEndToEndTests {
  /// Writes (`make`) a workbook of N programs with openpyxl — the sample's 22 columns and
  /// rows, repeated with new cultcodes and titles — and checks (`check`) a store against
  /// it: every recorded raw record equals what openpyxl wrote, read back by Python.
  static let workbookScript = #"""
import csv, io, json, sqlite3, sys, zipfile
mode = sys.argv[1]

def rows(sample, n):
    text = open(sample, "rb").read().decode("cp949", errors="replace")
    table = list(csv.reader(io.StringIO(text, newline="")))
    header, data = table[0], table[1:]
    url = header.index("문화포털상세URL")
    title = header.index("공연/행사명")
    out = []
    for k in range(n):
        r = list(data[k % len(data)])
        r[url] = "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=%d" % (800000 + k)
        r[title] = (r[title] + " #%d" % k).strip()
        # openpyxl refuses control characters; the sample's replaced byte is kept.
        r = ["".join(ch for ch in v if ch >= " " or ch in "\t\n\r") for v in r]
        out.append(r)
    return header, out

if mode == "make":
    from openpyxl import Workbook
    sample, path, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
    header, data = rows(sample, n)
    wb = Workbook()
    ws = wb.active
    ws.append(header)
    for r in data:
        ws.append(r)
    wb.save(path)
    with zipfile.ZipFile(path) as z:
        sizes = {i.filename: i.file_size for i in z.infolist()}
    print(json.dumps({"sheet": sizes.get("xl/worksheets/sheet1.xml", 0),
                      "shared": sizes.get("xl/sharedStrings.xml", 0)}))
else:
    sample, store, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
    header, data = rows(sample, n)
    db = sqlite3.connect(store)
    count = db.execute("select program_count from snapshot").fetchone()[0]
    got = db.execute(
        "select f.names, v.raw_values from snapshot_program p join program_version v on v.id = p.version_id "
        "join field_set f on f.id = v.field_set_id where p.snapshot_id = 1").fetchall()
    written = {}
    for r in data:
        written[r[header.index("문화포털상세URL")]] = [v if v != "" else None for v in r]
    mismatches = 0
    for names, values in got:
        names, values = json.loads(names), json.loads(values)
        record = dict(zip(names, values))
        want = written.get(record.get("문화포털상세URL"))
        # openpyxl writes no cell for an empty value: the reader gives "" for it.
        if want is None or [record.get(h) or None for h in header] != want:
            mismatches += 1
    titles = {r[header.index("문화포털상세URL")]: r[header.index("공연/행사명")] for r in data}
    print(json.dumps({"count": count, "rows": len(got), "mismatches": mismatches,
                      "title12345": titles[data[12345][header.index("문화포털상세URL")]],
                      "stored12345": next(dict(zip(json.loads(a), json.loads(b))).get("공연/행사명")
                                          for a, b in got
                                          if dict(zip(json.loads(a), json.loads(b))).get("문화포털상세URL")
                                          == data[12345][header.index("문화포털상세URL")])}, ensure_ascii=False))
"""#

  static func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  // MARK: - Item 1

  /// Item 1: a 20,000-program workbook written by openpyxl (its sheet over 10 MB) was
  /// refused as "malformed XML near line 1": Foundation's XMLParser handed libxml2 the whole
  /// part at once, and libxml2 stops past 10,000,000 bytes. Now every part is parsed as it
  /// inflates, and every record is what openpyxl wrote.
  @Test func aTwentyThousandProgramWorkbookFromOpenpyxlIsRecordedWhole() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h3-xlsx")
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = dir.appendingPathComponent("workbook.py")
    try Data(Self.workbookScript.utf8).write(to: script)
    let book = dir.appendingPathComponent("catalog.xlsx")
    let made = try Python.run([script.path, "make", Fixtures.sampleCSV.path, book.path, "20000"])
    try #require(made.status == 0, "\(made.stderr)")
    let sizes = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Int]
    // The case that failed: a part over libxml2's 10,000,000-byte lookup limit.
    #expect((sizes?["sheet"] ?? 0) > 10_000_000, "\(made.stdout)")

    let run = try RaonProcess.run(
      ["snapshot", "--db", "store.sqlite", "catalog.xlsx", "--taken-at", "2024-09-09"], in: dir)
    try #require(run.status == 0, "\(run.stderr)")
    let checked = try Python.run([
      script.path, "check", Fixtures.sampleCSV.path, dir.appendingPathComponent("store.sqlite").path, "20000",
    ])
    try #require(checked.status == 0, "\(checked.stderr)")
    let figures = try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any]
    #expect(figures?["count"] as? Int == 20_000, "\(checked.stdout)")
    #expect(figures?["rows"] as? Int == 20_000, "\(checked.stdout)")
    #expect(figures?["mismatches"] as? Int == 0, "\(checked.stdout)")
    #expect(figures?["title12345"] as? String == figures?["stored12345"] as? String, "\(checked.stdout)")
  }

  /// Item 1: the limit is far above the catalog, and says what it is when it refuses.
  @Test func aSheetOverAMillionRowsIsRefusedNamingTheLimit() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h3-rows")
    defer { try? FileManager.default.removeItem(at: dir) }
    let made = try Python.run([
      "-c",
      #"""
import sys, zipfile
head = "".join('<c r="%s1" t="inlineStr"><is><t>%s</t></is></c>' % (chr(65 + i), h)
               for i, h in enumerate(["분류", "자치구", "공연/행사명", "장소", "문화포털상세URL"]))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="s" sheetId="1"/></sheets></workbook>')
    body = '<row r="1">' + head + '</row>' + '<row/>' * 1000000
    z.writestr("xl/worksheets/sheet1.xml", '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' + body + '</sheetData></worksheet>')
"""#, dir.appendingPathComponent("huge.xlsx").path,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let run = try RaonProcess.run(["snapshot", "--db", "store.sqlite", "huge.xlsx"], in: dir)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(Self.lines(run.stderr).count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("huge.xlsx") && run.stderr.contains("1,000,000 rows"), "\(run.stderr)")
  }

  // MARK: - Item 12

  /// Item 12: a decomposed (NFD) `--district 강남구` was accepted but kept NFD in the folder
  /// name, the JSON and the title. Now it is the composed name everywhere, and the two
  /// forms given together are one district.
  @Test func aDecomposedDistrictNameIsWrittenComposed() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h3-nfd")
    defer { try? FileManager.default.removeItem(at: dir) }
    let composed = "강남구".precomposedStringWithCanonicalMapping
    let decomposed = composed.decomposedStringWithCanonicalMapping
    try #require(Array(decomposed.utf8) != Array(composed.utf8))
    let recorded = try RaonProcess.run(
      ["snapshot", "--db", "store.sqlite", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir)
    try #require(recorded.status == 0, "\(recorded.stderr)")
    for (out, names) in [("one", [decomposed]), ("both", [decomposed, composed])] {
      let run = try RaonProcess.run(
        ["report", "--db", "store.sqlite", "--out", out, "--format", "md,json"]
          + names.flatMap { ["--district", $0] }, in: dir)
      try #require(run.status == 0, "\(run.stderr)")
      let folders = try FileManager.default.contentsOfDirectory(
        atPath: dir.appendingPathComponent("\(out)/districts").path)
      #expect(folders.map { Array($0.utf8) } == [Array(composed.utf8)], "\(folders.map { Array($0.unicodeScalars) })")
      let pack = dir.appendingPathComponent("\(out)/districts").appendingPathComponent(composed)
      for file in ["report.json", "report.md"] {
        let bytes = try Data(contentsOf: pack.appendingPathComponent(file))
        #expect(bytes.range(of: Data(composed.utf8)) != nil, "\(out)/\(file)")
        #expect(bytes.range(of: Data(decomposed.utf8)) == nil, "\(out)/\(file)")
      }
    }
  }

  // MARK: - Item 13

  /// Item 13: lines of bare commas became programs (1,000,000 of them made as many
  /// "current" `h:` programs). Now they are skipped, and the command says how many.
  @Test func linesOfBareCommasAreSkippedAndCounted() throws {
    let dir = try Fixtures.temporaryDirectory("raon-h3-commas")
    defer { try? FileManager.default.removeItem(at: dir) }
    var csv = "분류,자치구,공연/행사명,장소,기관명,이용요금,유무료,시작일,종료일,문화포털상세URL\r\n"
    let blank = String(repeating: ",", count: 9) + "\r\n"
    for n in 1...10 {
      csv += "전시/미술,마포구,전시 \(n),미술관,기관,무료,무료,2024-09-02,2024-09-20,"
        + "https://culture.seoul.go.kr/view.do?cultcode=\(700_000 + n)\r\n"
      if n == 3 || n == 7 { csv += blank }
    }
    csv += blank + " , ,\t,,,,,,,\r\n"
    try Data(csv.utf8).write(to: dir.appendingPathComponent("commas.csv"))
    let run = try RaonProcess.run(
      ["snapshot", "--db", "store.sqlite", "commas.csv", "--taken-at", "2024-09-09"], in: dir)
    try #require(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("commas.csv: 4 empty rows skipped"), "\(run.stderr)")
    let list = try RaonProcess.run(["snapshots", "--db", "store.sqlite", "--json"], in: dir)
    let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
    #expect(items?.first?["programCount"] as? Int == 10, "\(list.stdout)")
    #expect(items?.first?["sourceTotal"] as? Int == 10, "\(list.stdout)")
  }
}
