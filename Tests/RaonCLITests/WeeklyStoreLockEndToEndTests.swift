import Foundation
import RaonConcurrency
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One run per store: the store holds the run lock, so two runs on one store — two configs,
/// two working directories ("machines") — never both send, whichever starts first; and a
/// `[weekly] lock` file is only ever one Raon made: the store, the config or a symbolic link
/// named there is refused and left byte for byte as it was. The real binary, a real SMTP
/// server on 127.0.0.1 that answers each message a second late (so a run is caught mid-send).
@Suite(.serialized) struct WeeklyStoreLockEndToEndTests {
  static var everyone: Set<String> { Set(WeeklyFixture.lists.values.flatMap { $0 }) }

  @Test func aLockNamingTheStoreTheConfigOrALinkIsRefusedAndTheFileIsUntouched() async throws {
    let f = try await WeeklyFixture.make("lockfile")
    defer { f.stop() }
    try f.useInbox()
    let same = try f.gateCase("same")
    try f.drop(same.base, at: "2025-08-18T06:52:00+09:00")
    let first = try await f.weekly(at: WeeklyFixture.monday(1))
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    let store = f.dir.appendingPathComponent("raon.sqlite")
    let victim = f.dir.appendingPathComponent("victim.txt")
    try Data("a file of someone else's\n".utf8).write(to: victim)
    try FileManager.default.createSymbolicLink(at: f.dir.appendingPathComponent("planted.lock"), withDestinationURL: victim)
    let notes = f.dir.appendingPathComponent("notes.txt")
    try Data("hello\n".utf8).write(to: notes)
    for (lock, file, says) in [
      ("raon.sqlite", store, "is the store"), ("raon.toml", f.dir.appendingPathComponent("raon.toml"), "is the config file"),
      ("planted.lock", victim, "is a symbolic link"), ("notes.txt", notes, "is a file that begins 'hello'"),
      ("inbox/서울시 문화행사 정보.csv", f.inbox.appendingPathComponent("서울시 문화행사 정보.csv"), "is a file that begins"),
    ] {
      try f.useInbox(weekly: "lock = \"\(lock)\"")
      let before = try WeeklyFixture.sha256(file)
      let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
      let run = try await f.weekly(["--resend"], at: WeeklyFixture.monday(1, at: "08:00"))
      #expect(run.status == 78, "\(lock): \(run.stdout) \(run.stderr)")
      let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }
      #expect(errors.count == 1, "\(run.stderr)")
      #expect(errors.first?.contains(says) == true && errors.first?.contains("left as it is") == true, "\(lock): \(run.stderr)")
      #expect(try WeeklyFixture.sha256(file) == before, "\(lock) was written to")
      #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == size)
    }
    var info = stat()
    #expect(lstat(f.dir.appendingPathComponent("planted.lock").path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    // Nothing was done: no run recorded, no mail, the store whole.
    #expect(try f.smtp.messages().count == 5)
    let (_, json, _) = try await f.runs(at: WeeklyFixture.monday(1, at: "09:00"))
    #expect((json["runs"] as? [[String: Any]])?.count == 1)
    #expect(try await f.snapshotCount() == 1)

