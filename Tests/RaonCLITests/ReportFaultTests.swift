import Foundation
import TestSupport
import Testing

/// `raon report` when the output cannot be written: a full disk, an unwritable folder, a
/// path through a file. Each gives a one-line error naming the place, a non-zero status,
/// leaves the earlier report byte-for-byte intact and leaves no partial folder behind.
@Suite(.serialized) struct ReportFaultTests {
  static func snapshotOf(_ dir: URL) -> [String: Data] {
    var out: [String: Data] = [:]
    for file in TestInspection.files(under: dir) {
      out[String(file.path.dropFirst(dir.path.count))] = try? Data(contentsOf: file)
    }
    return out
  }

  static func leftovers(in dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
      .filter { $0.contains(".raon-partial-") || $0.contains(".raon-old-") }
  }

  static func oneLine(_ text: String) -> Bool {
    text.split(separator: "\n").filter { !$0.isEmpty }.count == 1
  }

  /// A 1 MiB tmpfs holds the earlier (JSON-only) report; the full report does not fit.
  @Test func aFullDiskGivesAClearErrorAndKeepsTheEarlierReport() throws {
    let dir = try Fixtures.temporaryDirectory("raon-fulldisk")
    defer { try? FileManager.default.removeItem(at: dir) }
    let mountPoint = dir.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path]
    mount.standardError = FileHandle.nullDevice
    guard (try? mount.run()) != nil else {
      print("SKIPPED aFullDiskGivesAClearErrorAndKeepsTheEarlierReport: cannot run mount")
      return
    }
    mount.waitUntilExit()
    guard mount.terminationStatus == 0 else {
      print("SKIPPED aFullDiskGivesAClearErrorAndKeepsTheEarlierReport: mount -t tmpfs not permitted (not root?)")
      return
    }
    defer {
      let umount = Process()
      umount.executableURL = URL(fileURLWithPath: "/bin/umount")
      umount.arguments = [mountPoint.path]
      try? umount.run()
      umount.waitUntilExit()
    }
    let env = ["RAON_DB": dir.appendingPathComponent("store.sqlite").path]
    let target = mountPoint.appendingPathComponent("w37")
    let first = try RaonProcess.run(
      ["report", "--format", "json", "--out", target.path], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let before = Self.snapshotOf(target)
    #expect(before.keys.contains("/report.json"))

    let full = try RaonProcess.run(["report", "--out", target.path], in: dir, environment: env)
    #expect(full.status != 0)
    print("full disk → \(full.stderr)")
    #expect(Self.oneLine(full.stderr), "\(full.stderr)")
    #expect(full.stderr.contains(mountPoint.path), "\(full.stderr)")
    #expect(full.stderr.lowercased().contains("space") || full.stderr.contains("full"), "\(full.stderr)")
    #expect(Self.snapshotOf(target) == before, "the earlier report changed")
    #expect(Self.leftovers(in: mountPoint).isEmpty, "\(Self.leftovers(in: mountPoint))")
    // The store is untouched by a failed report: still the one sample snapshot.
    let list = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
    let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
    #expect(items?.count == 1)
  }

  /// The hostile set found a full disk that let `raon report` exit 0 with a workbook whose
  /// programs sheet was cut in half (libxlsxwriter does not check writes to the temporary
  /// file a constant-memory sheet spills to). Over disks of every size from "nothing fits"
  /// to "everything fits", each run either publishes a complete report — every XML part of
  /// the workbook parses and the programs sheet holds every program — or fails with one
  /// line, leaving the earlier report as it was and nothing staged.
  @Test func everyFullnessOfTheDiskGivesACompleteReportOrAClearFailure() throws {
    let dir = try Fixtures.temporaryDirectory("raon-fullness")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": dir.appendingPathComponent("store.sqlite").path]
    let seed = try RaonProcess.run(["report", "--format", "json", "--out", "seed"], in: dir, environment: env)
    try #require(seed.status == 0, "\(seed.stderr)")
    var published = 0, refused = 0
    for megabytes in stride(from: 4, through: 40, by: 3) {
      let mountPoint = dir.appendingPathComponent("disk\(megabytes)")
      try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
      guard FaultsAndOddInputsEndToEndTests.mount(["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", mountPoint.path]) else {
        print("SKIPPED everyFullnessOfTheDisk…: cannot mount a tmpfs here (not root?)")
        return
      }
      defer { _ = FaultsAndOddInputsEndToEndTests.mount([mountPoint.path], program: "/bin/umount") }
      let target = mountPoint.appendingPathComponent("out")
      try FileManager.default.copyItem(at: dir.appendingPathComponent("seed"), to: target)
      let before = Self.snapshotOf(target)
      let run = try RaonProcess.run(["report", "--out", target.path], in: dir, environment: env)
      #expect(Self.leftovers(in: mountPoint).isEmpty, "\(megabytes) MB: \(Self.leftovers(in: mountPoint))")
      if run.status == 0 {
        published += 1
        let check = try TestInspection.python(
          """
          import sys, zipfile, xml.etree.ElementTree as ET
          z = zipfile.ZipFile(sys.argv[1] + "/report.xlsx")
          bad = []
          for name in z.namelist():
              if name.endswith(".xml") or name.endswith(".rels"):
                  try:
                      ET.fromstring(z.read(name))
                  except ET.ParseError as e:
                      bad.append(name)
          rows = max(z.read(n).count(b"<row ") for n in z.namelist() if n.startswith("xl/worksheets/"))
          print(len(bad), rows)
          """, [target.path])
        let figures = check.split(separator: " ").compactMap { Int($0) }
        #expect(figures.first == 0, "\(megabytes) MB: exit 0 with invalid XML parts (\(check))")
        // The sample's 4,998 programs and the header row.
        #expect(figures.last == 4_999, "\(megabytes) MB: the programs sheet holds \(check)")
      } else {
        refused += 1
        #expect(Self.oneLine(run.stderr), "\(megabytes) MB: \(run.stderr)")
        #expect(Self.snapshotOf(target) == before, "\(megabytes) MB: the earlier report changed")
      }
    }
    // The sweep spans both outcomes, or it tested nothing.
    #expect(published > 0 && refused > 0, "published \(published), refused \(refused)")
  }

