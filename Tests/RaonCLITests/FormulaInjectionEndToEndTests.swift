import Foundation
import TestSupport
import Testing

/// Titles that look like spreadsheet formulas stay inert text end to end: recorded from a
/// CSV by the real binary, written with a leading `'` in every CSV file, and as string
/// cells (never formulas) in the XLSX, read back by openpyxl. The workbook's only formulas
/// are Raon's own links, `=HYPERLINK("address")`, whose quoted text is exactly the
/// program's web address even when the address carries quotes.
@Suite(.serialized) struct FormulaInjectionEndToEndTests {
  static let payloads = [
    "=HYPERLINK(\"http://x\",\"y\")", "+1", "@SUM(A1)", "-2+3", "=cmd|' /C calc'!A0",
    "=1+1", "-x", "＝1+1",
  ]

  static let quotingAddress = "https://culture.seoul.go.kr/\"),cmd|'/C%20calc'!A0,(\""

  @Test func formulaLikeTitlesStayTextInCSVAndXLSX() throws {
    let dir = try Fixtures.temporaryDirectory("raon-injection")
    defer { try? FileManager.default.removeItem(at: dir) }
    var csv = "분류,자치구,공연/행사명,장소,기관명,이용요금,유무료,시작일,종료일,문화포털상세URL\r\n"
    func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    for (n, payload) in Self.payloads.enumerated() {
      csv += [
        quoted(payload), "마포구", quoted(payload), quoted(payload), quoted("@org\(n)"), "\"10,000원\"",
        "유료", "2024-09-0\(n % 9 + 1)", "2024-09-30",
        // The last address tries to close the link formula's text and append a command.
        n == Self.payloads.count - 1
          ? quoted(Self.quotingAddress) : "https://culture.seoul.go.kr/view.do?cultcode=\(500_000 + n)",
      ].joined(separator: ",") + "\r\n"
    }
    let input = dir.appendingPathComponent("payloads.csv")
    try Data(csv.utf8).write(to: input)
    let env = ["RAON_DB": "store.sqlite"]
    let rec = try RaonProcess.run(["snapshot", input.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    #expect(rec.status == 0, "\(rec.stderr)")
    let report = try RaonProcess.run(["report", "--out", "out", "--compare-to", "none"], in: dir, environment: env)
    #expect(report.status == 0, "\(report.stderr)")

    // CSV: every cell that would start a formula carries the guard; the titles read back
    // as the payloads once the guard is removed.
    let script = """
      import csv, sys, glob, json, openpyxl
      out = sys.argv[1]
      bad = []
      titles = []
      for path in sorted(glob.glob(out + "/csv/*.csv")):
          with open(path, encoding="utf-8-sig", newline="") as f:
              rows = list(csv.reader(f))
          for r in rows[1:]:
              for cell in r:
                  if cell[:1] in ("=", "+", "@", "\\t", "\\r") or (cell[:1] == "-" and not cell.lstrip("-").replace(".", "", 1).isdigit()):
                      bad.append([path, cell])
          if path.endswith("programs.csv"):
              i = rows[0].index("title")
              titles = [r[i] for r in rows[1:]]
      wb = openpyxl.load_workbook(out + "/report.xlsx")
      import re
      formulas = []
      links = []
      found = {}
      for ws in wb.worksheets:
          for row in ws.iter_rows():
              for c in row:
                  if c.data_type == "f" or (isinstance(c.value, str) and c.value.startswith("=") and c.data_type != "s"):
                      m = re.fullmatch(r'=HYPERLINK\\("((?:[^"]|"")*)"\\)', str(c.value))
                      if m and m.group(1).replace('""', '"').startswith("https://"):
                          links.append(m.group(1).replace('""', '"'))
                      else:
                          formulas.append([ws.title, c.coordinate, str(c.value)])
                  if isinstance(c.value, str):
                      found.setdefault(c.value, set()).add(c.data_type)
      payloads = json.loads(sys.argv[2])
      xlsx = {p: sorted(found.get(p, [])) for p in payloads}
      print(json.dumps({"bad": bad, "titles": titles, "formulas": formulas, "xlsx": xlsx, "links": links}))
      """
    let payloadJSON = String(decoding: try JSONSerialization.data(withJSONObject: Self.payloads), as: UTF8.self)
    let text = try TestInspection.python(script, [dir.appendingPathComponent("out").path, payloadJSON])
    let result = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    #expect((result["bad"] as? [Any])?.isEmpty == true, "unguarded CSV cells: \(result["bad"] ?? "")")
    #expect((result["formulas"] as? [Any])?.isEmpty == true, "XLSX formulas: \(result["formulas"] ?? "")")
    // Every program's address is a link on the programs sheet, the quoting one intact.
    let links = result["links"] as? [String] ?? []
    #expect(links.filter { $0 == Self.quotingAddress }.count >= 1, "\(links)")
    #expect(Set(links).count == Self.payloads.count, "\(Set(links))")
    let titles = result["titles"] as? [String] ?? []
    #expect(titles.count == Self.payloads.count)
    for payload in Self.payloads {
      let guarded = ["=", "+", "@", "\t", "-"].contains(where: payload.hasPrefix)
      #expect(titles.contains(guarded ? "'" + payload : payload), "\(payload) in \(titles)")
    }
    let xlsx = result["xlsx"] as? [String: [String]] ?? [:]
    for payload in Self.payloads {
      #expect(xlsx[payload] == ["s"], "\(payload.debugDescription): XLSX cell types \(xlsx[payload] ?? [])")
    }
  }
}
