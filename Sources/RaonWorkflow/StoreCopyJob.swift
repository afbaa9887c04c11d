import Foundation
import RaonCore
import RaonErrors
import RaonStore

/// Copies a whole history from one store to another (SQLite → PostgreSQL, or back): every
/// snapshot with its id, time, source, counts, input SHA-256, programs and raw records, in
/// one transaction of the target, then checks the copy against the source.
///
/// The target must be empty, so its ids come out as the source's, gaps left by
/// `raon snapshots delete` included (the ids in a gap are never given by the target either).
public struct StoreCopyJob {
  public let source: any SnapshotStoring
  public let target: any SnapshotStoring
  public let environment: RaonEnvironment

  public init(source: any SnapshotStoring, target: any SnapshotStoring, environment: RaonEnvironment) {
    self.source = source
    self.target = target
    self.environment = environment
  }

  /// What was copied and checked.
  public struct Outcome: Sendable, Equatable {
    public var snapshots: Int
    public var programs: Int
    /// SHA-256 over every snapshot's fingerprint, the same read from both stores.
    public var historySHA256: String
  }

  /// Why a copy was not made, or does not match its source.
  public enum Error: RaonError, CustomStringConvertible, Equatable {
    case targetNotEmpty(target: String, count: Int)
    case sameStore(String)
    case mismatch(snapshot: Int64, what: String, target: String)
    /// The target gave a snapshot another id while copying: nothing was committed.
    case idTaken(snapshot: Int64, got: Int64, target: String)
    /// Another copy of this source filled the target while this one waited for its lock:
    /// this one committed nothing; the target holds the other's copy, checked here.
    case anotherCopyWon(target: String, snapshots: Int, historySHA256: String)
    /// Another writer recorded into the target while this copy waited: nothing copied.
    case targetFilledMeanwhile(target: String, count: Int)

    public var description: String {
      switch self {
      case .targetNotEmpty(let target, let count):
        return "the store \(target) already holds \(count) snapshots — copy into an empty store (a new file, or another ?schema=)"
      case .sameStore(let store):
        return "the source and the target are the same store (\(store)) — name two different stores"
      case .mismatch(let snapshot, let what, let target):
        return "the copy in \(target) differs from its source at snapshot \(snapshot) (\(what)) — it was committed; delete it and copy again"
      case .idTaken(let snapshot, let got, let target):
        return "nothing was copied: \(target) would give snapshot \(snapshot) the id \(got) (its ids were used by snapshots since deleted) — copy into a new store"
      case .anotherCopyWon(let target, let snapshots, let sha):
        return "another copy into \(target) finished first, while this one waited for the store: it holds that copy (\(snapshots) snapshots, checked against the source: history SHA-256 \(sha)); this one copied nothing"
      case .targetFilledMeanwhile(let target, let count):
        return "another writer recorded into \(target) while this copy waited for it (it now holds \(count) snapshots); nothing was copied — copy into an empty store"
      }
    }
  }

  /// Copies, then reads both stores back and compares counts and fingerprints.
  ///
  /// - Throws: ``Error``, or either store's ``SnapshotStore/Error``; a failed copy leaves
  ///   the target as it was.
  public func run() throws -> Outcome {
    guard source.location != target.location else { throw Error.sameStore(source.location) }
    let snapshots = try source.snapshots()
    let existing = try target.snapshots()
    guard existing.isEmpty else {
      throw Error.targetNotEmpty(target: target.location, count: existing.count)
    }
    var target = self.target
    target.shrinkGuard = nil  // a history is copied as it is
    do {
      try copy(snapshots, into: target)
    } catch let error as Error {
      // Checked empty above, but another copy (or writer) may have taken the store's lock
      // first: this one then found ids taken and rolled back. Say so, from what the
      // target holds now.
      guard case .idTaken = error else { throw error }
      let now = try target.snapshots()
      guard !now.isEmpty else { throw error }
      guard now == snapshots, let outcome = try? verify(snapshots) else {
        throw Error.targetFilledMeanwhile(target: target.location, count: now.count)
      }
      throw Error.anotherCopyWon(target: target.location, snapshots: outcome.snapshots, historySHA256: outcome.historySHA256)
    }
    return try verify(snapshots)
  }

