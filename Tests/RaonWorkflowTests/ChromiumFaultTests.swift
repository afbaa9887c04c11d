import Foundation
import RaonConcurrency
import TestSupport
import Testing

@testable import RaonWorkflow

/// Chromium's faults (issue 27, items 5, 6, 8 and 9), with a stand-in Chromium
/// (``FakeChromium``) that prints a real PDF over the DevTools pipe and misbehaves.
@Suite(.serialized) struct ChromiumFaultTests {
  static func page(in dir: URL) throws -> URL {
    let html = dir.appendingPathComponent("a.html")
    try Data("<p>x</p>".utf8).write(to: html)
    return html
  }

  /// Item 5: a Chromium that wrote only the first 20,000 bytes of a real PDF and exited 0
  /// had it published. Now the PDF is checked whole (trailer, page count) first.
  @Test func aTruncatedPDFIsRefusedAndNotWritten() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-truncate")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fake = try FakeChromium.write(.truncate, in: dir)
    let pdf = dir.appendingPathComponent("report.pdf")
    #expect(throws: ChromiumPrinter.Error.self) {
      try ChromiumPrinter(executable: fake, timeout: 30).print(html: try Self.page(in: dir), to: pdf)
    }
    #expect(!FileManager.default.fileExists(atPath: pdf.path))
    // The same fake's whole PDF is accepted: the check is about the cut, not the fake.
    let whole = try FakeChromium.write(.good, named: "whole", in: dir)
    try ChromiumPrinter(executable: whole, timeout: 30).print(html: try Self.page(in: dir), to: pdf)
    let written = try Data(contentsOf: pdf)
    #expect(written.count > 20_000 && written.starts(with: Data("%PDF-".utf8)))
  }

  /// Item 6: a hanging Chromium was stopped at the timeout, but its child survived as an
  /// orphan. Now the whole process group is ended.
  @Test func aHangingChromiumIsStoppedWithEveryProcessItStarted() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-hang-group")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.hang, in: dir, record: record)
    let started = Date()
    #expect(throws: ChromiumPrinter.Error.timedOut(file: "report.pdf", seconds: 3)) {
      try ChromiumPrinter(executable: fake, timeout: 3).print(
        html: try Self.page(in: dir), to: dir.appendingPathComponent("report.pdf"))
    }
    #expect(Date().timeIntervalSince(started) < 20)
    let facts = FakeChromium.record(record)
    let child = try #require(facts["child"].flatMap { Int32($0) })
    defer { kill(child, SIGKILL) }
    var running = FakeChromium.isRunning(child)
    for _ in 0..<20 where running {
      usleep(100_000)
      running = FakeChromium.isRunning(child)
    }
    #expect(!running, "the child \(child) of the stopped Chromium still runs")
  }

  /// Item 6: Chromium inherited the blocked signals of the thread that started it (TERM,
  /// INT and HUP in `SigBlk`), so it could not be stopped politely. Now it starts with a
  /// clean mask, every signal at its default, in a process group of its own.
  @Test func chromiumStartsWithACleanSignalMaskInAGroupOfItsOwn() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-mask")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.good, in: dir, record: record)
    let html = try Self.page(in: dir)
    let pdf = dir.appendingPathComponent("report.pdf")
    // Printed from a thread that blocks the three, as raon's worker threads do.
    let outcome = LockedOutcome()
    let thread = Thread {
      var blocked = sigset_t()
      sigemptyset(&blocked)
      for s in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&blocked, s) }
      pthread_sigmask(SIG_BLOCK, &blocked, nil)
      outcome.set(Result { try ChromiumPrinter(executable: fake, timeout: 30).print(html: html, to: pdf) })
    }
    thread.start()
    let result = try #require(outcome.wait(60))
    try result.get()
    let facts = FakeChromium.record(record)
    let blocked = try #require(facts["SigBlk"])
    let ignored = try #require(facts["SigIgn"])
    #expect(!FakeChromium.holdsHangUpInterruptOrTerminate(blocked), "SigBlk \(blocked)")
    #expect(!FakeChromium.holdsHangUpInterruptOrTerminate(ignored), "SigIgn \(ignored)")
    #expect(facts["pid"] != nil && facts["pgid"] == facts["pid"], "\(facts)")
  }

  /// Item 8: a Chromium that printed a good PDF and exited 0 but left a process holding
  /// its pipes made raon wait 120 s and throw the PDF away. Now its exit is what counts,
  /// and what it left is ended with its group.
  @Test func aChromiumLeavingAProcessOnItsPipesDoesNotHoldThePrintUp() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-linger")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.linger, in: dir, record: record)
    let pdf = dir.appendingPathComponent("report.pdf")
    let started = Date()
    try ChromiumPrinter(executable: fake, timeout: 40).print(html: try Self.page(in: dir), to: pdf)
    #expect(Date().timeIntervalSince(started) < 20)
    #expect(try Data(contentsOf: pdf).count > 20_000)
    let child = try #require(FakeChromium.record(record)["child"].flatMap { Int32($0) })
    defer { kill(child, SIGKILL) }
    usleep(300_000)
    #expect(!FakeChromium.isRunning(child), "the process Chromium left (\(child)) still runs")
  }

  /// Prints in flight at once in one browser: when one fails, its caller gets the error,
  /// the browser is not trusted again (stopped with its process group), and after the
  /// session is closed no browser is left and its folder is gone.
  @Test func aPrintFailingAmongConcurrentOnesFailsAndLeavesNoBrowser() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-fail-concurrent")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.failSecondPrint, in: dir, record: record)
    let session = ChromiumSession(printer: ChromiumPrinter(executable: fake, timeout: 30), concurrency: 4)
    session.start()
    let pid = try #require(FakeChromium.record(record)["pid"].flatMap { Int32($0) })
    let folder = try #require(Self.scratchFolder(of: pid))
    let prints = (0..<4).map { n in
      PendingResult.start { try session.print(html: "<p>\(n)</p>", name: "\(n).pdf") }
    }
    let outcomes = prints.map { $0.wait() }
    let failures = outcomes.compactMap { outcome -> ChromiumPrinter.Error? in
      guard case .failure(let error) = outcome else { return nil }
      return error as? ChromiumPrinter.Error
    }
    #expect(failures.contains { "\($0)".contains("Printing failed") }, "\(outcomes)")
    #expect(failures.count == outcomes.count { if case .failure = $0 { true } else { false } })
    // The failed browser was stopped at once, before the session was closed.
    var running = FakeChromium.isRunning(pid)
    for _ in 0..<50 where running {
      usleep(100_000)
      running = FakeChromium.isRunning(pid)
    }
    #expect(!running, "the browser \(pid) that failed a print still runs")
    session.close()
    #expect(Self.processes(using: fake).isEmpty, "a browser was left running")
    #expect(!FileManager.default.fileExists(atPath: folder.path), "\(folder.path) was left")
  }

  /// Issue 37: a killed Chromium left `org.chromium.Chromium.*` (its singleton socket) in
  /// the user's TMPDIR. Chromium's TMPDIR is now raon's folder for it, named with raon's
  /// process id, and removed with it.
  @Test func chromiumKeepsItsTemporaryFilesInRaonsFolder() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-tmpdir")
    defer { try? FileManager.default.removeItem(at: dir) }
    let record = dir.appendingPathComponent("record")
    let fake = try FakeChromium.write(.good, in: dir, record: record)
    let session = ChromiumSession(printer: ChromiumPrinter(executable: fake, timeout: 30), concurrency: 1)
    session.start()
    let pid = try #require(FakeChromium.record(record)["pid"].flatMap { Int32($0) })
    let folder = try #require(Self.scratchFolder(of: pid))
    let environment = try #require(FileManager.default.contents(atPath: "/proc/\(pid)/environ"))
      .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    #expect(environment.contains("TMPDIR=\(folder.path)"), "\(environment.filter { $0.hasPrefix("TMPDIR") })")
    #expect(folder.lastPathComponent.hasPrefix("raon-chromium-\(getpid())-"), "\(folder.path)")
    session.close()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  /// Issue 37: the folders of runs that died stay no longer than the next print: those of
  /// processes that ended are removed, those of running ones kept; those of an earlier Raon
  /// (named without a process) are removed once a day old.
  @Test func theFoldersOfEndedRunsAreRemovedAndNoOthers() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-stale")
    defer { try? FileManager.default.removeItem(at: dir) }
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let fm = FileManager.default
    var made: [String: URL] = [:]
    for (key, name, age) in [
      ("ended", "raon-chromium-\(ended.processIdentifier)-0badc0de", 0.0),
      ("running", "raon-chromium-1-0badc0de", 0),  // init runs
      ("this", "raon-chromium-\(getpid())-0badc0de", 0),
      ("oldLegacy", "raon-chromium-\(UUID().uuidString)", 2 * 86_400),
      ("newLegacy", "raon-chromium-\(UUID().uuidString)", 0),
      ("other", "raon-chromium-notes", 2 * 86_400),
    ] {
      let url = dir.appendingPathComponent(name)
      try fm.createDirectory(at: url.appendingPathComponent("profile"), withIntermediateDirectories: true)
      if age > 0 { try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path) }
      made[key] = url
    }
    PrintScratch.removeStaleFolders(in: dir)
    let kept = Set(made.filter { fm.fileExists(atPath: $0.value.path) }.keys)
    #expect(kept == ["running", "this", "newLegacy", "other"])
  }

  /// The scratch folder of browser `pid` (its `--user-data-dir`'s parent).
  static func scratchFolder(of pid: Int32) -> URL? {
    guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
    let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    guard let profile = arguments.first(where: { $0.hasPrefix("--user-data-dir=") }) else { return nil }
    return URL(fileURLWithPath: String(profile.dropFirst("--user-data-dir=".count))).deletingLastPathComponent()
  }

  /// Running processes whose command line names `executable`.
  static func processes(using executable: URL) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), FakeChromium.isRunning(pid)
      else { return false }
      return String(decoding: raw, as: UTF8.self).contains(executable.path)
    }
  }

  /// Item 9: `RAON_CHROMIUM=/tmp` (a folder, "executable" to access(2)) passed the check
  /// made before recording. Now only an executable regular file is accepted.
  @Test func aFolderGivenAsRAONCHROMIUMIsNotAChromium() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chromium-folder")
    defer { try? FileManager.default.removeItem(at: dir) }
    for configured in [dir.path, "/tmp", "/"] {
      #expect(throws: ChromiumPrinter.Error.notFound(configured: configured)) {
        try ChromiumPrinter.locate(in: ["PATH": "/usr/bin", "RAON_CHROMIUM": configured])
      }
    }
    // A folder named like a Chromium on PATH is passed over too.
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("chromium"), withIntermediateDirectories: true)
    #expect(throws: ChromiumPrinter.Error.notFound(configured: nil)) {
      try ChromiumPrinter.locate(in: ["PATH": dir.path])
    }
  }
}

/// A result handed from another thread.
final class LockedOutcome: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var value: Result<Void, any Error>?

  func set(_ result: Result<Void, any Error>) {
    lock.lock()
    value = result
    lock.unlock()
    done.signal()
  }

  func wait(_ seconds: Double) -> Result<Void, any Error>? {
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