  /// `raon report --input` with its output on a full disk: the file is recorded before the
  /// report can fail (no check finds a disk too small in advance), so the one-line error
  /// says so and how to report it without recording it again.
  @Test func aRecordedInputWhoseReportCannotBeWrittenIsNamed() throws {
    try Self.withSampleRecorded(besideTmpfs: "size=1m") { dir, mountPoint, env in
      let run = try RaonProcess.run(
        ["report", "--input", Fixtures.sampleCSV.path, "--taken-at", "2024-09-16",
         "--out", mountPoint.appendingPathComponent("w38").path], in: dir, environment: env)
      #expect(run.status == 1)
      #expect(Self.oneLine(run.stderr), "\(run.stderr)")
      #expect(run.stderr.contains("recorded all the same as snapshot 2"), "\(run.stderr)")
      #expect(run.stderr.contains("raon report --snapshot 2"), "\(run.stderr)")
      #expect(!run.stderr.contains(".."), "\(run.stderr)")
      #expect(Self.leftovers(in: mountPoint).isEmpty)
      // What the message says works, and records nothing more.
      let retry = try RaonProcess.run(["report", "--snapshot", "2", "--out", "w38", "--format", "json"], in: dir, environment: env)
      #expect(retry.status == 0, "\(retry.stderr)")
      let list = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
      let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
      #expect(items?.count == 2)
    }
  }

