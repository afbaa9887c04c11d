import RaonCore
import RaonDocument
import RaonErrors
/// Errors of `raon weekly` and `raon runs`. Each description is one line: what happened,
/// what was kept, what to do.
public enum WeeklyError: RaonError, CustomStringConvertible, Equatable {
  /// The config has no `[weekly]` section.
  case notConfigured(path: String?)
  /// Another run holds the lock.
  case busy(lock: String, holder: String?)
  /// The lock file cannot be used.
  case lockUnavailable(path: String, reason: String)
  /// `[weekly] lock` names a file that is not a lock Raon made (`found`: what it is).
  case lockRefused(path: String, found: String)
  /// The week had no new data: nothing (or only the notice) went to the offices.
  case stale(String)
  /// The week's deliveries are held for a look (`raon weekly --release` sends them).
  case held(String)
  /// A step of the run failed (`pull`, `record`, `report`, `site`, `deliver`).
  case stepFailed(week: String, step: String, reason: String)
  /// `--week` names a week with no snapshot to report.
  case noSnapshotInWeek(week: String, latestBefore: String?)
  /// The mail settings cannot be used (a missing password, say).
  case mail(String)
  /// The run published its report and site, but left deliveries pending or refused.
  case deliveriesLeft(pending: Int, refused: Int)
  /// `raon runs`: the service looks unwell.
  case unhealthy(String)
  /// `RAON_NOW` is set but is not a time.
  case badClock(String)

  public var description: String {
    switch self {
    case .notConfigured(let path):
      return "\(path ?? "raon.toml") has no [weekly] section — add one (docs/WEEKLY.md shows a whole file), or give --config FILE"
    case .busy(let lock, let holder):
      return "another raon weekly is running (\(holder ?? "its lock is held")) — nothing was done; the lock is \(lock)"
    case .lockUnavailable(let path, let reason):
      return "cannot use the lock file \(path): \(reason) — set [weekly] lock to a path this user may write, or remove it (the store holds the run lock)"
    case .lockRefused(let path, let found):
      return "[weekly] lock = \(path) is \(found), not a lock file Raon made — it was left as it is and nothing was done; remove the line (the store holds the run lock) or name a path of its own"
    case .stale(let reason):
      return "the week was not sent: \(reason); the operators were told — 'raon runs' lists the run as stale"
    case .held(let reason):
      return "the week's report is written but its deliveries are held (\(reason)) — look at it, then 'raon weekly --release' sends exactly those"
    case .stepFailed(let week, let step, let reason):
      // What was kept depends on the step: the site comes after the report, the
      // deliveries after both, and a failed site does not hold the messages back.
      var cause = Substring(reason)
      while cause.last == "." || cause.last == " " { cause.removeLast() }
      let kept =
        switch step {
        case "site": "the report was published and the messages went out all the same; the earlier site was left as it was"
        case "deliver": "the report and site were published; the deliveries stay pending"
        default: "the earlier report and site were left as they were"
        }
      return "the weekly run of \(week) failed at \(step): \(cause) — \(kept); 'raon runs' lists the run"
    case .noSnapshotInWeek(let week, let latestBefore):
      return "no run reported the week \(week) and no snapshot was taken in it"
        + (latestBefore.map { " (the latest before it: \($0))" } ?? "")
        + " — give the Monday of a week with a snapshot"
    case .mail(let message):
      return message
    case .deliveriesLeft(let pending, let refused):
      var parts: [String] = []
      if pending > 0 { parts.append("\(pending) deliver\(pending == 1 ? "y" : "ies") pending") }
      if refused > 0 { parts.append("\(refused) refused") }
      return "the report and site are published but \(parts.joined(separator: " and ")) — "
        + (pending > 0 ? "the next run, or 'raon weekly --deliver-pending', sends what is pending; " : "")
        + "'raon runs' lists them"
    case .unhealthy(let problem):
      return problem
    case .badClock(let text):
      return "RAON_NOW is '\(SafeText.terminalLine(String(text.prefix(60))))', not a time — write it as 2025-08-25T07:00:00+09:00, or unset it (it is for tests)"
    }
  }
}

extension WeeklyError {
  public var exitStatus: ExitStatus {
    switch self {
    case .notConfigured, .mail, .lockRefused: return .config
    case .badClock: return .usage
    case .stale: return .stale
    case .held: return .held
    case .busy: return .busy
    case .deliveriesLeft: return .pending
    case .lockUnavailable, .stepFailed, .noSnapshotInWeek, .unhealthy: return .failure
    }
  }
}
