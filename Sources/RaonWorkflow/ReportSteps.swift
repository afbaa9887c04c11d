import Foundation
import RaonCore
import RaonStore

// The values handed from one step of `raon report` to the next (ReportJob.swift).

/// What the checks before recording decided (``ReportJob/checkBeforeRecording(_:)``).
struct ReportPlan: Sendable {
  /// The time of every check and of the snapshots recorded (`--taken-at`, else now).
  var takenAt: Date
  /// `--week`.
  var askedWeek: ISOWeek?
  /// The report's week, when it is fixed before recording: `--week`, the week of the
  /// snapshot being recorded and reported, or of the one chosen among those already stored.
  var week: ISOWeek?
  /// What the report is compared with, when it is chosen before recording (the report is
  /// about the snapshot recorded): `.some(nil)` for nothing.
  var comparison: SnapshotInfo??
}


/// What the recording step recorded.
struct Recorded: Sendable {
  var snapshots: [SnapshotInfo]
  /// `snapshots` is the bundled sample, recorded on an empty store with nothing to record.
  var sample: Bool

  /// The snapshots recorded from the user's input (the sample is none of theirs).
  var yours: [SnapshotInfo] { sample ? [] : snapshots }

  /// `error` of a step after the recording, saying which of the user's snapshots were
  /// recorded all the same (an interruption stays one).
  func saying(_ error: any Error) -> any Error {
    if let workflow = error as? WorkflowError, case .interrupted = workflow { return error }
    let ids = yours.map(\.id)
    guard !ids.isEmpty else { return error }
    return WorkflowError.recordedButNotReported(ids: ids, reason: String(describing: error))
  }
}

/// What a report is about: chosen by ``ReportJob/select(_:plan:recorded:)``.
struct ReportSelection: Sendable {
  var snapshot: SnapshotInfo
  var compareTo: SnapshotInfo?
  var week: ISOWeek
  /// Every snapshot of the store, oldest first (for the trend).
  var snapshots: [SnapshotInfo]
  /// How many ISO weeks the trend shows (0: none).
  var trendWeeks: Int
}

