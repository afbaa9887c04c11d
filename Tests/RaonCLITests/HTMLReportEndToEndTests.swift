import Foundation
import TestSupport
import Testing

/// `raon report --format html,pdf` rendered in a real headless Chromium, as an official
/// would open and print it: the page fits a phone and a desktop, the PDF is A4 and short,
/// the page is self-contained, and a missing or failing Chromium is a one-line error that
/// leaves nothing behind. The test set-up (`scripts/install-deps.sh --test`) installs
/// Debian's chromium, fonts-noto-cjk and poppler-utils.
@Suite(.serialized) struct HTMLReportEndToEndTests {
  /// The bundled sample's city report must print on at most this many A4 pages: page 1,
  /// then the attachments with every list in full but the city's running list (444
  /// programs, named by where it is instead).
  static let maxSamplePages = 14

  // MARK: - Tools

  /// The Chromium the tests render with (the same search as Raon's).
  static func chromium() throws -> String {
    let env = ProcessInfo.processInfo.environment
    if let configured = env["RAON_CHROMIUM"], !configured.isEmpty { return configured }
    let path = env["PATH"] ?? "/usr/bin:/bin"
    for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
      for folder in path.split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    throw ToolMissing(tool: "chromium (bash scripts/install-deps.sh --test installs it)")
  }

  struct ToolMissing: Error, CustomStringConvertible {
    let tool: String
    var description: String { "\(tool) is needed for this test" }
  }

