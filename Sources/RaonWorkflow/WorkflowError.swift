import Foundation
import RaonCore
import RaonErrors
import RaonExport

/// Errors of the jobs themselves (the modules below have their own). Each description is
/// one line that says what went wrong and what to do.
public enum WorkflowError: RaonError, CustomStringConvertible, Equatable {
  case noSnapshots(store: String)
  case unknownSnapshot(id: Int64, store: String)
  case invalidSnapshotReference(String)
  case invalidCompareReference(String)
  case invalidWeek(String)
  case weekBeforeFirstSnapshot(week: String, first: String)
  case compareToSelf(id: Int64)
  case inputNotFound(path: String)
  case outputNotWritable(path: String, reason: String)
  case sampleMissing
  case config(path: String, line: Int, message: String)
  case invalidTakenAt(String)
  /// A format no registry entry names, and the formats there are.
  case unknownFormat(String, known: [String])
  case invalidAPIBase(String)
  case emptyCatalog(source: String)
  /// SIGINT or SIGTERM arrived: what this run staged was removed.
  case interrupted
  /// A path option or setting was given but empty (`--db ""`, often an unset variable).
  case emptyPath(option: String)
  /// A command that only reads found no store at the path (it never creates one).
  case noStore(path: String)
  /// An input path names something other than a regular file (a FIFO, a device, a folder).
  case inputNotAFile(path: String, kind: String)
  // Repairing the history (`raon snapshot`, `raon snapshots delete|show`).
  case sharedTakenAt(count: Int)
  case takenAtCountMismatch(files: Int, times: Int)
  case duplicateTakenAt(first: String, second: String, time: String)
  case noneRecorded(count: Int, reason: String)
  case takenAtInFuture(text: String, now: String)
  case noDateInFileName(path: String)
  case weekBeforeSnapshot(week: String, snapshotWeek: String)
  case unknownDistrict(String, regions: [String], phrase: String, example: String?)
  /// The input was recorded, then the report failed (a full output disk, say).
  case recordedButNotReported(ids: [Int64], reason: String)
  /// A store named by a URL whose scheme is no database Raon knows (`mysql://…`).
  case unknownStoreScheme(String, option: String)
  /// `previous` asked of a store that holds a single snapshot.
  case noPreviousSnapshot(latest: Int64, takenAt: String, store: String)

