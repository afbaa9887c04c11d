import Foundation
import RaonCore
import RaonDocument
import RaonStore

/// Whether a week's data is new: a run that would report the snapshot an earlier week was
/// already reported from, or data collected longer ago than `max_age`, has nothing new to
/// send — sending it as this week's would repeat last week's news as new.
struct WeeklyFreshness: Equatable {
  /// The snapshot the week would report.
  var snapshot: SnapshotInfo
  /// The Monday of the earlier week that reported it, if one did.
  var reportedWeek: String?
  /// How old the data is at the run, in seconds.
  var age: TimeInterval
  /// `max_age`, in seconds.
  var maxAge: Int

  /// Judges `snapshot` for `week` at `now`.
  static func judge(
    _ snapshot: SnapshotInfo, week: ISOWeek, ledger: RunLedger, now: Date, maxAge: Int
  ) throws -> WeeklyFreshness {
    let earlier = try ledger.reportedEarlier(snapshot: snapshot.id, before: week.start.description)
    return WeeklyFreshness(
      snapshot: snapshot, reportedWeek: earlier?.week, age: now.timeIntervalSince(snapshot.takenAt), maxAge: maxAge)
  }

  var isStale: Bool { reportedWeek != nil || age > TimeInterval(maxAge) }

  /// The day the data was collected, `2025. 8. 18.` (plain spaces, for mail and logs).
  func collectedDay(_ language: ReportLanguage) -> String {
    let day = CalendarDay(koreaDateOf: snapshot.takenAt)
    return OfficialDates.programDates(day, day, language).replacingOccurrences(of: "\u{00A0}", with: " ")
  }

  /// Why, in one line (the ledger's reason, the run's output): `no new download since
  /// 2025. 8. 18. (snapshot 3, reported for the week of 2025-08-18) — nothing sent to the
  /// offices`.
  func reason(sentNotices: Bool = false) -> String {
    let why: String
    if let reportedWeek {
      why = "snapshot \(snapshot.id), already reported for the week of \(reportedWeek)"
    } else {
      why = "snapshot \(snapshot.id), \(Self.days(age)) old, over max_age \(Self.days(TimeInterval(maxAge)))"
    }
    return "no new data since \(collectedDay(.en)) (\(why)) — "
      + (sentNotices ? "the offices got the notice that the data did not change, not a report" : "nothing sent to the offices")
  }

  /// What `week`'s notice to the offices says of this data.
  func noticeFacts(_ week: ISOWeek) -> WeeklyMail.NoticeFacts {
    WeeklyMail.NoticeFacts(
      week: week, collectedAt: snapshot.takenAt,
      reportedWeek: reportedWeek.flatMap(CalendarDay.init(iso:)).map(ISOWeek.init(containing:)))
  }

  /// `9 days`, `36 hours`.
  static func days(_ seconds: TimeInterval) -> String {
    let hours = Int(seconds / 3600)
    if hours >= 48 { return "\(hours / 24) days" }
    return "\(hours) hour\(hours == 1 ? "" : "s")"
  }
}
