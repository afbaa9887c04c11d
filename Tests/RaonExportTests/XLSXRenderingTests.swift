import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// LibreOffice and poppler, where installed.
enum PrintingTools {
  static func path(_ name: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
      let path = dir + "/" + name
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  static let installed = path("soffice") != nil && path("pdftotext") != nil
}

/// The workbook printed for real: LibreOffice turns it into a PDF and poppler's `pdftotext`
/// reads each page back. Runs where both are installed (`apt-get install libreoffice-calc
/// poppler-utils fonts-noto-cjk`); skipped elsewhere.
@Suite("XLSX printed through LibreOffice", .enabled(if: PrintingTools.installed))
struct XLSXRenderingTests {
  static func tool(_ name: String) -> String? { PrintingTools.path(name) }

  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// The text of each printed page of `xlsx`.
  static func printedPages(_ xlsx: URL) throws -> [String] {
    let dir = xlsx.deletingLastPathComponent()
    // A profile of its own, so a LibreOffice already running elsewhere does not take the job.
    let profile = dir.appendingPathComponent("lo-profile", isDirectory: true)
    _ = try run(
      tool("soffice") ?? "soffice",
      [
        "-env:UserInstallation=\(profile.absoluteString)", "--headless", "--convert-to", "pdf",
        "--outdir", dir.path, xlsx.path,
      ])
    let pdf = xlsx.deletingPathExtension().appendingPathExtension("pdf")
    let text = try run(tool("pdftotext") ?? "pdftotext", ["-layout", pdf.path, "-"])
    // pdftotext ends every page with a form feed.
    return text.split(separator: "\u{0C}", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// The fixture report with `count` programs (copies of the fixture's, with new ids).
  static func report(programs count: Int) -> TestReport {
    let fixture = XLSXFixtures.report
    let base = XLSXFixtures.programs.dropLast()  // not the 40,000-character place
    let programs = (0..<count).map { i in
      var p = base[base.startIndex + i % base.count]
      p.id = "cult:\(200_000 + i)"
      return p
    }
    var report = fixture.with(programs: programs)
    // The week's lists are the programs' own, as a report makes them.
    report.lists = WeekLists.select(programs, week: report.week, day: report.snapshot.koreaDay)
    return report
  }

  @Test func everySheetIsOnePageWideTheListsRepeatTheirTitlesAndTheCatalogPrintsNothing() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-render")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try XLSXReportWriter().write(Self.report(programs: 400), into: dir, options: ExportOptions())
    let pages = try Self.printedPages(dir.appendingPathComponent("report.xlsx"))
    // The header names the sheet at the right of its first line.
    func sheet(_ page: String) -> String {
      let first = page.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
      return first.components(separatedBy: "  ").filter { !$0.isEmpty }.last?
        .trimmingCharacters(in: .whitespaces) ?? ""
    }
    let bySheet = Dictionary(grouping: pages.indices, by: { sheet(pages[$0]) })
    // The small sheets print on one page each.
    // (분류별 and 자치구별 put their chart on a page of its own rather than cut it.)
    for name in ["요약", "요금대별", "기간별", "분류×자치구", "데이터 품질", "변경 사항", "자료 정보"] {
      #expect(bySheet[name]?.count == 1, "\(name): \(bySheet[name]?.count ?? 0) pages")
    }
    // Every page says which page it is.
    // (pdftotext drops the spaces of "- n -".)
    for i in pages.indices {
      // LibreOffice printed a blank page (no header, no footer) after the week lists while
      // they were fitted one page wide with cells cut at the column's edge (issue 34).
      #expect(!pages[i].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "page \(i + 1) is blank")
      #expect(pages[i].range(of: "-\\s*\(i + 1)\\s*-", options: .regularExpression) != nil, "page \(i + 1)")
    }
    // 400 programs: the catalog prints nothing (its print area is an empty cell); this
    // week's running ones print in full over a few pages, each holding the first and the
    // last printed column (the id is on screen only).
    #expect(bySheet["프로그램"] == nil)
    let runningPages = bySheet["이번 주 운영"] ?? []
    #expect((2...16).contains(runningPages.count), "\(runningPages.count) pages of running programs")
    for i in runningPages {
      #expect(pages[i].contains("자치구") && pages[i].contains("이용요금") && !pages[i].contains("cult:"), "page \(i + 1) is cut")
    }
  }

  /// One printed page as `Scripts/check_printed.py` reads it (LibreOffice → PDF → PyMuPDF).
  struct PrintedPage {
    var sheet: String
    var minSize: Double?
    var bodyRows: Int
    var text: String
  }

  /// The workbook printed through LibreOffice and read back by PyMuPDF, and the names of
  /// its hidden sheets (from workbook.xml).
  static func printed(_ xlsx: URL) throws -> (hidden: [String], pages: [PrintedPage]) {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/check_printed.py")
    let out = try TestInspection.python(
      "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
      [script.path, xlsx.path, xlsx.deletingLastPathComponent().path])
    let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
    let pages = (object["pages"] as? [[String: Any]] ?? []).map {
      PrintedPage(
        sheet: $0["sheet"] as? String ?? "", minSize: ($0["minSize"] as? NSNumber)?.doubleValue,
        bodyRows: ($0["bodyRows"] as? NSNumber)?.intValue ?? 0, text: $0["text"] as? String ?? "")
    }
    return (object["hidden"] as? [String] ?? [], pages)
  }

  /// What an official must be able to read on paper, page by page: text of 7.5 pt or more,
  /// no blank page, no page with only a table's header, no id, snapshot or file name
  /// outside 자료 정보, dates in official form.
  static func checkPrint(_ report: TestReport, _ what: String) throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-print")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try XLSXReportWriter().write(report, into: dir, options: ExportOptions())
    // RAON_KEEP_PRINT=DIR keeps a copy of the workbook to look at.
    if let keep = ProcessInfo.processInfo.environment["RAON_KEEP_PRINT"] {
      try? FileManager.default.copyItem(
        at: dir.appendingPathComponent("report.xlsx"), to: URL(fileURLWithPath: keep).appendingPathComponent("\(what).xlsx"))
    }
    let (hidden, pages) = try printed(dir.appendingPathComponent("report.xlsx"))
    #expect(hidden.isEmpty, "\(what): hidden sheets \(hidden) (LibreOffice prints them)")
    #expect(!pages.isEmpty)
    for (i, page) in pages.enumerated() {
      let name = "\(what) page \(i + 1) (\(page.sheet))"
      guard let size = page.minSize else {
        Issue.record("\(name) is blank")
        continue
      }
      #expect(size >= 7.5, "\(name): text at \(size) pt")
      #expect(page.bodyRows >= 2, "\(name): \(page.bodyRows) line(s) under the page header")
      if page.sheet != "자료 정보" {
        for word in ["cult:", "스냅숏", ".csv", "KST"] {
          #expect(!page.text.contains(word), "\(name) prints \(word)")
        }
        #expect(page.text.range(of: "[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", options: .regularExpression) == nil,
          "\(name) prints a path")
        // Days as the PDF prints them (2025. 7. 26.), never ISO.
        #expect(page.text.range(of: "\\d{4}-\\d{2}-\\d{2}|\\d{4}-W\\d{2}", options: .regularExpression) == nil,
          "\(name) prints an ISO date or week")
      }
    }
    // The week lists print their days in official form.
    let lists = pages.filter { $0.sheet == "이번 주 운영" }
    #expect(lists.contains { $0.text.range(of: "\\d{4}\\. \\d{1,2}\\. \\d{1,2}\\.", options: .regularExpression) != nil })
  }

  @Test func theCityWorkbookPrintsLegiblyWithoutBlankOrHeaderOnlyPagesIdsOrSnapshots() throws {
    try Self.checkPrint(Self.report(programs: 400), "city")
  }

  @Test func aSmallPackPrintsLegiblyWithoutBlankOrHeaderOnlyPagesIdsOrSnapshots() throws {
    let district = try #require(XLSXFixtures.programs.first { !$0.district.isEmpty && $0.district != District.unknown }?.district)
    try Self.checkPrint(XLSXWeekSummaryTests.pack(district), "pack \(district)")
  }
}