  public var description: String {
    switch self {
    case .noSnapshots(let store):
      return "the store at \(store) has no snapshots yet — record one with 'raon snapshot FILE' or 'raon snapshot --api'"
    case .unknownSnapshot(let id, let store):
      return "there is no snapshot \(id) in \(store) — 'raon snapshots' lists the ids"
    case .invalidSnapshotReference(let text):
      return "'\(text)' is not a snapshot — give a positive id or 'latest'"
    case .invalidCompareReference(let text):
      return "'\(text)' is not something to compare to — give a snapshot id, 'previous' or 'none'"
    case .invalidWeek(let text):
      return "'\(text)' is not an ISO week — write it as YYYY-Www, e.g. 2024-W37"
    case .weekBeforeFirstSnapshot(let week, let first):
      return "week \(week) ends before the first snapshot (taken \(first)) — choose a later week or record an older catalog with 'raon snapshot --taken-at'"
    case .compareToSelf(let id):
      return "snapshot \(id) cannot be compared with itself — choose another --compare-to"
    case .inputNotFound(let path):
      return "cannot read \(path): no such file — check the path"
    case .outputNotWritable(let path, let reason):
      return "cannot write the report to \(path): \(reason) — choose another --out or fix the permissions; earlier reports were left as they were"
    case .sampleMissing:
      return "the bundled sample catalog is missing from this installation — rebuild Raon, or give --input FILE"
    case .config(let path, let line, let message):
      return "\(path):\(line): \(message) — fix the config file or pass the option on the command line"
    case .invalidTakenAt(let text):
      return "'\(SafeText.excerpt(text))' is not a time — use ISO 8601, e.g. 2024-09-09T09:00:00+09:00 or 2024-09-09"
    case .invalidAPIBase(let text):
      return "'\(SafeText.excerpt(text))' is not an http(s) URL — give --api-base like \(CatalogProfile.seoul.api.defaultBase)"
    case .emptyCatalog(let source):
      return "\(source) holds no programs (only a header) — nothing was recorded; check the file"
    case .interrupted:
      return "interrupted — what this run had staged was removed and nothing was published; run the command again"
    case .emptyPath(let option):
      return "\(option) is empty — give a path (is a variable used for it unset?)"
    case .noStore(let path):
      return "there is no store at \(path) — check --db/RAON_DB, or record a snapshot first with 'raon snapshot FILE'"
    case .inputNotAFile(let path, let kind):
      return "\(path) is \(kind), not a regular file — give a catalog file (CSV or JSON)"
    case .sharedTakenAt(let count):
      return "\(count) files would all be stamped with one time, and the next report would find nothing to compare — give --taken-at once per file, in the same order, or --taken-at-from-name"
    case .takenAtCountMismatch(let files, let times):
      return "\(files) files but \(times) --taken-at values — give --taken-at once per file, in the same order, or --taken-at-from-name"
    case .duplicateTakenAt(let first, let second, let time):
      return "\(first) and \(second) would both be taken at \(time) — give each file its own --taken-at"
    case .noneRecorded(let count, let reason):
      return "\(reason) — none of the \(count) files was recorded"
    case .takenAtInFuture(let text, let now):
      return "--taken-at '\(text)' is more than a day in the future (now is \(now)) — give the time the catalog was downloaded"
    case .noDateInFileName(let path):
      return "\(path): no date (YYYY-MM-DD or YYYYMMDD) in the file name for --taken-at-from-name — rename the file or give --taken-at"
    case .unknownDistrict(let name, let regions, let phrase, let example):
      let romanized = example.map { " (or its romanization, e.g. \($0))" } ?? ""
      return "'\(SafeText.excerpt(name))' is not one of \(phrase) — use one of \(regions.joined(separator: ", "))\(romanized), or --districts all"
    case .weekBeforeSnapshot(let week, let snapshotWeek):
      return "week \(week) ends before the snapshot being reported (week \(snapshotWeek)) — choose \(snapshotWeek) or a later week; nothing was recorded"
    case .recordedButNotReported(let ids, let reason):
      let list = ids.map(String.init).joined(separator: ", ")
      let last = ids.last.map(String.init) ?? "latest"
      var cause = Substring(reason)
      while cause.last == "." || cause.last == " " { cause.removeLast() }
      return "\(cause); the input was recorded all the same as snapshot \(list) — once that is fixed, "
        + "run 'raon report --snapshot \(last)' instead of recording the file again"
    case .unknownStoreScheme(let scheme, let option):
      return "\(option) names a '\(SafeText.excerpt(scheme))://' store, which Raon does not know — give a store as \(StoreAddress.knownSchemes), or a file path"
    case .noPreviousSnapshot(let latest, let takenAt, let store):
      return "there is no previous snapshot yet: the store at \(store) holds only snapshot \(latest) (taken \(takenAt)) — record a later catalog with 'raon snapshot FILE', then compare the two"
    case .unknownFormat(let text, let known):
      return "'\(SafeText.excerpt(text))' is not a report format — use any of \(known.joined(separator: ", ")) (comma-separated)"
    }
  }
}

extension WorkflowError {
  public var exitStatus: ExitStatus {
    switch self {
    case .invalidSnapshotReference, .invalidCompareReference, .invalidWeek, .invalidTakenAt,
      .unknownFormat, .invalidAPIBase, .compareToSelf, .emptyPath, .unknownDistrict,
      .sharedTakenAt, .takenAtCountMismatch, .duplicateTakenAt, .takenAtInFuture,
      .noDateInFileName, .unknownStoreScheme:
      return .usage
    case .config:
      return .config
    case .noSnapshots, .unknownSnapshot, .weekBeforeFirstSnapshot,
      .inputNotFound, .outputNotWritable, .sampleMissing, .emptyCatalog, .interrupted, .noStore,
      .inputNotAFile, .noneRecorded, .weekBeforeSnapshot, .recordedButNotReported, .noPreviousSnapshot:
      return .failure
    }
  }
}
