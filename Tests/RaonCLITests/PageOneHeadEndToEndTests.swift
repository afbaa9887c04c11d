import Foundation
import TestSupport
import Testing

/// Issue 47, the head and the 붙임, through the real binary and a real headless Chromium:
/// `raon.toml`'s `[document]` is on page 1 of the city's PDF and each pack's, every 붙임
/// page 1 names is printed in the PDF or names the workbook's sheet given beside it, and
/// "끝." closes the list — read back with PyMuPDF (`page_one_head.py`, no Raon code).
@Suite(.serialized) struct PageOneHeadEndToEndTests {
  static let script = LeanPacksEndToEndTests.scripts.appendingPathComponent("page_one_head.py").path
  static let head = ["문화본부 문화정책과", "주무관 홍길동", "02-2133-0000"]
  static let config = """
    [document]
    department = "문화본부 문화정책과"
    officer = "주무관 홍길동"
    phone = "02-2133-0000"

    """

  /// Runs the checker on `folder`'s PDF; returns its findings (items and problems).
  static func check(_ folder: URL, xlsx: Bool, lang: String = "ko", head: [String] = head) throws -> [String: Any] {
    var arguments = [script, folder.appendingPathComponent("report.pdf").path, "--lang", lang]
    if xlsx { arguments += ["--xlsx", folder.appendingPathComponent("report.xlsx").path] }
    for value in head { arguments += ["--head", value] }
    let read = try Python.run(arguments)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any], "\(read.stderr)")
    #expect(read.status == 0, "\(folder.lastPathComponent): \(json["problems"] ?? read.stderr)")
    return json
  }

  @Test func theHeadAndEveryAttachmentAreOnPageOneOfTheCityAndEachPack() throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let (dir, next) = try LeanPacksEndToEndTests.twoWeeks("raon-page-one-head")
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.config.write(to: dir.appendingPathComponent("raon.toml"), atomically: true, encoding: .utf8)
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "r",
       "--format", "html,pdf,md,xlsx", "--district", "종로구", "--district", "서대문구"], in: dir)
    try #require(run.status == 0, "stderr: \(run.stderr)")
    for folder in ["r", "r/districts/종로구", "r/districts/서대문구"] {
      let found = try Self.check(dir.appendingPathComponent(folder), xlsx: true)
      let items = found["items"] as? [[String: Any]] ?? []
      #expect(items.count == (folder == "r" ? 9 : 7), "\(folder): \(items)")
      // The city's running list is the workbook's sheet on paper; a pack prints its own.
      let shown = items.map { $0["shown"] as? String ?? "" }
      #expect(shown.first == (folder == "r" ? "workbook" : "printed"), "\(folder): \(shown)")
      // The Markdown and the workbook's 요약 carry the head too.
      let md = try String(contentsOf: dir.appendingPathComponent("\(folder)/report.md"), encoding: .utf8)
      #expect(md.contains("문화본부 문화정책과 · 담당 주무관 홍길동 (02-2133-0000)"), "\(folder)/report.md")
      let summary = try Python.run([
        "-c",
        "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.read('xl/sharedStrings.xml').decode())",
        dir.appendingPathComponent("\(folder)/report.xlsx").path,
      ])
      #expect(summary.stdout.contains("문화본부 문화정책과 · 담당 주무관 홍길동 (02-2133-0000)"), "\(folder)/report.xlsx")
    }

    // Without the workbook, the city's PDF prints its running list: every item is printed.
    let paper = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--snapshot", "latest", "--out", "p", "--format", "pdf,md"], in: dir)
    try #require(paper.status == 0, "stderr: \(paper.stderr)")
    let printed = try Self.check(dir.appendingPathComponent("p"), xlsx: false)
    #expect((printed["items"] as? [[String: Any]])?.allSatisfy { $0["shown"] as? String == "printed" } == true)

    // English: the head's values and "Reported", the titles alone, no 끝.
    let en = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--snapshot", "latest", "--out", "e", "--format", "pdf,xlsx", "--lang", "en"],
      in: dir)
    try #require(en.status == 0, "stderr: \(en.stderr)")
    _ = try Self.check(dir.appendingPathComponent("e"), xlsx: true, lang: "en")
  }

  /// Without `[document]`, page 1 says 보고일 alone: no placeholder, no empty office.
  @Test func withoutADocumentSectionPageOneSaysTheDayAlone() throws {
    _ = try HTMLReportEndToEndTests.chromium()
    let (dir, next) = try LeanPacksEndToEndTests.twoWeeks("raon-page-one-nohead")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "r",
       "--format", "pdf,md,xlsx"], in: dir)
    try #require(run.status == 0, "stderr: \(run.stderr)")
    _ = try Self.check(dir.appendingPathComponent("r"), xlsx: true, head: [])
    let md = try String(contentsOf: dir.appendingPathComponent("r/report.md"), encoding: .utf8)
    let line = md.split(separator: "\n").first { $0.hasPrefix("보고일") }
    #expect(line == "보고일 2024.\u{A0}9.\u{A0}16.(월)", "\(line ?? "none")")
  }
}
