import Foundation
import TestSupport
import Testing

/// Issue 34, items 3, 7, 9 and 10, through the real binary and a real headless Chromium:
/// a district pack prints its week (a pack with at most five programs running on at most
/// three A4 pages, 종로구's on at most six) while its catalog statistics and data quality stay
/// on screen and in the workbook; the report reads on a phone; `--lang en` names districts
/// and categories in English.
@Suite(.serialized) struct LeanPacksEndToEndTests {
  static let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts")

  /// The sample recorded on 2024-09-09, then a modified copy (the week of 2024-09-16) as the
  /// report's input, as an office gets it weekly.
  static func twoWeeks(_ name: String) throws -> (dir: URL, next: URL) {
    let dir = try Fixtures.temporaryDirectory(name)
    let first = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, "--db", "store.sqlite", "--taken-at", "2024-09-09"], in: dir)
    #expect(first.status == 0, "stderr: \(first.stderr)")
    let next = dir.appendingPathComponent("next.csv")
    let made = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, next.path,
    ])
    #expect(made.status == 0, "\(made.stderr)")
    return (dir, next)
  }

  /// The text of every page of a PDF (PyMuPDF, `pdf_pages.py`).
  static func pdfPages(_ pdf: URL) throws -> [String] {
    let read = try Python.run([scripts.appendingPathComponent("pdf_pages.py").path, pdf.path])
    try #require(read.status == 0, "\(read.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any]
    let pages = try #require(json?["pages"] as? [[String: Any]])
    return pages.map { $0["text"] as? String ?? "" }
  }

  @Test func smallPacksPrintOnThreePagesAndJongnoOnSixWithTheCatalogOnScreenOnly() throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let (dir, next) = try Self.twoWeeks("raon-lean-packs")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "r",
       "--format", "html,pdf,md,xlsx", "--districts", "all"], in: dir)
    try #require(run.status == 0, "stderr: \(run.stderr)")

    // Which packs are small comes from the catalog itself, not from Raon.
    let counted = try Python.run([
      Self.scripts.appendingPathComponent("running_by_district.py").path, next.path, "2024-09-16",
    ])
    try #require(counted.status == 0, "\(counted.stderr)")
    let running = try #require(try JSONSerialization.jsonObject(with: Data(counted.stdout.utf8)) as? [String: Int])
    let packs = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("r/districts").path)
    #expect(packs.count == 25)
    let small = packs.filter { (running[$0] ?? 0) <= 5 }.sorted()
    #expect(small.count >= 3, "the sample has small packs: \(running)")

    for district in small + ["종로구"] {
      let pack = dir.appendingPathComponent("r/districts/\(district)")
      let pages = try Self.pdfPages(pack.appendingPathComponent("report.pdf"))
      let limit = district == "종로구" ? 6 : 3
      #expect(pages.count <= limit, "\(district) (\(running[district] ?? 0) running) prints on \(pages.count) pages")
      let printed = pages.joined(separator: "\n")
      let html = try String(contentsOf: pack.appendingPathComponent("report.html"), encoding: .utf8)
      let md = try String(contentsOf: pack.appendingPathComponent("report.md"), encoding: .utf8)
      // The catalog's statistics: on screen and in the Markdown, never on paper.
      for text in [html, md] { #expect(text.contains("참고 1. 전체 카탈로그 통계"), "\(district)") }
      #expect(html.contains("<section id=\"s8\" class=\"no-print\">"), "\(district)")
      #expect(!printed.contains("참고 1") && !printed.contains("전체 카탈로그 통계"), "\(district) prints the catalog")
      #expect(!printed.contains("데이터 품질"), "\(district) prints its data quality")
      // Every attachment page 1 names is printed: 1 to 7, and no 8.
      for n in 1...7 { #expect(printed.contains("붙임 \(n). "), "\(district): 붙임 \(n) is not printed") }
      #expect(!pages[0].contains("8. "), "\(district): page 1 names an eighth attachment")
      #expect(!printed.contains("교육/\n체험") && !printed.contains("교육/ 체험"), "\(district) breaks a category")
      // The workbook still holds the catalog's statistics and the data quality.
      let sheets = try Python.run([
        "-c", "import openpyxl,sys,warnings; warnings.simplefilter('ignore'); print('\\n'.join(openpyxl.load_workbook(sys.argv[1], read_only=True).sheetnames))",
        pack.appendingPathComponent("report.xlsx").path,
      ])
      for sheet in ["분류별", "요금대별", "데이터 품질"] {
        #expect(sheets.stdout.split(separator: "\n").contains(Substring(sheet)), "\(district)'s workbook: \(sheets.stdout)")
      }
    }
    // A pack with flagged programs lists its data quality on screen (as reference 2); one
    // without any leaves the empty part out.
    let jongno = try String(
      contentsOf: dir.appendingPathComponent("r/districts/종로구/report.md"), encoding: .utf8)
    #expect(jongno.contains("## 참고 2. 데이터 품질"))
    // The running list marks what starts and ends (attachment 2 on paper says so).
    let jongnoPDF = try Self.pdfPages(dir.appendingPathComponent("r/districts/종로구/report.pdf")).joined()
    #expect(jongnoPDF.contains("이번 주 시작 행사") && jongnoPDF.contains("「이번 주」 열"))
  }

  @Test func anEnglishReportNamesDistrictsAndCategoriesInEnglish() throws {
    let (dir, next) = try Self.twoWeeks("raon-lean-en")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "r",
       "--format", "md,csv,json", "--lang", "en", "--district", "종로구"], in: dir)
    try #require(run.status == 0, "stderr: \(run.stderr)")
    // The catalog's own names (every district, every category, 미상), from the CSV.
    let header = try Python.run([
      "-c",
      "import csv,io,sys,json; t=open(sys.argv[1],'rb').read().decode('utf-8-sig'); r=list(csv.DictReader(io.StringIO(t))); print(json.dumps(sorted({x['자치구'] for x in r if x['자치구']} | {x['분류'] for x in r if x['분류']} | {'미상'}), ensure_ascii=False))",
      next.path,
    ])
    let names = try #require(try JSONSerialization.jsonObject(with: Data(header.stdout.utf8)) as? [String])
    #expect(names.count >= 35, "\(names)")
    let alternatives = names.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
    // A name standing as a word of a sentence, a table cell, a heading or a list's field:
    // after the start of a line, `| `, `(`, `· `, `, `, `in `, `#… `, and before ` |`, ` (`,
    // `)`, `,`, `;`, ` ·`, `.` or the line's end. (A program's title may hold a name: it
    // never stands alone like that.)
    let pattern = try NSRegularExpression(
      pattern: "(^|\\| |\\(|· |, |\\bin |#+ )(\(alternatives))( \\||\\)| \\(|,|;| ·|\\.|$)",
      options: [.anchorsMatchLines])
    for file in ["r/report.md", "r/districts/종로구/report.md"] {
      let md = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
      let hits = pattern.matches(in: md, range: NSRange(md.startIndex..., in: md)).compactMap {
        Range($0.range, in: md).map { String(md[$0]) }
      }
      #expect(hits.isEmpty, "\(file) keeps Korean names: \(hits.prefix(12))")
      #expect(md.contains("Jongno-gu"), "\(file)")
      #expect(md.contains("Education/Experience"), "\(file)")
    }
    let city = try String(contentsOf: dir.appendingPathComponent("r/report.md"), encoding: .utf8)
    #expect(city.contains("By district, Jongno-gu ("), "\(city.prefix(1500))")
    // Scripts read the catalog's values: CSV and JSON keep the Korean names.
    let csv = try String(contentsOf: dir.appendingPathComponent("r/csv/by_district.csv"), encoding: .utf8)
    #expect(csv.contains("종로구") && !csv.contains("Jongno-gu"))
    let json = try String(contentsOf: dir.appendingPathComponent("r/report.json"), encoding: .utf8)
    #expect(json.contains("\"종로구\"") && !json.contains("Jongno-gu"))
  }

  @Test func theReportReadsOnAPhone() throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let (dir, next) = try Self.twoWeeks("raon-lean-phone")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "r",
       "--format", "html", "--district", "종로구"], in: dir)
    try #require(run.status == 0, "stderr: \(run.stderr)")
    for page in ["r/report.html", "r/districts/종로구/report.html"] {
      let check = try Python.run([
        Self.scripts.appendingPathComponent("report_phone.py").path, dir.appendingPathComponent(page).path,
      ])
      #expect(check.status == 0 && check.stdout.hasSuffix("ok\n"), "\(page): \(check.stdout)\n\(check.stderr)")
    }
  }
}