  @Test func anOutputPathThroughAFileGivesAClearError() throws {
    let dir = try Fixtures.temporaryDirectory("raon-outfile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite"]
    let first = try RaonProcess.run(["report", "--out", "reports/w37"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let before = Self.snapshotOf(dir.appendingPathComponent("reports/w37"))
    try Data("not a folder".utf8).write(to: dir.appendingPathComponent("blocker"))
    for out in ["blocker/w37", "blocker", "reports/w37/report.json/x"] {
      let run = try RaonProcess.run(["report", "--out", out], in: dir, environment: env)
      #expect(run.status != 0, "\(out)")
      #expect(Self.oneLine(run.stderr), "\(out): \(run.stderr)")
      #expect(run.stderr.contains("cannot write the report"), "\(out): \(run.stderr)")
    }
    #expect(Self.snapshotOf(dir.appendingPathComponent("reports/w37")) == before)
    #expect(try Data(contentsOf: dir.appendingPathComponent("blocker")) == Data("not a folder".utf8))
  }

  /// `raon report --input` into a folder that cannot be written (a read-only mount, which
  /// even root cannot write): refused before the input is recorded, so a retry into a
  /// good folder does not find a copy of it already in the store.
  @Test func anInputWhoseOutputFolderCannotBeWrittenIsNotRecorded() throws {
    try Self.withSampleRecorded(besideTmpfs: "ro,size=1m") { dir, mountPoint, env in
      for out in ["w38", "reports/w38"] {
        let run = try RaonProcess.run(
          ["report", "--input", Fixtures.sampleCSV.path, "--taken-at", "2024-09-16",
           "--out", mountPoint.appendingPathComponent(out).path], in: dir, environment: env)
        #expect(run.status == 1, "\(out): \(run.stderr)")
        #expect(Self.oneLine(run.stderr), "\(out): \(run.stderr)")
        #expect(run.stderr.contains("cannot write the report"), "\(out): \(run.stderr)")
        #expect(!run.stderr.contains("recorded all the same"), "\(out): \(run.stderr)")
      }
      let list = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
      let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
      #expect(items?.count == 1, "\(list.stdout)")
    }
  }

  /// A folder holding `store.sqlite` with the sample recorded as snapshot 1, and a tmpfs
  /// mounted with `options` at its `mnt/`, for `body`; both go afterwards. Skipped (and
  /// said so) where no tmpfs can be mounted (not root).
  static func withSampleRecorded(
    besideTmpfs options: String, test: String = #function,
    _ body: (_ dir: URL, _ mountPoint: URL, _ env: [String: String]) throws -> Void
  ) throws {
    let dir = try Fixtures.temporaryDirectory("raon-tmpfs")
    defer { try? FileManager.default.removeItem(at: dir) }
    let mountPoint = dir.appendingPathComponent("mnt")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    guard FaultsAndOddInputsEndToEndTests.mount(["-t", "tmpfs", "-o", options, "tmpfs", mountPoint.path]) else {
      print("SKIPPED \(test): cannot mount a tmpfs here (not root?)")
      return
    }
    defer { _ = FaultsAndOddInputsEndToEndTests.mount([mountPoint.path], program: "/bin/umount") }
    let env = ["RAON_DB": dir.appendingPathComponent("store.sqlite").path]
    let first = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir, environment: env)
    try #require(first.status == 0, "\(first.stderr)")
    try body(dir, mountPoint, env)
  }

  /// Root ignores permissions, so the unwritable folder is tried as user `nobody` (through
  /// `setpriv`) when the tests run as root.
  @Test func anUnwritableOutputFolderGivesAClearErrorAndKeepsTheEarlierReport() throws {
    let dir = try Fixtures.temporaryDirectory("raon-unwritable")
    defer {
      _ = try? TestInspection.python("import sys,os\nfor r,ds,fs in os.walk(sys.argv[1]):\n  os.chmod(r,0o777)", [dir.path])
      try? FileManager.default.removeItem(at: dir)
    }
    let fm = FileManager.default
    let runAsNobody = getuid() == 0
    if runAsNobody {
      guard fm.isExecutableFile(atPath: "/usr/bin/setpriv") else {
        print("SKIPPED anUnwritableOutputFolder…: root without setpriv")
        return
      }
      // nobody must reach the binary, the sample and the folder.
      var probe = RaonProcess.executable
      var reachable = true
      while probe.path != "/" {
        probe.deleteLastPathComponent()
        let mode = (try? fm.attributesOfItem(atPath: probe.path)[.posixPermissions] as? Int) ?? 0
        if mode & 0o001 == 0 { reachable = false }
      }
      guard reachable else {
        print("SKIPPED anUnwritableOutputFolder…: the raon binary is not reachable by nobody")
        return
      }
      try fm.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir.path)
    }
    func raon(_ args: [String]) throws -> RaonProcess.Result {
      guard runAsNobody else {
        return try RaonProcess.run(args, in: dir, environment: ["RAON_DB": "store.sqlite"])
      }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=65534", "--regid=65534", "--clear-groups", "--", RaonProcess.executable.path] + args
      process.currentDirectoryURL = dir
      process.environment = ["PATH": "/usr/bin:/bin", "HOME": dir.path, "LANG": "C.UTF-8", "RAON_DB": "store.sqlite"]
      let out = Pipe()
      let err = Pipe()
      process.standardOutput = out
      process.standardError = err
      try process.run()
      let o = out.fileHandleForReading.readDataToEndOfFile()
      let e = err.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return RaonProcess.Result(
        status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e, as: UTF8.self))
    }
    let parent = dir.appendingPathComponent("reports")
    let first = try raon(["report", "--out", "reports/w37"])
    guard first.status == 0 else {
      Issue.record("the first report failed: \(first.stderr)")
      return
    }
    let before = Self.snapshotOf(parent.appendingPathComponent("w37"))
    try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: parent.path)
    let run = try raon(["report", "--out", "reports/w37"])
    #expect(run.status != 0)
    #expect(Self.oneLine(run.stderr), "\(run.stderr)")
    #expect(run.stderr.contains("reports"), "\(run.stderr)")
    #expect(run.stderr.contains("cannot write the report"), "\(run.stderr)")
    try fm.setAttributes([.posixPermissions: 0o777], ofItemAtPath: parent.path)
    #expect(Self.snapshotOf(parent.appendingPathComponent("w37")) == before)
    #expect(Self.leftovers(in: parent).isEmpty)
  }
}
