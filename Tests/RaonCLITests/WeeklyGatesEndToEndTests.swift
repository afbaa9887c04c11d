import Foundation
import TestSupport
import Testing

/// The gates of `raon weekly`, each tripped by a catalog built for it from the sample
/// (``gate_cases.py``, which also computes the figures the gate should find): the report is
/// written, every delivery held, the operators get the figures; `raon runs` says `held` and
/// exits 65; `--release` then sends exactly the held deliveries. `approve = true` holds every
/// week. The real binary, a real SMTP server on 127.0.0.1, on the clock `RAON_NOW` sets.
@Suite(.serialized) struct WeeklyGatesEndToEndTests {
  static var everyone: Set<String> { Set(WeeklyFixture.lists.values.flatMap { $0 }) }

  /// The sample's Monday (2024-09-09) and the next: its programs are current then, so a
  /// quarter fewer is a quarter fewer current programs too (within what a week may lose).
  static func monday(_ n: Int, at clock: String = "07:00") -> String {
    WeeklyFixture.monday(n, at: clock, ofSample: true)
  }

  @Test func aCatalogThatShrankByAQuarterTripsTheSizeGate() async throws {
    try await Self.trip(
      "size", gate: "size_change",
      figure: { e in
        let old = e["old"] as? Int ?? 0
        let new = e["new"] as? Int ?? 0
        return "\(old.formatted()) → \(new.formatted()) (−\(String(format: "%.1f", Double(old - new) / Double(old) * 100))%)"
      },
      value: { e in Double((e["new"] as? Int ?? 0) - (e["old"] as? Int ?? 0)) / Double(e["old"] as? Int ?? 1) },
      keep: "held-gate")
  }

  @Test func aDistrictLeftWithNoProgramsTripsTheEmptiedGate() async throws {
    try await Self.trip(
      "emptied", gate: "emptied",
      figure: { e in (e["emptied"] as? [String: Int] ?? [:]).map { "\($0.key) \($0.value.formatted()) → 0" }.joined(separator: ", ") },
      value: { e in Double((e["emptied"] as? [String: Int] ?? [:]).count) })
  }

  @Test func mostProgramsChangedAtOnceTripTheChangedShareGate() async throws {
    try await Self.trip(
      "changed", gate: "changed_share",
      figure: { e in
        let moved = (e["changed"] as? Int ?? 0) + (e["gone"] as? Int ?? 0)
        let of = e["distinctOld"] as? Int ?? 1
        return "\(of.formatted())건 중 \(moved.formatted())건 (\(Int((Double(moved) / Double(of) * 100).rounded()))%): "
          + "변경 \((e["changed"] as? Int ?? 0).formatted())건, 빠짐 \((e["gone"] as? Int ?? 0).formatted())건"
      },
      value: { e in Double((e["changed"] as? Int ?? 0) + (e["gone"] as? Int ?? 0)) / Double(e["distinctOld"] as? Int ?? 1) })
  }

  /// A new column changes every record too: `changed_share` is turned off here, so that the
  /// columns gate alone holds the week (and the setting is seen to work).
  @Test func aColumnAddedTripsTheColumnsGate() async throws {
    try await Self.trip(
      "columns", gate: "columns", settings: "[weekly.gates]\nchanged_share = \"off\"",
      figure: { e in "추가 " + (e["addedColumns"] as? [String] ?? []).joined(separator: ", ") },
      value: { e in Double((e["addedColumns"] as? [String] ?? []).count + (e["removedColumns"] as? [String] ?? []).count) })
  }