  /// Runs a program with its output in files (Chromium can print a lot), bounded in time.
  static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 120) throws
    -> RaonProcess.Result
  {
    let scratch = try Fixtures.temporaryDirectory("raon-tool")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("out")
    let errURL = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try out.close()
    try err.close()
    return RaonProcess.Result(
      status: process.terminationStatus,
      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }

  /// Chromium's fixed arguments: headless, no sandbox (root), no GPU, a fresh profile.
  static func chromiumArguments(profile: URL) -> [String] {
    [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
      "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=\(profile.path)",
    ]
  }

  /// A page holding `html` in a frame `width` CSS pixels wide (headless Chromium's window
  /// is at least 500 px wide, so a phone's width needs a frame), on a grey background.
  static func framed(_ html: URL, width: Int, height: Int, in scratch: URL) throws -> URL {
    let frame = """
      <!DOCTYPE html><html><head><meta charset="utf-8"><title>waiting</title>
      <style>body{margin:0;background:#888}iframe{border:0;display:block;width:\(width)px;height:\(height)px}</style>
      </head><body><iframe src="\(html.absoluteString)"></iframe>
      <script>addEventListener('message', e => { document.title = 'RAONLAYOUT' + e.data + 'RAONEND'; });</script>
      </body></html>
      """
    let url = scratch.appendingPathComponent("frame-\(width).html")
    try Data(frame.utf8).write(to: url)
    return url
  }

  /// The layout of `html` `width` CSS pixels wide: the page's width, its scroll width,
  /// every element outside a table box that reaches past the right or left edge, and how
  /// many table and chart boxes need scrolling (allowed on a phone only). A script added to a copy of the page measures after load and posts its
  /// finding to the frame, which writes it into its title; `--dump-dom` prints it.
  static func layout(of html: URL, width: Int, dark: Bool = false) throws -> [String: Any] {
    let scratch = try Fixtures.temporaryDirectory("raon-layout")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let probe = """
      <script>
      window.addEventListener('load', () => {
        const w = document.documentElement.clientWidth;
        const bad = [];
        for (const el of document.querySelectorAll('body *')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          if (el.closest('.table-wrap') && el.closest('.table-wrap') !== el) continue;  // counted below
          if (el.closest('.chart') && el.closest('.chart') !== el) continue;  // counted below
          if (r.right > w + 0.5 || r.left < -0.5) {
            bad.push(el.tagName.toLowerCase() + ' ' + Math.round(r.left) + '..' + Math.round(r.right)
              + ' ' + (el.textContent || '').trim().slice(0, 30));
          }
        }
        const scrolling = [];
        for (const el of document.querySelectorAll('.table-wrap')) {
          if (el.scrollWidth > el.clientWidth + 1) scrolling.push(el.scrollWidth + '>' + el.clientWidth);
        }
        // A chart keeps its text at 11 px or more on a phone and may scroll in its box.
        const scrollingCharts = [];
        for (const el of document.querySelectorAll('.chart')) {
          if (el.scrollWidth > el.clientWidth + 1) scrollingCharts.push(el.scrollWidth + '>' + el.clientWidth);
        }
        // A bar chart (page 1's among them) fits a phone whole: nothing of it is scrolled out of sight.
        const scrollingBars = [];
        for (const el of document.querySelectorAll('.chart-block.bars .chart')) {
          if (el.scrollWidth > el.clientWidth + 1) scrollingBars.push(el.scrollWidth + '>' + el.clientWidth);
        }
        parent.postMessage(JSON.stringify({ width: w,
          scrollWidth: document.documentElement.scrollWidth, count: bad.length,
          overflowing: bad.slice(0, 12), scrollingTables: scrolling.length, scrollingCharts: scrollingCharts.length,
          scrollingBars: scrollingBars,
          background: getComputedStyle(document.body).backgroundColor,
          svgs: document.querySelectorAll('svg').length,
          font: getComputedStyle(document.body).fontFamily }), '*');
      });
      </script>
      """
    let page = try String(contentsOf: html, encoding: .utf8)
      .replacingOccurrences(of: "</body>", with: probe + "</body>")
    let copy = scratch.appendingPathComponent("probe.html")
    try Data(page.utf8).write(to: copy)
    let frame = try framed(copy, width: width, height: 900, in: scratch)
    var arguments = chromiumArguments(profile: scratch.appendingPathComponent("profile"))
    if dark { arguments.append("--force-dark-mode") }
    arguments += [
      "--window-size=\(max(width, 500) + 20),900", "--virtual-time-budget=5000", "--dump-dom",
      frame.absoluteString,
    ]
    let result = try run(try chromium(), arguments)
    guard let start = result.stdout.range(of: "<title>RAONLAYOUT"),
      let end = result.stdout.range(of: "RAONEND", range: start.upperBound..<result.stdout.endIndex)
    else {
      Issue.record("no layout from Chromium (status \(result.status)): \(result.stderr.suffix(400))")
      return [:]
    }
    let json = String(result.stdout[start.upperBound..<end.lowerBound])
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
    return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:]
  }

  /// A PNG screenshot of `html` shown `width` × `height` CSS pixels (light or dark).
  static func screenshot(_ html: URL, width: Int, height: Int, dark: Bool, to png: URL) throws {
    let scratch = try Fixtures.temporaryDirectory("raon-shot")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let frame = try framed(html, width: width, height: height, in: scratch)
    var arguments = chromiumArguments(profile: scratch.appendingPathComponent("profile"))
    if dark { arguments.append("--force-dark-mode") }
    arguments += [
      "--window-size=\(max(width, 500)),\(height)", "--virtual-time-budget=3000",
      "--screenshot=\(png.path)", frame.absoluteString,
    ]
    let result = try run(try chromium(), arguments)
    #expect(result.status == 0, "screenshot failed: \(result.stderr.suffix(400))")
  }

  /// The page count poppler's `pdfinfo` reads.
  static func pageCount(_ pdf: URL) throws -> Int? {
    let result = try run("/usr/bin/env", ["pdfinfo", pdf.path])
    guard result.status == 0 else {
      Issue.record("pdfinfo failed (poppler-utils installed?): \(result.stderr)")
      return nil
    }
    let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") }
    return line.flatMap { Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) }
  }

  /// The page size in points (`pdfinfo`'s "Page size: 595.92 x 842.88 pts (A4)").
  static func pageSize(_ pdf: URL) throws -> String {
    let result = try run("/usr/bin/env", ["pdfinfo", pdf.path])
    return result.stdout.split(separator: "\n").first { $0.hasPrefix("Page size:") }.map(String.init) ?? ""
  }

  /// The text of each PDF page (poppler's `pdftotext -layout`), as trimmed non-empty lines.
  static func pageLines(_ pdf: URL, pages: Int) throws -> [[String]] {
    try (1...max(1, pages)).map { page in
      let result = try run("/usr/bin/env", ["pdftotext", "-layout", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"])
      return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
  }

  /// Each section of the page: its title and, for a section with one table, the first cell
  /// of that table's last row and its first header cell (plain text).
  static func sections(of html: String) -> [(title: String, lastRow: String?, header: String?)] {
    func plain(_ s: Substring) -> String {
      var out = ""
      var inTag = false
      for c in s {
        if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
      }
      return out.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
    return html.components(separatedBy: "<section id=").dropFirst().map { section in
      let title = section.components(separatedBy: "<h2>").dropFirst().first?.components(separatedBy: "</h2>").first ?? ""
      // Only a section of one table is checked whole: a longer one may need pages.
      let tables = section.components(separatedBy: "<table>").count - 1
      let lastRow = tables == 1
        ? section.components(separatedBy: "<tr><td>").dropFirst().last?.components(separatedBy: "</td>").first : nil
      let header = tables == 1
        ? section.components(separatedBy: "<th").dropFirst().first?.components(separatedBy: "</th>").first
          .map { $0.drop { $0 != ">" }.dropFirst() } : nil
      return (plain(Substring(title)), lastRow.map { plain(Substring($0)) }, header.map { plain(Substring($0)) })
    }
  }

  /// Every `src="…"` and `href="…"` value.
  static func references(in html: String) -> [String] {
    var found: [String] = []
    for attribute in [" src=\"", " href=\""] {
      var rest = Substring(html)
      while let start = rest.range(of: attribute) {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        found.append(String(after[..<end]))
        rest = after[end...]
      }
    }
    return found
  }

  // MARK: - Tests

  @Test func theSampleReportAsHTMLAndPDFFitsPhoneDesktopAndEightA4Pages() throws {
    _ = try Self.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-html-e2e")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "r", "--format", "html,pdf,xlsx"], in: dir)
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let out = dir.appendingPathComponent("r")
    // Only the three files: the HTML the PDF was printed from is not left behind twice. The
    // workbook goes with the PDF, so paper names its sheet for the city's running list.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["report.html", "report.pdf", "report.xlsx"])

    let html = out.appendingPathComponent("report.html")
    let text = try String(contentsOf: html, encoding: .utf8)
    for reference in Self.references(in: text) {
      #expect(
        reference.hasPrefix("#") || reference.hasPrefix("https://culture.seoul.go.kr/")
          || reference.hasPrefix("http://culture.seoul.go.kr/"), "reference to \(reference)")
    }
    #expect(Self.references(in: text).contains { $0.contains("culture.seoul.go.kr") })
    #expect(!text.contains("<img") && !text.contains("<script") && !text.contains("<link"))

    // The PDF: A4, at most 8 pages.
    let pdf = out.appendingPathComponent("report.pdf")
    let pages = try Self.pageCount(pdf)
    #expect(pages.map { $0 >= 2 } == true, "the sample prints on \(pages ?? -1) pages")
    #expect(pages.map { $0 <= Self.maxSamplePages } == true, "the sample prints on \(pages ?? -1) pages")
    try Self.expectAnOfficialDocument(
      pdf, title: "서울시 문화행사 주간 현황", period: "2024. 9. 9.(월) ~ 9. 15.(일)")
    let size = try Self.pageSize(pdf)
    #expect(size.contains("(A4)"), "\(size)")
    try Self.expectSectionsReadOnPaper(html: text, pdf: pdf, pages: pages ?? 1)

    // Nothing past the right edge: a phone, the width of A4's printable area, a desktop.
    for width in [390, 700, 1280] {
      let layout = try Self.layout(of: html, width: width)
      #expect(layout["count"] as? Int == 0, "at \(width) px: \(layout["overflowing"] ?? "?")")
      // The width of A4's printable area and a desktop: every table fits. A phone may
      // scroll a wide table in its own box (the page itself never scrolls sideways).
      if width >= 700 {
        #expect(layout["scrollingTables"] as? Int == 0, "at \(width) px: \(layout)")
        #expect(layout["scrollingCharts"] as? Int == 0, "at \(width) px: \(layout)")
      }
      #expect(layout["scrollWidth"] as? Int == layout["width"] as? Int, "at \(width) px: \(layout)")
      #expect((layout["scrollingBars"] as? [String])?.isEmpty == true, "at \(width) px: \(layout)")
      #expect(layout["svgs"] as? Int == text.components(separatedBy: "<figure class=\"chart\"><svg ").count - 1)
      #expect((layout["svgs"] as? Int ?? 0) >= 4)
      #expect((layout["font"] as? String)?.hasPrefix("\"Noto Sans CJK KR\"") == true)
    }
    // Dark: the page follows the system's colour scheme.
    let light = try Self.layout(of: html, width: 390)
    let dark = try Self.layout(of: html, width: 390, dark: true)
    #expect(light["background"] as? String == "rgb(255, 255, 255)")
    #expect(dark["background"] as? String == "rgb(13, 17, 23)")

    // Screenshots, as a person would look at them (kept when RAON_KEEP_SCREENSHOTS is a folder).
    let shots = ProcessInfo.processInfo.environment["RAON_KEEP_SCREENSHOTS"].map { URL(fileURLWithPath: $0) } ?? dir
    try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
    for (name, width, height, isDark) in [
      ("phone-light", 390, 2400, false), ("phone-dark", 390, 2400, true),
      ("desktop-light", 1280, 1800, false), ("desktop-dark", 1280, 1800, true),
    ] {
      let png = shots.appendingPathComponent("report-\(name).png")
      try Self.screenshot(html, width: width, height: height, dark: isDark, to: png)
      let data = try Data(contentsOf: png)
      #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name) is no PNG")
      #expect(data.count > 20_000, "\(name) looks empty (\(data.count) bytes)")
    }
  }

  /// What an official puts on top of a 결재, read from the PDF with PyMuPDF: page 1 is the
  /// summary alone (sentences, headline, attachments, source) and the attachments start on
  /// page 2; every page carries the title (with the district of a pack), the period and
  /// "- n -"; no text is printed under 6 pt, and no table text under 7.5 pt (the smallest
  /// text of a page with a table is at least the table's).
  static func expectAnOfficialDocument(_ pdf: URL, title: String, period: String) throws {
    let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/pdf_pages.py").path
    let read = try Python.run([script, pdf.path])
    try #require(read.status == 0, "\(read.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any]
    let pages = try #require(json?["pages"] as? [[String: Any]])
    try #require(pages.count >= 2)
    for (i, page) in pages.enumerated() {
      let text = page["text"] as? String ?? ""
      #expect(text.contains(title), "page \(i + 1) has no title")
      #expect(text.contains(period), "page \(i + 1) has no period")
      #expect(text.contains("- \(i + 1) -"), "page \(i + 1) has no page number")
      let smallest = page["minSize"] as? Double ?? 0
      #expect(smallest >= 6, "page \(i + 1) prints text at \(smallest) pt")
      #expect(smallest >= 7.4, "page \(i + 1): the smallest text (\(smallest) pt) is below the tables' 7.5 pt")
    }
    let first = pages[0]["text"] as? String ?? ""
    for part in ["□ 주간 요약", "□ 주요 지표", "붙임", "출처: 서울 열린데이터광장"] {
      #expect(first.contains(part), "page 1 has no \(part)")
    }
    #expect(!first.contains("공연/행사명"), "a list starts on page 1")
    #expect((pages[1]["text"] as? String ?? "").contains("붙임 1."), "page 2 does not start the attachments")
  }

  /// Sections on paper: a heading never ends a page (two lines of its section follow it),
  /// and a section of one table that runs on to another page repeats the table's header
  /// there (sections run on rather than leaving half-empty pages).
  static func expectSectionsReadOnPaper(html text: String, pdf: URL, pages: Int) throws {
    let printed = try Self.pageLines(pdf, pages: pages)
    // A section for the screen only (a pack's catalog statistics) is not on paper.
    let printedHTML = text.components(separatedBy: "<section id=").enumerated()
      .filter { $0.offset == 0 || !$0.element.prefix(40).contains("class=\"no-print\"") }
      .map(\.element).joined(separator: "<section id=")
    let sections = Self.sections(of: printedHTML)
    #expect(sections.count >= 7)
    for section in sections {
      let page = printed.firstIndex { lines in lines.contains { $0 == section.title } }
      #expect(page != nil, "section \(section.title) is not in the PDF")
      guard let page, let line = printed[page].firstIndex(of: section.title) else { continue }
      #expect(printed[page].count - line > 2, "\(section.title) is at the foot of page \(page + 1)")
      // Beside a chart, pdftotext joins chart labels and table rows on one line, and a
      // narrow first column wraps a long key ('축제-' / '시민화합'): look for its start.
      guard let last = section.lastRow, !last.isEmpty, let header = section.header, !header.isEmpty,
        let lastPage = printed[page...].firstIndex(where: { $0.contains { $0.contains(String(last.prefix(3))) } })
      else { continue }
      for runOn in (page + 1)..<(lastPage + 1) {
        #expect(
          printed[runOn].contains { $0.contains(header) },
          "\(section.title) runs on to page \(runOn + 1) without its header '\(header)'")
      }
    }
  }

  /// What only 자료 정보 may name: file paths and names, snapshot numbers, ids, 스냅숏.
  static let developerTermPatterns = [
    #"csv/"#, #"\.csv"#, #"\.xlsx"#, #"\.html"#, #"\.md\b"#, #"\.svg"#, #"districts/"#, #"cult:"#, #"#\d"#, "스냅숏",
  ]

  /// A printed text's developer terms before its last "자료 정보" (the heading of the one
  /// place they belong), as `term: context` lines.
  static func developerTerms(in text: String) throws -> [String] {
    let heading = try Regex("자료 정보")
    let end = text.ranges(of: heading).last?.lowerBound ?? text.endIndex
    // A Markdown link's or image's target is no printed text.
    let body = String(text[..<end]).replacing(try Regex(#"\]\([^)]*\)"#), with: "]")
    var found: [String] = []
    for term in Self.developerTermPatterns {
      for match in body.matches(of: try Regex(term)) {
        let from = body.index(match.range.lowerBound, offsetBy: -20, limitedBy: body.startIndex) ?? body.startIndex
        let to = body.index(match.range.upperBound, offsetBy: 20, limitedBy: body.endIndex) ?? body.endIndex
        found.append("\(term): \(body[from..<to])")
      }
    }
    return found
  }

  /// Every attachment page 1 names is printed in the PDF under its heading, or names the
  /// workbook's sheet given beside it; "끝." closes the list (PyMuPDF, `page_one_head.py`).
  static func expectPageOneAttachmentsPrinted(pdf: URL, xlsx: URL?) throws {
    var arguments = [PageOneHeadEndToEndTests.script, pdf.path]
    if let xlsx { arguments += ["--xlsx", xlsx.path] }
    let read = try Python.run(arguments)
    #expect(read.status == 0, "\(pdf.path): \(read.stdout) \(read.stderr)")
  }

  /// A district pack prints as an official document: the largest district of the
  /// sample (종로구, a fifth of its programs), with a comparison, as an office gets it weekly.
  @Test func aDistrictPackPrintsAsAnOfficialDocument() throws {
    _ = try Self.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-html-district")
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--db", "store.sqlite", "--taken-at", "2024-09-09"], in: dir)
    #expect(first.status == 0, "stderr: \(first.stderr)")
    let next = dir.appendingPathComponent("next.csv")
    let made = try Self.run(
      "/usr/bin/env", ["python3", Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
                       Fixtures.sampleCSV.path, next.path])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "r",
       "--format", "html,pdf,md,xlsx", "--district", "종로구"], in: dir)
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let city = dir.appendingPathComponent("r/report.pdf")
    // No file, id or 스냅숏 on a printed page outside 자료 정보 (PDF and Markdown text, the
    // city and the pack); every attachment page 1 names is printed, or marked separate.
    for folder in ["r", "r/districts/종로구"] {
      let pdf = dir.appendingPathComponent("\(folder)/report.pdf")
      let md = try String(contentsOf: dir.appendingPathComponent("\(folder)/report.md"), encoding: .utf8)
      let pdfText = try Self.run("/usr/bin/env", ["pdftotext", pdf.path, "-"]).stdout
      #expect(try Self.developerTerms(in: pdfText) == [], "\(folder)/report.pdf")
      #expect(try Self.developerTerms(in: md) == [], "\(folder)/report.md")
      try Self.expectPageOneAttachmentsPrinted(pdf: pdf, xlsx: dir.appendingPathComponent("\(folder)/report.xlsx"))
    }
    // The city's running list is the workbook's sheet on paper; the screen lists it.
    let cityMarkdown = try String(contentsOf: dir.appendingPathComponent("r/report.md"), encoding: .utf8)
    #expect(cityMarkdown.contains("1. 이번 주 운영 행사(자치구별) 1부."))
    let cityPDF = try Self.run("/usr/bin/env", ["pdftotext", city.path, "-"]).stdout
    #expect(cityPDF.contains("엑셀 파일 「이번 주 운영」 시트로 갈음"))
    let cityPages = try Self.pageCount(city)
    #expect(cityPages.map { $0 <= Self.maxSamplePages } == true, "the city report prints on \(cityPages ?? -1) pages")
    // A week with a comparison has the fullest page 1 (▲/▼, ten bars, the workbook's sheet named):
    // it still holds its source line, and the attachments start on page 2.
    try Self.expectAnOfficialDocument(city, title: "서울시 문화행사 주간 현황", period: "2024. 9. 16.(월) ~ 9. 22.(일)")
    let pack = dir.appendingPathComponent("r/districts/종로구")
    let pages = try Self.pageCount(pack.appendingPathComponent("report.pdf"))
    // Page 1, then every list in full: 종로구 runs 105 programs this week.
    #expect(pages.map { $0 >= 2 && $0 <= 10 } == true, "종로구's pack prints on \(pages ?? -1) pages")
    try Self.expectAnOfficialDocument(
      pack.appendingPathComponent("report.pdf"), title: "종로구 문화행사 주간 현황",
      period: "2024. 9. 16.(월) ~ 9. 22.(일)")
    try Self.expectSectionsReadOnPaper(
      html: String(contentsOf: pack.appendingPathComponent("report.html"), encoding: .utf8),
      pdf: pack.appendingPathComponent("report.pdf"), pages: pages ?? 1)
  }

  @Test func anEnglishReportPrintsInEnglish() throws {
    _ = try Self.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-html-en")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "r", "--format", "html,md", "--lang", "en"], in: dir)
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let text = try String(contentsOf: dir.appendingPathComponent("r/report.html"), encoding: .utf8)
    #expect(text.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(text.contains(">By district</h3>"))
    // Every section of report.md is in report.html.
    let md = try String(contentsOf: dir.appendingPathComponent("r/report.md"), encoding: .utf8)
    for line in md.split(separator: "\n") where line.hasPrefix("## ") {
      #expect(text.contains(">\(line.dropFirst(3))</h2>"), "\(line) missing from the HTML")
    }
  }

  @Test func pdfWithoutChromiumIsAOneLineErrorBeforeAnythingIsRecorded() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-none")
    defer { try? FileManager.default.removeItem(at: dir) }
    let empty = dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "r", "--format", "md,pdf"], in: dir,
      environment: ["PATH": empty.path])
    #expect(run.status != 0)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("apt-get install chromium"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r").path))
    // Nothing was recorded: the store is still empty.
    let listing = try RaonProcess.run(["snapshots", "--db", "store.sqlite", "--json"], in: dir)
    #expect(!listing.stdout.contains("\"id\""), "\(listing.stdout)")

    // The default formats need no Chromium.
    let plain = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "r"], in: dir, environment: ["PATH": empty.path])
    #expect(plain.status == 0, "\(plain.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("r").path)
    #expect(files.contains("report.html") && !files.contains("report.pdf"))
  }

  @Test func aFailingChromiumIsAOneLineErrorAndTheEarlierReportStays() throws {
    let dir = try Fixtures.temporaryDirectory("raon-pdf-fail")
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = try RaonProcess.run(["report", "--db", "store.sqlite", "--out", "r", "--format", "html"], in: dir)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try Data(contentsOf: dir.appendingPathComponent("r/report.html"))
    let fake = dir.appendingPathComponent("fake-chromium")
    try Data("#!/bin/sh\necho 'Trace/breakpoint trap: renderer crashed' >&2\nexit 5\n".utf8).write(to: fake)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--out", "r", "--format", "html,pdf"], in: dir,
      environment: ["RAON_CHROMIUM": fake.path])
    #expect(run.status != 0)
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("Chromium could not print report.pdf"), "\(run.stderr)")
    #expect(run.stderr.contains("renderer crashed"), "\(run.stderr)")
    #expect(try Data(contentsOf: dir.appendingPathComponent("r/report.html")) == before)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r/report.pdf").path))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("raon-partial") }
    #expect(leftovers.isEmpty)
  }

  @Test func diffWritesChangesAsHTMLAndPDF() throws {
    _ = try Self.chromium()
    let dir = try Fixtures.temporaryDirectory("raon-diff-html")
    defer { try? FileManager.default.removeItem(at: dir) }
    let grown = dir.appendingPathComponent("grown.csv")
    let grow = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/grow_catalog.py").path,
      Fixtures.sampleCSV.path, grown.path, "2",
    ])
    #expect(grow.status == 0, "\(grow.stderr)")
    let record = try RaonProcess.run(
      [
        "snapshot", "--db", "store.sqlite", Fixtures.sampleCSV.path, grown.path, "--taken-at", "2024-09-09",
        "--taken-at", "2024-09-16",
      ],
      in: dir)
    #expect(record.status == 0, "\(record.stderr)")
    let run = try RaonProcess.run(
      ["diff", "--db", "store.sqlite", "1", "2", "--format", "html,pdf", "--out", "d"], in: dir)
    #expect(run.status == 0, "\(run.stderr)")
    let out = dir.appendingPathComponent("d")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["changes.html", "changes.pdf"])
    let text = try String(contentsOf: out.appendingPathComponent("changes.html"), encoding: .utf8)
    // Titled by the collections' days; snapshot numbers and ids only in 자료 정보.
    #expect(text.contains("<h1>변경 사항 — 2024.\u{A0}9.\u{A0}9.(월) → 2024.\u{A0}9.\u{A0}16.(월)</h1>"))
    let printed = try Self.run("/usr/bin/env", ["pdftotext", out.appendingPathComponent("changes.pdf").path, "-"]).stdout
    #expect(try Self.developerTerms(in: printed) == [])
    #expect(printed.contains("자료 정보") && printed.contains("#1") && printed.contains("#2"))
    #expect(text.contains("외 4,898건"), "the list of 4,998 added programs is cut at 100")
    let pages = try Self.pageCount(out.appendingPathComponent("changes.pdf"))
    #expect(pages.map { $0 >= 1 } == true)
  }
}