    // A path of its own: Raon makes the file, with its first line, and uses it again.
    try f.useInbox(weekly: "lock = \"run/weekly.lock\"")
    for hour in ["10:00", "11:00"] {
      let run = try await f.weekly(at: WeeklyFixture.monday(1, at: hour))
      #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
    }
    let made = try String(contentsOf: f.dir.appendingPathComponent("run/weekly.lock"), encoding: .utf8)
    #expect(made.hasPrefix(RunLock.signature + "\n"), "\(made)")
  }

  /// SQLite: two configs (two `out` folders, no lock file) on one store; each run started
  /// while the other sends.
  @Test func twoConfigsOnOneSQLiteStoreNeverBothSend() async throws {
    let f = try await WeeklyFixture.make("two-configs", smtpOptions: .init(slow: 1.0))
    defer { f.stop() }
    try f.useInbox()
    let other = f.dir.appendingPathComponent("raon-b.toml")
    try Data(
      try String(contentsOf: f.dir.appendingPathComponent("raon.toml"), encoding: .utf8)
        .replacingOccurrences(of: "out = \"out\"", with: "out = \"out-b\"").replacingOccurrences(of: "site = \"site\"", with: "site = \"site-b\"").utf8
    ).write(to: other)
    let a = ["--config", f.dir.appendingPathComponent("raon.toml").path]
    let b = ["--config", other.path]
    try await Self.eachStartedMidSend(f, first: (a, f.dir), second: (b, f.dir))
  }

  /// PostgreSQL: two "machines" — two working directories, each with its own config, inbox,
  /// `out` and site — on one store; each run started while the other sends.
  @Test func twoMachinesOnOnePostgreSQLStoreNeverBothSend() async throws {
    guard let server = PostgresTestServer.available() else { return }
    let f = try await WeeklyFixture.make("two-machines", backend: .postgres(server), smtpOptions: .init(slow: 1.0))
    defer { f.stop() }
    try f.useInbox()
    let machine = f.dir.appendingPathComponent("machine-b")
    try FileManager.default.createDirectory(at: machine.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: f.dir.appendingPathComponent("raon.toml"), to: machine.appendingPathComponent("raon.toml"))
    try await Self.eachStartedMidSend(f, first: ([], f.dir), second: ([], machine))
  }

  /// Week 1: `first` sends, `second` is started when the server has the first message;
  /// week 2 the other way round. The one started second exits 69 at once, naming the run
  /// that holds the store; every office gets each week's message once; `sends = 1`.
  static func eachStartedMidSend(
    _ f: WeeklyFixture, first: ([String], URL), second: ([String], URL)
  ) async throws {
    let same = try f.gateCase("minor")
    let dropAll = { (file: URL, time: String) throws in
      try f.drop(file, at: time)
      let otherInbox = second.1.appendingPathComponent("inbox")
      if otherInbox != f.inbox {
        let target = otherInbox.appendingPathComponent("서울시 문화행사 정보.csv")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: file, to: target)
        try FileManager.default.setAttributes([.modificationDate: WeeklyFixture.date(time)], ofItemAtPath: target.path)
      }
    }
    try dropAll(same.base, "2025-08-18T06:52:00+09:00")
    try await Self.race(f, sending: first, late: second, at: WeeklyFixture.monday(1), before: 0)
    try dropAll(same.case, "2025-08-25T06:52:00+09:00")
    try await Self.race(f, sending: second, late: first, at: WeeklyFixture.monday(2), before: 5)
    let (status, json, stderr) = try await f.runs(at: WeeklyFixture.monday(2, at: "09:00"))
    #expect(status == 0, "\(stderr)")
    let deliveries = f.deliveries(json)
    #expect(deliveries.count == 5 && deliveries.allSatisfy { $0["status"] as? String == "sent" && $0["sends"] as? Int == 1 }, "\(deliveries)")
  }

  static func race(
    _ f: WeeklyFixture, sending: ([String], URL), late: ([String], URL), at time: String, before: Int
  ) async throws {
    let environment = f.environment.merging(["RAON_NOW": time]) { _, b in b }
    let running = try RaonProcess.start(["weekly"] + sending.0, in: sending.1, environment: environment)
    // Mid-send: the server has the week's first message and answers each a second late.
    #expect(Polling.until(timeout: 120, every: 0.05) { ((try? f.smtp.rawMessages().count) ?? 0) > before })
    let started = Date()
    let refused = try await f.weekly(late.0, at: time, in: late.1)
    #expect(refused.status == 69, "\(refused.stdout) \(refused.stderr)")
    #expect(refused.stderr.contains("another raon weekly is running (run "), "\(refused.stderr)")
    #expect(refused.stderr.contains("pid \(running.processIdentifier) on "), "\(refused.stderr)")
    #expect(Date().timeIntervalSince(started) < 30, "the late run waited")
    running.waitUntilExit()
    #expect(running.terminationStatus == 0)
    // The late one, run again now: everyone has the week already.
    let again = try await f.weekly(late.0, at: time, in: late.1)
    #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
    #expect(again.stdout.contains("mail: sent 0, pending 0, refused 0"), "\(again.stdout)")
    let received = Array(try f.smtp.messages().dropFirst(before))
    #expect(received.flatMap(WeeklyFixture.recipients).sorted() == Self.everyone.sorted(), "every office exactly once")
  }
}
