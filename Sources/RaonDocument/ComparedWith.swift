import RaonAnalytics
import RaonCore

/// What a report's figures are compared with, as its words name it: 전주 (last week) only
/// when the compared collection belongs to the ISO week before the report's week;
/// otherwise the compared collection's day (`비교 시점 2025. 3. 31.(월)`), so a report
/// against a collection 65 weeks older never calls it last week.
public enum ComparedWith: Sendable, Hashable {
  /// The compared collection is of the week before the report's.
  case previousWeek
  /// The compared collection is of another week: its day (in Korea).
  case collection(CalendarDay)

  /// What a report of `week` compared with `snapshot` says.
  public static func of(_ snapshot: SnapshotInfo, reportWeek week: ISOWeek) -> ComparedWith {
    let day = snapshot.koreaDay
    return ISOWeek(containing: day) == ISOWeek(containing: week.start.adding(days: -7)) ? .previousWeek : .collection(day)
  }

  /// The report's comparison, or `nil` when it has none.
  public static func of(_ r: ReportData) -> ComparedWith? {
    r.compareTo.map { of($0, reportWeek: r.week) }
  }
}

/// The words of a comparison (page 1's sentences and headline, the workbook's 요약).
extension ReportLabels {
  /// `전주` / `last week`; `비교 시점 2025. 3. 31.(월)` / `on Mon 31 Mar 2025`.
  public func compared(_ c: ComparedWith) -> String {
    switch c {
    case .previousWeek: return say("전주", "last week")
    case .collection(let day): return say("비교 시점 \(officialDay(day))", "on \(officialDay(day))")
    }
  }

  /// The headline table's column of the compared figures: `전주` / `Last week`, or
  /// `비교 시점 2025. 3. 31.(월)` / `As of Mon 31 Mar 2025`.
  public func comparedHeader(_ c: ComparedWith) -> String {
    switch c {
    case .previousWeek: return lastWeek
    case .collection(let day): return say("비교 시점 \(officialDay(day))", "As of \(officialDay(day))")
    }
  }

  /// A compared count in a sentence: `전주(314건)`, `비교 시점 2025. 3. 31.(월)의 314건`.
  func comparedCount(_ c: ComparedWith, _ count: String) -> String {
    switch c {
    case .previousWeek: return "\(compared(c))(\(count))"
    case .collection: return "\(compared(c))의 \(count)"
    }
  }
}
