import Foundation
import TestSupport
import Testing

/// LibreOffice, which prints the workbooks (`apt-get install libreoffice-calc`).
enum LibreOffice {
  static let installed = FileManager.default.isExecutableFile(atPath: "/usr/bin/soffice")
}

/// Issue 47, the printed workbook, through the real binary and a real LibreOffice: the
/// city's workbook, a large pack (종로구) and a small one (서대문구), the English city
/// workbook, and the national report and a 시·도 pack, each printed to PDF and read back
/// with PyMuPDF (`RaonExportTests/Scripts/check_lean_print.py`, no Raon code): no page
/// more than two-thirds empty but a sheet's last, no two sheets printing the same rows, no
/// snake_case code or ISO week outside 자료 정보, no table header over an empty column,
/// the cross table's district names printed whole, and 요약 carrying page 1's sentences.
/// Run against main's binary (`RAON_TEST_EXECUTABLE`) every one of the six workbooks
/// failed, and the packs kept their one-row and one-column sheets (docs/OUTPUT.md).
@Suite(.serialized, .enabled(if: LibreOffice.installed))
struct WorkbookLeanPrintEndToEndTests {
  static let checker = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonExportTests/Scripts/check_lean_print.py")

  struct Printed {
    var pages: Int
    var sheetNames: [String]
    var problems: [String]
  }

  /// Page 1's summary sentences as the report's Markdown writes them (the document's page
  /// 1, the same text the PDF prints): the list under the first `□` heading.
  static func pageOneSentences(_ markdown: URL) throws -> [String] {
    let lines = try String(contentsOf: markdown, encoding: .utf8).components(separatedBy: "\n")
    // `**□ 주간 요약**` / `**Summary**`: the first bold line with a list under it.
    guard
      let heading = lines.indices.first(where: {
        lines[$0].hasPrefix("**") && lines.dropFirst($0 + 1).first { !$0.isEmpty }?.hasPrefix("- ") == true
      })
    else { return [] }
    return lines[(heading + 1)...].prefix { !$0.hasPrefix("**") }.filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
  }

  /// `xlsx` printed and checked; `whole`: names the cross table (the sheet whose name holds
  /// ×) must print whole.
  static func print(_ xlsx: URL, markdown: URL, whole: [String] = [], in dir: URL) throws -> Printed {
    let sentences = try pageOneSentences(markdown)
    #expect(sentences.count >= 2, "\(markdown.path): page 1 has no sentences")
    let expect = dir.appendingPathComponent("expect-\(UUID().uuidString).json")
    try JSONSerialization.data(withJSONObject: ["sentences": sentences, "whole": ["×": whole]])
      .write(to: expect)
    let out = dir.appendingPathComponent("lo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let run = try Python.run([checker.path, xlsx.path, out.path, expect.path])
    try #require(run.status == 0, "\(run.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    return Printed(
      pages: json["pages"] as? Int ?? 0, sheetNames: json["sheetNames"] as? [String] ?? [],
      problems: json["problems"] as? [String] ?? [])
  }

  /// The week after the sample, with the three programs it adds and one it keeps registered
  /// this week: 신규 등록 holds the added programs and one more, so they are not the same
  /// list and both print (the case of the issue's week, 73 rows on both).
  static func weekWithRegistrations() throws -> (dir: URL, next: URL) {
    let (dir, next) = try LeanPacksEndToEndTests.twoWeeks("raon-lean-print")
    let edit = #"""
      import csv, sys
      path = sys.argv[1]
      with open(path, encoding="utf-8-sig", newline="") as f:
          rows = list(csv.reader(f))
      h = rows[0]
      day, title, start, end = h.index("신청일"), h.index("공연/행사명"), h.index("시작일"), h.index("종료일")
      kept = 0
      for r in rows[1:]:
          if r[title].startswith("새 프로그램"):
              r[day] = "2024-09-14"
          elif kept == 0 and r[start][:10] <= "2024-09-16" <= r[end][:10]:
              r[day] = "2024-09-13"
              kept = 1
      with open(path, "w", encoding="utf-8-sig", newline="") as f:
          csv.writer(f, quoting=csv.QUOTE_ALL).writerows(rows)
      """#
    let made = try Python.run(["-c", edit, next.path])
    try #require(made.status == 0, "\(made.stderr)")
    return (dir, next)
  }

  @Test func theCityPacksEnglishAndNationalWorkbooksPrintLean() throws {
    let (dir, next) = try Self.weekWithRegistrations()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (lang, out) in [("ko", "r"), ("en", "en")] {
      let run = try RaonProcess.run(
        ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16T09:00:00+09:00",
         "--out", out, "--format", "md,xlsx", "--lang", lang]
          + (lang == "ko" ? ["--district", "종로구", "--district", "서대문구"] : []),
        in: dir)
      try #require(run.status == 0, "stderr: \(run.stderr)")
    }
    let national = try RaonProcess.run(
      ["snapshot", "--catalog", "national", NationalReportEndToEndTests.download.path,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--db", "national.sqlite"], in: dir)
    try #require(national.status == 0, "\(national.stderr)")
    let nationalReport = try RaonProcess.run(
      ["report", "--catalog", "national", "--db", "national.sqlite", "--region", "경상북도", "--format", "md,xlsx",
       "--out", "n"], in: dir)
    try #require(nationalReport.status == 0, "\(nationalReport.stderr)")

    func folder(_ path: String) -> URL { dir.appendingPathComponent(path) }
    let workbooks: [(String, String, [String])] = [
      ("city", "r", ["종로구", "서대문구", "동대문구"]),
      ("종로구", "r/districts/종로구", []),
      ("서대문구", "r/districts/서대문구", []),
      ("English", "en", ["Jongno-gu", "Seodaemun-gu"]),
      ("national", "n", ["서울특별시", "경상북도"]),
      ("경상북도", "n/regions/경상북도", []),
    ]
    var printed: [String: Printed] = [:]
    for (name, path, whole) in workbooks {
      let result = try Self.print(
        folder(path).appendingPathComponent("report.xlsx"), markdown: folder(path).appendingPathComponent("report.md"),
        whole: whole, in: dir)
      #expect(result.problems.isEmpty, "\(name): \(result.problems.joined(separator: "; "))")
      #expect(result.pages > 0, "\(name) printed nothing")
      printed[name] = result
    }
    // A pack has no sheet of one row (its district alone) or one column.
    for (pack, oneRow, oneColumn) in [
      ("종로구", "자치구별", "분류×자치구"), ("서대문구", "자치구별", "분류×자치구"), ("경상북도", "시·도별", "제공기관×시·도"),
    ] {
      let names = printed[pack]?.sheetNames ?? []
      #expect(!names.isEmpty && !names.contains(oneRow) && !names.contains(oneColumn), "\(pack): \(names)")
    }
    #expect(printed["city"]?.sheetNames.contains("분류×자치구") == true)
  }
}