  /// Monday 1 the sample, Monday 2 the case: held, the figures in the alert, the ledger and
  /// the dry run; `--release` sends exactly the held deliveries.
  static func trip(
    _ name: String, gate: String, settings: String = "", figure: ([String: Any]) -> String,
    value: ([String: Any]) -> Double, keep: String? = nil
  ) async throws {
    let f = try await WeeklyFixture.make("gate-\(name)")
    defer { f.stop() }
    try f.useInbox(weekly: settings)
    let built = try f.gateCase(name)
    try f.drop(built.base, at: "2024-09-09T06:52:00+09:00")
    let first = try await f.weekly(at: Self.monday(1))
    #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
    #expect(try f.smtp.messages().count == 5)

    try f.drop(built.case, at: "2024-09-16T06:52:00+09:00")
    let expected = figure(built.expected)
    // The dry run lists every gate with its figure, and says the week would be held.
    let dry = try await f.weekly(["--dry-run"], at: Self.monday(2))
    #expect(dry.status == 0, "\(dry.stdout) \(dry.stderr)")
    for other in ["size_change", "emptied", "changed_share", "columns"] where !(settings.contains("changed_share") && other == "changed_share") {
      #expect(dry.stdout.contains(" \(other): "), "\(other): \(dry.stdout)")
    }
    #expect(dry.stdout.contains("TRIPPED \(gate): \(expected)"), "\(expected) — \(dry.stdout)")
    #expect(dry.stdout.contains("would be held until 'raon weekly --release'"), "\(dry.stdout)")
    #expect(try f.smtp.messages().count == 5, "a dry run sent mail")

    let held = try await f.weekly(at: Self.monday(2))
    #expect(held.status == 65, "\(held.stdout) \(held.stderr)")
    #expect(held.stderr.contains("deliveries are held"), "\(held.stderr)")
    #expect(held.stdout.contains("TRIPPED \(gate): \(expected)"), "\(held.stdout)")
    // The report is written, to look at; nobody on the lists got anything; the site waits.
    #expect(FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("out/2024-W38/report.xlsx").path))
    #expect(held.stdout.contains("site: held with the deliveries"), "\(held.stdout)")
    let received = try f.smtp.messages()
    #expect(received.count == 6)
    let alert = try #require(received.last)
    #expect(WeeklyFixture.recipients(alert) == ["ops@example.go.kr"])
    #expect(alert["subject"] as? String == "[raon weekly] 2024. 9. 16.(월) 주: 점검 1개 항목 기준 초과 — 발송 보류 (raon weekly --release)")
    let text = alert["text"] as? String ?? ""
    #expect(text.contains("각 기관 발송 5건을 보류했습니다"), "\(text)")
    #expect(text.contains("| \(expected) | 초과 |"), "\(expected) — \(text)")
    #expect(text.contains("raon weekly --release (보류된 5건만 보냅니다)"), "\(text)")
    #expect(text.contains("비교: 2024. 9. 9.(월) 06:52 수집 (스냅샷 1) → 2024. 9. 16.(월) 06:52 수집 (스냅샷 2)"), "\(text)")
    if let keep { f.keep(alert, index: received.count, as: keep) }

    let (status, json, stderr) = try await f.runs(at: Self.monday(2, at: "08:00"))
    #expect(status == 65, "\(stderr)")
    #expect(stderr.contains("5 deliveries are held"), "\(stderr)")
    let run = (json["runs"] as? [[String: Any]])?.first ?? [:]
    #expect(run["outcome"] as? String == "held")
    let gates = run["gates"] as? [[String: Any]] ?? []
    let tripped = gates.filter { $0["tripped"] as? Bool == true }.compactMap { $0["gate"] as? String }
    #expect(tripped == [gate], "\(gates)")
    let mine = gates.first { $0["gate"] as? String == gate } ?? [:]
    #expect(abs((mine["value"] as? Double ?? .nan) - value(built.expected)) < 1e-9, "\(mine) vs \(value(built.expected))")
    #expect(mine["figure"] as? String == expected)
    let week = f.deliveries(json).filter { $0["week"] as? String == "2024-09-16" }
    #expect(week.count == 5 && week.allSatisfy { $0["status"] as? String == "held" }, "\(week)")

    // After a look: --release sends exactly the held ones, and the site.
    let release = try await f.weekly(["--release"], at: Self.monday(2, at: "09:00"))
    #expect(release.status == 0, "\(release.stdout) \(release.stderr)")
    #expect(release.stdout.contains("release: 5 held deliveries of 2024-09-16"), "\(release.stdout)")
    let sent = Array(try f.smtp.messages().dropFirst(6))
    #expect(Set(sent.flatMap(WeeklyFixture.recipients)) == everyone)
    #expect(sent.count == 5)
    #expect(sent.allSatisfy { ($0["subject"] as? String)?.contains("2024. 9. 16.(월) ~ 9. 22.(일)") == true })
    let after = try await f.runs(at: Self.monday(2, at: "10:00"))
    #expect(after.status == 0, "\(after.stderr)")
    let done = f.deliveries(after.json).filter { $0["week"] as? String == "2024-09-16" }
    #expect(done.count == 5 && done.allSatisfy { $0["status"] as? String == "sent" && $0["sends"] as? Int == 1 }, "\(done)")
    // Nothing more to release, and the week's run sends nothing twice.
    let again = try await f.weekly(["--release"], at: Self.monday(2, at: "10:30"))
    #expect(again.status == 0 && again.stdout.contains("release: nothing is held"), "\(again.stdout)")
    #expect(try f.smtp.messages().count == 11)
  }

  /// An ordinary week passes every gate; `approve = true` holds it all the same, the first
  /// week too, until `--release`.
  @Test func approveHoldsEveryWeekUntilReleased() async throws {
    let f = try await WeeklyFixture.make("gate-approve")
    defer { f.stop() }
    try f.useInbox(weekly: "approve = true")
    let built = try f.gateCase("minor")
    try f.drop(built.base, at: "2024-09-09T06:52:00+09:00")
    let first = try await f.weekly(at: Self.monday(1))
    #expect(first.status == 65, "\(first.stdout) \(first.stderr)")
    let alert = try #require(try f.smtp.messages().last)
    #expect(try f.smtp.messages().count == 1)
    #expect(alert["subject"] as? String == "[raon weekly] 2024. 9. 9.(월) 주: 보고서 확인 후 발송 승인 필요 (raon weekly --release)")
    let released = try await f.weekly(["--release"], at: Self.monday(1, at: "08:00"))
    #expect(released.status == 0, "\(released.stdout) \(released.stderr)")
    #expect(Set(try f.smtp.messages().dropFirst().flatMap(WeeklyFixture.recipients)) == Self.everyone)

    try f.drop(built.case, at: "2024-09-16T06:52:00+09:00")
    let second = try await f.weekly(at: Self.monday(2))
    #expect(second.status == 65, "\(second.stdout) \(second.stderr)")
    #expect(!second.stdout.contains("TRIPPED"), "\(second.stdout)")
    let text = try #require(try f.smtp.messages().last)["text"] as? String ?? ""
    #expect(text.contains("approve = true 설정에 따라 각 기관 발송 5건을 보류했습니다"), "\(text)")
    #expect(text.contains("| 통과 |") && !text.contains("| 초과 |"), "\(text)")
    // --deliver-pending does not send what is held.
    let pending = try await f.weekly(["--deliver-pending"], at: Self.monday(2, at: "08:00"))
    #expect(pending.status == 0, "\(pending.stdout) \(pending.stderr)")
    #expect(try f.smtp.messages().count == 7)
    let week2 = try await f.weekly(["--release", "--week", "2024-09-16"], at: Self.monday(2, at: "09:00"))
    #expect(week2.status == 0, "\(week2.stdout) \(week2.stderr)")
    #expect(try f.smtp.messages().count == 12)
  }
}
