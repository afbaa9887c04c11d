import Foundation
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonStore

#if canImport(Glibc)
  import Glibc
#endif

/// `raon runs`: the ledger as a table or JSON, and whether the service is well — what a
/// monitoring system asks: did the last scheduled run succeed, did one run in the last
/// 8 days, is anything left to deliver.
public enum RunsListing {
  /// How long without a scheduled run is too long (a week and a day).
  public static let staleAfter: TimeInterval = 8 * 86_400

  /// What `raon runs` reports.
  public struct Health: Sendable, Equatable {
    /// `nil` when well; else one line saying what is wrong.
    public var problem: String?
    /// The exit status: `nil` (0), `.failure` (the last scheduled run failed, or none ran
    /// lately), `.stale` (it found no new data), `.held` (deliveries wait for `--release`),
    /// `.pending` (deliveries wait for the server).
    public var status: ExitStatus?
  }

  /// Judges the ledger at `now`; `alive` tells whether a process of this machine still runs
  /// (a run still marked `running` whose process is gone was killed).
  public static func health(
    lastScheduled: WeeklyRunRecord?, pending: Int, held: Int = 0, now: Date, host: String,
    alive: (Int) -> Bool = RunsListing.processIsAlive
  ) -> Health {
    guard let last = lastScheduled else {
      return Health(problem: "no scheduled run is recorded — is the timer (or cron line) installed?", status: .failure)
    }
    if now.timeIntervalSince(last.startedAt) > staleAfter {
      return Health(
        problem: "no scheduled run in the last 8 days (the last began \(last.startedAt.koreaDisplay)) — is the timer running?",
        status: .failure)
    }
    switch last.outcome {
    case .failed, .interrupted:
      return Health(
        problem: "the last scheduled run (\(last.id), week \(last.week)) \(last.outcome == .failed ? "failed" : "was interrupted")"
          + (last.failedStep.map { " at \($0)" } ?? "") + (last.reason.map { ": \($0)" } ?? ""),
        status: .failure)
    case .running where last.host == host && !alive(last.pid):
      return Health(
        problem: "the last scheduled run (\(last.id), week \(last.week)) ended without finishing (pid \(last.pid) is gone)",
        status: .failure)
    case .stale:
      return Health(
        problem: "the last scheduled run (\(last.id), week \(last.week)) sent nothing: \(last.reason ?? "no new data")"
          + " — put a new download in place (or check the Open API), then run 'raon weekly'",
        status: .stale)
    case .running, .succeeded, .partial, .held:
      break
    }
    if held > 0 {
      return Health(
        problem: "\(held) deliver\(held == 1 ? "y is" : "ies are") held"
          + (last.outcome == .held ? " by run \(last.id) (\(last.reason ?? "a gate tripped"))" : "")
          + " — look at the report, then 'raon weekly --release' sends them",
        status: .held)
    }
    if pending > 0 {
      return Health(
        problem: "\(pending) deliver\(pending == 1 ? "y is" : "ies are") pending — 'raon weekly --deliver-pending' sends them",
        status: .pending)
    }
    return Health(problem: nil, status: nil)
  }

  public static func processIsAlive(_ pid: Int) -> Bool {
    kill(pid_t(pid), 0) == 0 || errno == EPERM
  }

