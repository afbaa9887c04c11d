import Foundation
import Testing

@testable import RaonWorkflow

/// Publishing keeps the old or the new report in place at every instant, restores an
/// orphaned old report, and writes through a symbolic link.
@Suite(.serialized) struct PublishingTests {
  func temporary() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("raon-pub2-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func report(_ folder: URL, _ text: String) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: folder.appendingPathComponent("report.md"))
  }

  func read(_ folder: URL) -> String? {
    (try? Data(contentsOf: folder.appendingPathComponent("report.md"))).map { String(decoding: $0, as: UTF8.self) }
  }

  /// A pid no process has (above the kernel's pid_max).
  static let deadPID = 4_999_999

  /// Issue 37: the check before recording asked `access(2)`, which says yes to root for
  /// `/proc`, so the input was recorded before the report failed. A file is now made and
  /// removed there: refused where none can be made, and nothing left where one can.
  @Test func theOutputFolderIsCheckedByMakingAFile() throws {
    for target in ["/proc/raon-check/report", "/proc/self/raon-check", "/sys/raon-check"] {
      #expect(throws: WorkflowError.self) { try OutputPublisher.checkWritable(beside: URL(fileURLWithPath: target)) }
    }
    let folder = try temporary()
    defer { try? FileManager.default.removeItem(at: folder) }
    try OutputPublisher.checkWritable(beside: folder.appendingPathComponent("not/yet/report"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// Item 7: a run killed between moving the old report aside and moving the new one in
  /// left `.NAME.raon-old-PID` and no report. The next run puts it back first, so even a
  /// failing run leaves the earlier report in place (the old code deleted it).
  @Test func anOrphanedOldReportIsRestoredEvenWhenTheNextRunFails() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("2024-W37")
    try report(dir.appendingPathComponent(".2024-W37.raon-old-\(Self.deadPID)"), "earlier")
    struct WriteFailed: Error {}
    #expect(throws: WriteFailed.self) {
      try OutputPublisher.publish(to: target) { _ in throw WriteFailed() }
    }
    #expect(read(target) == "earlier")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// An orphan is not restored over a report that is in place (the new one won), and is
  /// removed.
  @Test func anOrphanBesideAReportIsRemoved() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("r")
    try report(target, "newer")
    try report(dir.appendingPathComponent(".r.raon-old-\(Self.deadPID)"), "older")
    try OutputPublisher.publish(to: target) { try report($0, "newest") }
    #expect(read(target) == "newest")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r"])
  }

  /// Issue 37 (found by the hostile runner): an interrupt that arrived while a published
  /// site's predecessor (5,000 pages) was being removed exited halfway, leaving
  /// `.site.raon-partial-PID` with 4,400 of them, and said nothing was published. The
  /// predecessor stays registered until removed, so the interrupt removes the rest, and
  /// the registry knows a folder was published.
  @Test func anInterruptWhileTheReplacedOutputIsRemovedRemovesTheRest() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let registry = StagingRegistry()
    let staged = dir.appendingPathComponent(".r.raon-partial-1")
    let earlier = dir.appendingPathComponent(".r.raon-old-1")
    try registry.register(staged) { try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: false) }
    try report(earlier, "old")
    #expect(!registry.hasPublished)
    // A folder published inside the staged one (a site's week) is not published yet.
    let inner = staged.appendingPathComponent(".w.raon-partial-1")
    try registry.register(inner) { try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false) }
    _ = try registry.publish(inner, to: staged.appendingPathComponent("w")) {
      try FileManager.default.moveItem(at: inner, to: staged.appendingPathComponent("w"))
      return nil
    }
    #expect(!registry.hasPublished)
    let replaced = try registry.publish(staged, to: dir.appendingPathComponent("r")) {
      try FileManager.default.moveItem(at: staged, to: dir.appendingPathComponent("r"))
      return earlier
    }
    #expect(replaced == earlier && registry.hasPublished)
    // The interrupt comes before removeReplaced has run.
    #expect(registry.removeStaged().isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r"])
    registry.removeReplaced(earlier)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r"])
  }

  /// A staged folder an interrupt was removing when the process was killed
  /// (`.r.raon-partial-PID.removing`) is removed by the next run, as a staged one is.
  @Test func aFolderBeingRemovedWhenTheRunDiedIsRemovedNextTime() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("r")
    try report(dir.appendingPathComponent(".r.raon-partial-\(Self.deadPID).removing"), "half")
    try report(dir.appendingPathComponent(".r.raon-partial-\(Self.deadPID)"), "half")
    try OutputPublisher.publish(to: target) { try report($0, "new") }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r"])
  }

  /// Item 7: the old or the new report is in place at every instant. A watcher looks for
  /// the report while it is replaced 300 times; with two renames it finds a gap.
  @Test func theReportIsInPlaceAtEveryInstantWhileItIsReplaced() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("r")
    try report(target, "0")
    let stop = StopFlag()
    let missing = HitCounter()
    let watcher = Thread {
      let path = target.appendingPathComponent("report.md").path
      while !stop.isSet {
        if access(path, F_OK) != 0 { missing.add() }
      }
    }
    watcher.start()
    for n in 1...300 {
      try OutputPublisher.publish(to: target) { try report($0, "\(n)") }
    }
    stop.set()
    Thread.sleep(forTimeInterval: 0.05)
    #expect(missing.value == 0, "the report was missing \(missing.value) times")
    #expect(read(target) == "300")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r"])
  }

  /// Item 11: `--out` that is a symbolic link to a folder is written through; the link
  /// stays a link (it used to be replaced by a folder).
  @Test func aSymbolicLinkTargetIsWrittenThrough() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let real = dir.appendingPathComponent("shared/week")
    try report(real, "old")
    let link = dir.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "shared/week")
    try OutputPublisher.publish(to: link) { try report($0, "new") }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "shared/week")
    #expect(read(real) == "new")
    #expect(read(link) == "new")
  }

  /// Item 8: what a signal handler calls: staged folders go, and a commit after it
  /// publishes nothing.
  @Test func abandoningRemovesStagedFoldersAndRefusesToPublish() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let registry = StagingRegistry()
    let folder = dir.appendingPathComponent(".r.raon-partial-1")
    try registry.register(folder) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
    registry.abandonAll()
    #expect(!FileManager.default.fileExists(atPath: folder.path))
    #expect(throws: WorkflowError.interrupted) {
      try registry.unregister(folder, publishing: true) { Issue.record("published after abandoning") }
    }
    #expect(throws: WorkflowError.interrupted) {
      try registry.register(folder) {}
    }
  }

  /// Hostile site_signals #12: a site's week is staged inside the site's staged folder;
  /// staging it after an interrupt had removed that folder made its parents again, and an
  /// empty `.site.raon-partial-PID` was left. After an interrupt, staging makes nothing.
  @Test func stagingAfterAnInterruptMakesNoFolder() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let registry = StagingRegistry()
    let site = dir.appendingPathComponent(".site.raon-partial-1")
    try registry.register(site) { try FileManager.default.createDirectory(at: site, withIntermediateDirectories: false) }
    registry.abandonAll()
    #expect(throws: WorkflowError.interrupted) {
      _ = try OutputPublisher.stage(site.appendingPathComponent("weeks/2024-W38"), registry: registry)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
  }

  /// Issue 37, item 3: a writer that keeps adding files (a site's thousands of pages) while
  /// the interrupt removes the staged folder refilled it, and `.site.raon-partial-PID` was
  /// left with hundreds of files. The folder is renamed before it is emptied, so the writer
  /// cannot reach it: nothing is left, and the clean-up says so.
  @Test func abandoningRemovesAStagedFolderAWriterKeepsFilling() throws {
    let dir = try temporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let registry = StagingRegistry()
    let folder = dir.appendingPathComponent(".site.raon-partial-1")
    try registry.register(folder) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
    for sub in 0..<8 {
      let url = folder.appendingPathComponent("programs-\(sub)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
      for n in 0..<300 { try Data("page".utf8).write(to: url.appendingPathComponent("p\(n).html")) }
    }
    let stop = StopFlag()
    let written = HitCounter()
    let writer = Thread {
      var n = 0
      while !stop.isSet {
        let url = folder.appendingPathComponent("programs-\(n % 8)/w\(n).html")
        if (try? Data("page".utf8).write(to: url)) != nil { written.add() }
        n += 1
      }
    }
    writer.start()
    while written.value < 200 { usleep(1_000) }
    let left = registry.removeStaged()
    usleep(300_000)
    stop.set()
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(names.isEmpty, "left \(names)")
    #expect(left.isEmpty, "\(left)")
  }
}

final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
  func set() { lock.lock(); value = true; lock.unlock() }
}

final class HitCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.lock(); defer { lock.unlock() }; return count }
  func add() { lock.lock(); count += 1; lock.unlock() }
}
