import Foundation
import TestSupport
import Testing

@testable import RaonWorkflow

/// Finding Chromium and bounding it in time, with stand-in executables (the real one is
/// exercised end to end in RaonCLITests/HTMLReportEndToEndTests).
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
}