  /// The runs, newest first, then the deliveries, aligned for a terminal.
  public static func table(_ runs: [WeeklyRunRecord], deliveries: [DeliveryRecord], health: Health) -> String {
    guard !runs.isEmpty else { return "no weekly runs recorded yet — 'raon weekly' runs the first\n" + status(health) }
    let header = ["run", "kind", "week", "started (KST)", "took", "outcome", "snapshot", "sent", "pending", "refused"]
    let rows = runs.map { r -> [String] in
      [
        String(r.id), r.kind.rawValue, r.week, r.startedAt.koreaDisplay, took(r),
        r.outcome.rawValue + (r.failedStep.map { " (\($0))" } ?? ""), r.snapshotID.map(String.init) ?? "–",
        String(r.sent), String(r.pending), String(r.refused),
      ]
    }
    let widths = header.indices.map { c in ([header[c]] + rows.map { $0[c] }).map { DisplayWidth.of($0) }.max() ?? 0 }
    let numeric: Set<Int> = [0, 6, 7, 8, 9]
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { c, text in
        numeric.contains(c) ? DisplayWidth.leftPadded(text, to: widths[c]) : DisplayWidth.padded(text, to: widths[c])
      }.joined(separator: "  ").replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
    }
    var out = line(header) + "\n"
    for (run, row) in zip(runs, rows) {
      out += line(row) + "\n"
      if let reason = run.reason, run.outcome != .succeeded { out += "      └ \(SafeText.terminalLine(reason))\n" }
    }
    if !deliveries.isEmpty {
      for week in Set(deliveries.map(\.week)).sorted().reversed() {
        let these = deliveries.filter { $0.week == week }
        let count = { (s: DeliveryRecord.Status) in these.filter { $0.status == s }.count }
        out += "\ndeliveries of \(week): \(count(.sent)) sent, \(count(.pending)) pending, \(count(.refused)) refused"
          + (count(.held) > 0 ? ", \(count(.held)) held" : "") + "\n"
        for d in these where d.status != .sent {
          out += "  \(d.status.rawValue)  \(d.list)\(d.kind == .notice ? " (notice)" : "")  \(d.recipient)  attempts \(d.attempts)"
            + (d.lastError.map { " — \(SafeText.terminalLine($0))" } ?? "") + "\n"
        }
      }
    }
    return out + "\n" + status(health)
  }

  /// `{"healthy", "problem", "runs": […], "deliveries": […]}`; times in UTC (ISO 8601).
  public static func json(_ runs: [WeeklyRunRecord], deliveries: [DeliveryRecord], health: Health) -> String {
    func time(_ date: Date?) -> JSONValue { date.map { .string($0.iso8601UTC) } ?? .null }
    func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    return JSONValue.object([
      ("healthy", .bool(health.problem == nil)),
      ("problem", text(health.problem)),
      (
        "runs",
        .array(
          runs.map { r in
            .object([
              ("id", .int(Int(r.id))), ("kind", .string(r.kind.rawValue)), ("week", .string(r.week)),
              ("startedAt", time(r.startedAt)), ("endedAt", time(r.endedAt)), ("host", .string(r.host)),
              ("outcome", .string(r.outcome.rawValue)), ("failedStep", text(r.failedStep)), ("reason", text(r.reason)),
              ("snapshotId", .int(r.snapshotID.map { Int($0) })), ("recorded", .bool(r.recorded)),
              ("sent", .int(r.sent)), ("pending", .int(r.pending)), ("refused", .int(r.refused)),
              ("gates", gates(r.gates)),
            ])
          })
      ),
      (
        "deliveries",
        .array(
          deliveries.map { d in
            .object([
              ("week", .string(d.week)), ("list", .string(d.list)), ("recipient", .string(d.recipient)),
              ("kind", .string(d.kind.rawValue)), ("status", .string(d.status.rawValue)), ("attempts", .int(d.attempts)), ("sends", .int(d.sends)),
              ("documentHash", text(d.documentHash)), ("messageId", text(d.messageID)),
              ("lastError", text(d.lastError)), ("sentAt", time(d.sentAt)),
            ])
          })
      ),
    ]).pretty()
  }

  /// A run's gates (`weekly_run.gates`) as JSON: `[{gate, tripped, value, limit, figure, label}]`.
  static func gates(_ stored: String?) -> JSONValue {
    guard let stored, let gates = try? JSONDecoder().decode([WeeklyGate].self, from: Data(stored.utf8)) else { return .null }
    return .array(
      gates.map {
        .object([
          ("gate", .string($0.gate.rawValue)), ("tripped", .bool($0.tripped)), ("value", .number($0.value)),
          ("limit", .number($0.limit)), ("figure", .string($0.figure)), ("label", .string($0.label)),
        ])
      })
  }

  static func status(_ health: Health) -> String {
    "status: " + (health.problem ?? "well — the last scheduled run succeeded and nothing is pending") + "\n"
  }

  /// `2m13s`, `1h05m`, `–` while running.
  static func took(_ run: WeeklyRunRecord) -> String {
    guard let end = run.endedAt else { return "–" }
    let s = max(0, Int(end.timeIntervalSince(run.startedAt).rounded()))
    if s >= 3600 { return "\(s / 3600)h\(String(format: "%02d", s % 3600 / 60))m" }
    if s >= 60 { return "\(s / 60)m\(String(format: "%02d", s % 60))s" }
    return "\(s)s"
  }
}
