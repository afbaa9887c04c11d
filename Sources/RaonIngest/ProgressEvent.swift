/// What the Open API client is doing, for a progress display. Every text in it is
/// already redacted.
public enum ProgressEvent: Sendable, Equatable, CustomStringConvertible {
  /// Page 1 told the total; `pages` requests will fetch it.
  case planned(totalRows: Int, pages: Int, attempt: Int)
  /// A page arrived.
  case pageFetched(pagesDone: Int, pages: Int, rowsFetched: Int, totalRows: Int)
  /// A request failed in a way worth retrying; the next attempt follows after `delay`.
  case retrying(page: String, attempt: Int, of: Int, delay: Duration, problem: String)
  /// The pages disagreed; everything is fetched again.
  case replanning(attempt: Int, of: Int, reason: String)

  public var description: String {
    switch self {
    case .planned(let total, let pages, let attempt):
      let again = attempt > 1 ? " (attempt \(attempt))" : ""
      return "fetching \(total) rows in \(pages) page(s)\(again)"
    case .pageFetched(let done, let pages, let rows, let total):
      return "page \(done)/\(pages), \(rows)/\(total) rows"
    case .retrying(let page, let attempt, let of, let delay, let problem):
      return "\(page): \(problem); retry \(attempt)/\(of) in \(delay)"
    case .replanning(let attempt, let of, let reason):
      return "the catalog changed while paging (\(reason)); fetching again (\(attempt)/\(of))"
    }
  }
}
