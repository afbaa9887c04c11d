import Foundation
import RaonAnalytics
import RaonCore
import RaonErrors

/// The national report when its comparison finds renames or mergers the lineage does not
/// know, or keys recorded under another lineage (``LineageFound``): the report is made
/// again over the two snapshots read under the lineage found (``RelinedStore``), so that
/// its keys, counts, packs and names are those the equivalent `raon.toml` lines give. It
/// says so in 자료 정보 (``DocumentOptions/lineage``), in its warnings (the `raon.toml` lines
/// to keep or refuse it), and in ``ReportOutcome/lineage`` for `raon weekly`'s alert.
///
/// The store is not changed: the lineage found holds for this report only. The next
/// week's comparison sees the new names on both sides and counts the same without it; the
/// printed lines make the new names known (a renamed 시·도 named and packed as such) for
/// every later report.
extension ReportJob {
  /// `report()`'s outcome, or when its comparison throws ``LineageFound``, the report made
  /// again under the lineage found (``reportRelined(_:_:selection:recorded:into:)``).
  func relinedIfFound(
    _ request: ReportRequest, selection: ReportSelection, recorded: Recorded, into folder: URL,
    _ report: () throws -> ReportOutcome
  ) throws -> ReportOutcome {
    do {
      return try report()
    } catch let found as LineageFound {
      return try reportRelined(found, request, selection: selection, recorded: recorded, into: folder)
    }
  }

  /// The report of `selection` with both its snapshots read under the lineage `found`,
  /// from the store (a held input too, once recorded).
  func reportRelined(
    _ found: LineageFound, _ request: ReportRequest, selection: ReportSelection, recorded: Recorded, into folder: URL
  ) throws -> ReportOutcome {
    guard let compared = selection.compareTo else { throw found }
    let relined = found.profile(over: profile)
    var job = ReportJob(
      store: try RelinedStore(store, snapshots: [compared.id, selection.snapshot.id], profile: relined),
      storePath: storePath, environment: environment)
    job.reading = reading
    // Once: the lineage found is applied, and what it leaves unknown stays so this week.
    job.reading.checksLineage = false
    job.profile = relined
    let note = found.note
    var request = request
    request.options.lineage = note
    if note != nil { environment.progress("regions renamed or merged found in the data: reporting again under them …") }
    let programs = try job.eventsIfNational(try job.reading.programs(of: selection.snapshot, in: job.store), selection)
    var outcome = try job.report(request, programs: programs, selection: selection, recorded: recorded, into: folder)
    outcome.lineage = note
    if let note {
      outcome.warnings = note.warnings + outcome.warnings
    }
    return outcome
  }
}

/// A held input's comparison found ``LineageFound`` once the input was recorded: the
/// report is made again from the store (``ReportJob/reportRelined(_:_:selection:recorded:into:)``).
/// Caught by the held report itself; never reaches the command line.
struct ReportAgainUnderLineage: RaonError {
  var exitStatus: ExitStatus { .failure }
  var found: LineageFound
  var selection: ReportSelection
}
