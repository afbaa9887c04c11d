import Foundation
import RaonConcurrency
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Delivery against a server that refuses the session, and a run killed between the parts
/// of a message: the real binary, a real SMTP server on 127.0.0.1 (STARTTLS, AUTH).
@Suite(.serialized) struct WeeklyDeliveryFaultsEndToEndTests {
  static var everyone: Set<String> { Set(WeeklyFixture.lists.values.flatMap { $0 }) }

  /// 553 (or 530) to `MAIL FROM` is the session's refusal, not any address's: every delivery
  /// stays pending, the run stops trying, and once the server takes the sender,
  /// `--deliver-pending` sends them all.
  @Test func aRefusedSenderKeepsEveryDeliveryPendingForTheNextRun() async throws {
    let f = try await WeeklyFixture.make("sender", smtpOptions: .init(refuseSender: 553))
    defer { f.stop() }
    try f.writeConfig()
    let config = f.dir.appendingPathComponent("raon.toml")
    try Data(
      try String(contentsOf: config, encoding: .utf8)
        .replacingOccurrences(of: "formats = [\"pdf\", \"xlsx\", \"md\"]", with: "formats = [\"xlsx\", \"md\"]").utf8
    ).write(to: config)
    let run = try await f.weekly()
    #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("the server refused the sender (MAIL FROM): 553"), "\(run.stderr)")
    #expect(try f.smtp.messages().isEmpty)
    let (_, json, _) = try await f.runs()
    let deliveries = f.deliveries(json)
    #expect(deliveries.count == 5)
    #expect(deliveries.allSatisfy { $0["status"] as? String == "pending" }, "\(deliveries)")
    // The session was refused once; the others were not tried against it.
    #expect(deliveries.map { $0["attempts"] as? Int ?? -1 }.sorted() == [0, 0, 0, 0, 1], "\(deliveries)")
    #expect(deliveries.contains { ($0["lastError"] as? String)?.contains("553") == true })

    f.smtp = try f.smtp.restart(options: .init(refuseSender: 530))
    let login = try await f.weekly(["--deliver-pending"])
    #expect(login.status == 75, "\(login.stdout) \(login.stderr)")
    #expect(try f.smtp.messages().isEmpty)

    // The sender is taken now: everything pending goes, once.
    f.smtp = try f.smtp.restart()
    let later = try await f.weekly(["--deliver-pending"])
    #expect(later.status == 0, "\(later.stdout) \(later.stderr)")
    let received = try f.smtp.messages().flatMap(WeeklyFixture.recipients)
    #expect(received.sorted() == Self.everyone.sorted())
    let after = try await f.runs()
    #expect(after.status == 0, "\(after.stderr)")
  }

  /// A run killed (SIGKILL) after the server took part 1 of a message in parts and while it
  /// sends part 2: the ledger holds part 1, and the next run sends each part the server did
  /// not take — never part 1 again.
  @Test func aRunKilledBetweenThePartsOfAMessageNeverSendsATakenPartAgain() async throws {
    let f = try await WeeklyFixture.make("parts-kill")
    defer { f.stop() }
    try f.writeConfig(weekly: "")
    let config = f.dir.appendingPathComponent("raon.toml")
    try Data(
      try String(contentsOf: config, encoding: .utf8)
        .replacingOccurrences(of: "formats = [\"pdf\", \"xlsx\", \"md\"]", with: "formats = [\"xlsx\", \"html\", \"json\"]").utf8
    ).write(to: config)
    let first = try await f.weekly()
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    #expect(try f.smtp.messages().count == 5)
    // A cap each file fits under with page 1, the three together not: the city's message
    // goes in parts (each file's base64: 4 bytes for 3, a line break each 76).
    let sizes = try ["xlsx", "html", "json"].map { try Data(contentsOf: f.published("city", $0)).count }
    func encoded(_ n: Int) -> Int { (n + 2) / 3 * 4 * 78 / 76 }
    let cap = encoded(sizes.max() ?? 0) + 60_000
    try #require(cap < encoded(sizes.reduce(0, +)), "the fixture's files are too small to need parts")
    try Data(
      try String(contentsOf: config, encoding: .utf8)
        .replacingOccurrences(of: "from = \"culture@example.go.kr\"", with: "from = \"culture@example.go.kr\"\nmax_message_bytes = \(cap)").utf8
    ).write(to: config)

    // The server takes the 6th message (city1's part 1) at once and answers the 7th (its
    // part 2) a minute late: the run is killed while it waits.
    f.smtp = try f.smtp.restart(options: .init(slow: 60, slowFrom: 2))
    let killed = try RaonProcess.start(["weekly", "--resend"], in: f.dir, environment: f.environment)
    let arrived = f.smtp.folder.appendingPathComponent("0007.arrived")
    #expect(Polling.until(timeout: 120, every: 0.05) { FileManager.default.fileExists(atPath: arrived.path) })
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()
    f.smtp = try f.smtp.restart()
    let taken = Array(try f.smtp.messages().dropFirst(5))
    #expect(taken.count == 1, "\(taken.map { $0["subject"] ?? "" })")
    let subject = WeeklyFixture.subject("city")
    #expect(taken.first?["subject"] as? String == "\(subject) (1/\(Self.parts(taken.first)))")
    #expect(WeeklyFixture.recipients(taken.first ?? [:]) == ["city1@example.go.kr"])

    // The next run (the timer's, or anyone's) sends the rest, and only the rest.
    let rerun = try await f.weekly()
    #expect(rerun.status == 0, "\(rerun.stdout) \(rerun.stderr)")
    let all = Array(try f.smtp.messages().dropFirst(5))
    func got(_ who: String) -> [String] {
      all.filter { WeeklyFixture.recipients($0) == [who] }.map { $0["subject"] as? String ?? "" }
    }
    let count = Self.parts(taken.first)
    let everyPart = (1...count).map { "\(subject) (\($0)/\(count))" }
    #expect(got("city1@example.go.kr") == everyPart, "\(got("city1@example.go.kr"))")
    #expect(got("city2@example.go.kr") == everyPart, "\(got("city2@example.go.kr"))")
    #expect(got("jongno@example.go.kr") == [WeeklyFixture.subject("종로구")])
    // The ledger says what the server has: every part of city1's, sent.
    let (status, json, _) = try await f.runs()
    #expect(status == 0)
    let city1 = f.deliveries(json).first { $0["recipient"] as? String == "city1@example.go.kr" } ?? [:]
    #expect(city1["status"] as? String == "sent")
    let ids = (city1["messageId"] as? String ?? "").split(separator: " ")
    #expect(ids.count == count && ids.allSatisfy { $0.contains("of\(count)@") }, "\(city1)")
    #expect(f.deliveries(json).allSatisfy { $0["status"] as? String == "sent" })
  }

  /// How many parts a part's subject says there are: `… (1/3)` → 3.
  static func parts(_ message: [String: Any]?) -> Int {
    let subject = message?["subject"] as? String ?? ""
    guard let slash = subject.lastIndex(of: "/"), let close = subject.lastIndex(of: ")") else { return 0 }
    return Int(subject[subject.index(after: slash)..<close]) ?? 0
  }
}
