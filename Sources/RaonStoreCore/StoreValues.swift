import Foundation
import RaonCore
import RaonErrors

/// What a trend needs of a stored program version: its program's trend columns, and how
/// many times a snapshot holds it.
public struct TrendVersion: Sendable, Hashable {
  /// `program_version.id`.
  public var versionID: Int64
  /// Its program's id (`program_id`), category, district, fee kind and days.
  public var program: TrendProgram
  /// How many times each snapshot of the interval holds this exact record.
  public var copies: Int
}

/// One snapshot of a series, given as the change from the snapshot before it in the
/// series: the versions that enter and the versions that leave.
///
/// Applying every step in order — remove `leaving`, then add `entering` — gives, after
/// step *k*, exactly the versions (with their copies) of the series' *k*-th snapshot.
public struct TrendStep: Sendable {
  public var snapshot: SnapshotInfo
  /// In this snapshot and not in the one before (every version for the first step). A
  /// version whose number of copies differs leaves with the old count and enters with the
  /// new one.
  public var entering: [TrendVersion]
  /// In the snapshot before and not in this one (none for the first step).
  public var leaving: [TrendVersion]
}


/// What deleting a snapshot removes (or would remove).
public struct SnapshotDeletion: Sendable, Equatable {
  public var snapshot: SnapshotInfo
  /// Program versions held by no other snapshot, removed with it.
  public var versionsRemoved: Int
  /// Presence intervals that held only this snapshot, removed.
  public var intervalsRemoved: Int
  /// Presence intervals that began or ended at this snapshot, shortened.
  public var intervalsShortened: Int
  /// Intervals joined across the gap (a version present just before and just after).
  public var intervalsJoined: Int
  /// Field-name lists used by no remaining version, removed.
  public var fieldSetsRemoved: Int
}

/// What the store knows about one snapshot, for `raon snapshots show`.
public struct SnapshotDetails: Sendable, Equatable {
  public var snapshot: SnapshotInfo
  /// SHA-256 (lower-case hex) of the input file, when recorded (schema v3 on, files only).
  public var inputSHA256: String?
  /// Distinct program ids.
  public var distinctPrograms: Int
  /// Distinct versions (contents) held.
  public var versionCount: Int
  /// Versions first seen in this snapshot (new or changed since the one before).
  public var versionsFirstSeen: Int
  /// The snapshot before it (by id), when its content is exactly the same.
  public var unchangedSince: Int64?
  /// The raw records' field-name lists, each with how many programs carry it, most first.
  public var fieldSets: [(names: [String], programs: Int)]

  package init(
    snapshot: SnapshotInfo, inputSHA256: String?, distinctPrograms: Int, versionCount: Int,
    versionsFirstSeen: Int, unchangedSince: Int64?, fieldSets: [(names: [String], programs: Int)]
  ) {
    self.snapshot = snapshot
    self.inputSHA256 = inputSHA256
    self.distinctPrograms = distinctPrograms
    self.versionCount = versionCount
    self.versionsFirstSeen = versionsFirstSeen
    self.unchangedSince = unchangedSince
    self.fieldSets = fieldSets
  }

  public static func == (a: SnapshotDetails, b: SnapshotDetails) -> Bool {
    a.snapshot == b.snapshot && a.inputSHA256 == b.inputSHA256
      && a.distinctPrograms == b.distinctPrograms && a.versionCount == b.versionCount
      && a.versionsFirstSeen == b.versionsFirstSeen && a.unchangedSince == b.unchangedSince
      && a.fieldSets.map(\.names) == b.fieldSets.map(\.names)
      && a.fieldSets.map(\.programs) == b.fieldSets.map(\.programs)
  }
}


/// Refuses a new snapshot that holds far fewer current programs than the latest one: a
/// catalog does not lose a third of its running and upcoming programs in a week, a
/// truncated or filtered download does.
public struct ShrinkGuard: Sendable, Equatable {
  /// The largest share of the latest snapshot's current programs that may go (0.3: 30%).
  public var maxLoss: Double

  public init(maxLoss: Double = 0.3) {
    self.maxLoss = maxLoss
  }

  /// The default: more than 30% fewer current programs is refused.
  public static let standard = ShrinkGuard()

  package func check(
    source: String, previousID: Int64, previousCurrent: Int, newCurrent: Int, monday: CalendarDay
  ) throws {
    guard previousCurrent > 0 else { return }
    let lost = previousCurrent - newCurrent
    guard Double(lost) > maxLoss * Double(previousCurrent) else { return }
    throw ShrinkRefused(
      source: source, previousID: previousID, previousCurrent: previousCurrent,
      newCurrent: newCurrent, maxLoss: maxLoss, monday: monday)
  }
}

/// A new snapshot was refused by the ``ShrinkGuard``; nothing was recorded.
public struct ShrinkRefused: RaonError, CustomStringConvertible, Equatable {
  public var source: String
  public var previousID: Int64
  public var previousCurrent: Int
  public var newCurrent: Int
  public var maxLoss: Double
  /// The Monday from which a program counts as current.
  public var monday: CalendarDay

  public var description: String {
    let percent = Int((Double(previousCurrent - newCurrent) / Double(previousCurrent) * 100).rounded())
    return "\(source) holds \(newCurrent) current programs (ending on or after \(monday)) where "
      + "the latest snapshot \(previousID) holds \(previousCurrent): \(percent)% fewer, more than "
      + "the \(Int((maxLoss * 100).rounded()))% a week can lose — nothing was recorded; is the "
      + "download complete? Give --allow-shrink to record it anyway"
  }
}

/// A version in a snapshot, with how many times it is there.
package struct PresentVersion {
  package var id: Int64
  package var version: ProgramVersion
  package var copies: Int
}

extension ShrinkRefused {
  public var exitStatus: ExitStatus { .failure }
}
