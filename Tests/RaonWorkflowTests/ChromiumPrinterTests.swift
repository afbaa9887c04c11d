import Foundation
import RaonConcurrency
import TestSupport
import Testing

@testable import RaonWorkflow

/// Finding Chromium and bounding it in time, with stand-in executables, and printing
/// several pages at once with the real one (also exercised end to end in
/// RaonCLITests/HTMLReportEndToEndTests).
@Suite struct ChromiumPrinterTests {
  static func script(_ body: String, named name: String, in dir: URL) throws -> URL {
    let url = dir.appendingPathComponent(name)
    try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url
  }

  @Test func chromiumIsFoundOnPathInOrderOrWhereRAONCHROMIUMSays() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-locate")
    defer { try? FileManager.default.removeItem(at: dir) }
    let chrome = try Self.script("exit 0", named: "google-chrome", in: dir)
    let found = try ChromiumPrinter.locate(in: ["PATH": "/nonexistent:\(dir.path)"])
    #expect(found.executable.path == chrome.path)
    let browser = try Self.script("exit 0", named: "chromium-browser", in: dir)
    #expect(try ChromiumPrinter.locate(in: ["PATH": dir.path]).executable.path == browser.path)
    let own = try Self.script("exit 0", named: "my-chrome", in: dir)
    #expect(
      try ChromiumPrinter.locate(in: ["PATH": "/nonexistent", "RAON_CHROMIUM": own.path]).executable.path
        == own.path)
    #expect(
      try ChromiumPrinter.locate(in: ["PATH": dir.path, "RAON_CHROMIUM": "my-chrome"]).executable.path
        == own.path)
  }

  @Test func noChromiumSaysHowToInstallOne() {
    #expect(throws: ChromiumPrinter.Error.notFound(configured: nil)) {
      try ChromiumPrinter.locate(in: ["PATH": "/nonexistent"])
    }
    let message = ChromiumPrinter.Error.notFound(configured: nil).description
    #expect(message.contains("apt-get install chromium") && !message.contains("\n"))
    #expect(throws: ChromiumPrinter.Error.notFound(configured: "/no/such/chrome")) {
      try ChromiumPrinter.locate(in: ["PATH": "/usr/bin", "RAON_CHROMIUM": "/no/such/chrome"])
    }
  }

  @Test func aChromiumThatHangsIsStoppedAtTheTimeout() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-hang")
    defer { try? FileManager.default.removeItem(at: dir) }
    let hang = try Self.script("exec sleep 60", named: "chromium", in: dir)
    let html = dir.appendingPathComponent("a.html")
    try Data("<p>x</p>".utf8).write(to: html)
    let started = Date()
    #expect(throws: ChromiumPrinter.Error.timedOut(file: "report.pdf", seconds: 1)) {
      try ChromiumPrinter(executable: hang, timeout: 1).print(
        html: html, to: dir.appendingPathComponent("report.pdf"))
    }
    #expect(Date().timeIntervalSince(started) < 15)
  }

  @Test func aChromiumThatWritesNoPDFFailsWithItsLastWords() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-nopdf")
    defer { try? FileManager.default.removeItem(at: dir) }
    let silent = try Self.script("echo 'cannot open display' >&2; exit 0", named: "chromium", in: dir)
    let html = dir.appendingPathComponent("a.html")
    try Data("<p>x</p>".utf8).write(to: html)
    #expect(throws: ChromiumPrinter.Error.failed(file: "report.pdf", status: 0, detail: "cannot open display")) {
      try ChromiumPrinter(executable: silent).print(html: html, to: dir.appendingPathComponent("report.pdf"))
    }
  }

  @Test func theArgumentsAreHeadlessSandboxlessAndUseAFreshProfile() {
    let args = ChromiumSession.Browser.arguments(profile: URL(fileURLWithPath: "/tmp/x/profile"))
    for flag in [
      "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=/tmp/x/profile",
    ] {
      #expect(args.contains(flag), "\(flag)")
    }
    #expect(!args.contains { $0.hasPrefix("--print-to-pdf") })
  }

  static let realChromium = try? ChromiumPrinter.locate(in: ProcessInfo.processInfo.environment)

  /// A page of its own per `n`: Korean text and a long table, over several A4 pages.
  static func page(_ n: Int) -> String {
    let rows = (0..<(80 + 30 * n)).map { i in
      "<tr><td>cult:\(n)\(i)</td><td>\(n)번 문서 \(i)번째 행사 — 종로구 세종문화회관</td><td>2025. 8. \(i % 28 + 1).</td></tr>"
    }.joined()
    return """
      <!doctype html><html lang="ko"><head><meta charset="utf-8"><style>
      @page { size: A4; margin: 15mm } body { font-family: sans-serif; font-size: 9pt }
      table { border-collapse: collapse; width: 100% } td { border: 1px solid #999; padding: 2px }
      tr:nth-child(even) { background: #eee }
      </style></head><body><h1>문서 \(n)</h1><table>\(rows)</table></body></html>
      """
  }

  /// What a PDF shows: `pdftotext -layout` of every page and its pages as 30 dpi grey images.
  static func looks(_ pdf: Data, in dir: URL, as name: String) throws -> [Data] {
    let file = dir.appendingPathComponent("\(name).pdf")
    try pdf.write(to: file)
    let text = try tool("pdftotext", ["-layout", file.path, "-"])
    let prefix = dir.appendingPathComponent(name).path
    _ = try tool("pdftoppm", ["-r", "30", "-gray", file.path, prefix])
    let images = try FileManager.default.contentsOfDirectory(atPath: dir.path)
      .filter { $0.hasPrefix("\(name)-") && $0.hasSuffix(".pgm") }.sorted()
      .map { try Data(contentsOf: dir.appendingPathComponent($0)) }
    return [text] + images
  }

  static func tool(_ name: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }

  @Test(.enabled(if: realChromium != nil && FileManager.default.fileExists(atPath: "/usr/bin/pdftoppm")))
  func pagesPrintedAtOnceFromSeveralThreadsMatchThosePrintedOneAtATime() throws {
    let printer = try #require(Self.realChromium)
    let dir = try Fixtures.temporaryDirectory("raon-chromium-tabs")
    defer { try? FileManager.default.removeItem(at: dir) }
    let count = 4
    let alone = printer.session()
    defer { alone.close() }
    let oneByOne = try (0..<count).map { try alone.print(html: Self.page($0), name: "\($0).pdf") }

    let together = ChromiumSession(printer: printer, concurrency: count)
    defer { together.close() }
    together.start()
    let prints = (0..<count).map { n in
      PendingResult.start { try together.print(html: Self.page(n), name: "\(n).pdf") }
    }
    let atOnce = try prints.map { try $0.wait().get() }
    #expect(together.concurrency == count)
    // A tab is opened only when none is free: more than one means prints were in flight at once.
    #expect(together.tabs > 1, "the prints ran one after another in one tab")
    for n in 0..<count {
      let expected = try Self.looks(oneByOne[n], in: dir, as: "alone-\(n)")
      let got = try Self.looks(atOnce[n], in: dir, as: "together-\(n)")
      #expect(expected.count > 2, "document \(n) has more than one page")
      #expect(got == expected, "document \(n) printed at once differs from one at a time")
    }
  }
}