  /// Records every snapshot into `target`, in one transaction, with its own id.
  private func copy(_ snapshots: [SnapshotInfo], into target: any SnapshotStoring) throws {
    try target.recordingTogether { recorder in
      for info in snapshots {
        environment.progress("copying snapshot \(info.id) of \(snapshots.count) …")
        let details = try source.details(snapshot: info.id)
        let entries = try Self.entries(of: info.id, in: source)
        if let reserving = recorder as? any SnapshotIDReserving {
          try reserving.reserveIDs(below: info.id)
        }
        let copied = try recorder.record(takenAt: info.takenAt, source: info.source) { sink in
          sink.inputSHA256 = details.inputSHA256
          try sink.append(entries)
          return info.sourceTotal
        }
        guard copied.id == info.id else {
          throw Error.idTaken(snapshot: info.id, got: copied.id, target: target.location)
        }
      }
    }
  }

  /// A snapshot's programs with their raw records, in the store's order.
  static func entries(of id: Int64, in store: any SnapshotStoring) throws -> [NewSnapshot.Entry] {
    let programs = try store.programs(inSnapshot: id)
    let raws = try store.rawRecords(inSnapshot: id)
    return zip(programs, raws).map { NewSnapshot.Entry(program: $0, raw: $1.record) }
  }

  /// Reads every snapshot back from both stores and compares them.
  private func verify(_ snapshots: [SnapshotInfo]) throws -> Outcome {
    environment.progress("checking the copy …")
    let copied = try target.snapshots()
    guard copied == snapshots else {
      throw Error.mismatch(
        snapshot: Int64(min(copied.count, snapshots.count)), what: "the list of snapshots differs",
        target: target.location)
    }
    var history = SHA256()
    var programs = 0
    for info in snapshots {
      let a = try Self.fingerprint(info.id, in: source)
      let b = try Self.fingerprint(info.id, in: target)
      guard a.count == b.count else {
        throw Error.mismatch(snapshot: info.id, what: "\(b.count) programs for \(a.count)", target: target.location)
      }
      guard a.sha256 == b.sha256 else {
        throw Error.mismatch(snapshot: info.id, what: "SHA-256 \(b.sha256) for \(a.sha256)", target: target.location)
      }
      guard try source.details(snapshot: info.id).inputSHA256 == target.details(snapshot: info.id).inputSHA256 else {
        throw Error.mismatch(snapshot: info.id, what: "the input's SHA-256", target: target.location)
      }
      history.update(a.sha256)
      programs += a.count
    }
    return Outcome(snapshots: snapshots.count, programs: programs, historySHA256: SHA256.hexString(history.finalize()))
  }

  /// The number of programs of a snapshot and a SHA-256 over every program's columns (`ProgramColumn`, 24)
  /// and its raw record, in the store's order.
  static func fingerprint(_ id: Int64, in store: any SnapshotStoring) throws -> (count: Int, sha256: String) {
    var sha = SHA256()
    let entries = try entries(of: id, in: store)
    for entry in entries {
      for column in ProgramColumn.allCases {
        sha.update(column.text(of: entry.program))
        sha.update("\u{1F}")
      }
      sha.update(RawContent.canonicalText(of: entry.raw))
      sha.update("\u{1E}")
    }
    return (entries.count, SHA256.hexString(sha.finalize()))
  }
}

extension StoreCopyJob.Error {
  public var exitStatus: ExitStatus {
    switch self {
    case .sameStore: .usage  // `store copy A A`: the command was given wrongly
    case .targetNotEmpty, .mismatch, .idTaken, .anotherCopyWon, .targetFilledMeanwhile: .failure
    }
  }
}
