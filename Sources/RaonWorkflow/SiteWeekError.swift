import RaonCore
import RaonErrors

/// A week of a site whose report could not be written. It names the week and its
/// snapshot, not the hidden folder the week was staged in: a category over 32,767
/// characters failed in the workbook and the message blamed `--out`, naming
/// `.site.raon-partial-PID/weeks/…` (issue 37).
public struct SiteWeekError: RaonError, CustomStringConvertible {
  public var week: ISOWeek
  public var snapshot: Int64
  /// The site's folder (the earlier site there is kept).
  public var site: String
  public var reason: String

  /// The week's failure: `error`'s own words, without the staged path an output error
  /// carries.
  init(week: ISOWeek, snapshot: Int64, site: String, error: any Error) {
    self.week = week
    self.snapshot = snapshot
    self.site = site
    if case .outputNotWritable(_, let reason) = error as? WorkflowError {
      self.reason = reason
    } else {
      self.reason = String(describing: error)
    }
  }

  public var description: String {
    var cause = Substring(reason)
    while cause.last == "." || cause.last == " " { cause.removeLast() }
    return "the site's week \(week) (snapshot \(snapshot)) could not be written: \(cause) — the site at \(site) was left as it was"
  }

  public var exitStatus: ExitStatus { .failure }
}
