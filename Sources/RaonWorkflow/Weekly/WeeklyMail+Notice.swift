import Foundation
import RaonCore
import RaonDocument
import RaonMail

/// The short notice an office gets instead of a stale week's report (`stale_notice = true`):
/// that the data did not change this week, as an office would write it to another.
extension WeeklyMail {
  /// What the notice says: the week, and the data the offices already have.
  struct NoticeFacts: Equatable {
    var week: ISOWeek
    /// When the latest data was collected.
    var collectedAt: Date
    /// The earlier week reported from it, if one was.
    var reportedWeek: ISOWeek?
  }

  /// `[서울시 문화행사 주간 현황] 2025. 8. 25.(월) ~ 8. 31.(일) 자료 미갱신 안내 — 종로구`.
  static func noticeSubject(week: ISOWeek, list: String, language: ReportLanguage) -> String {
    let L = ReportLabels(language)
    let period = OfficialDates.period(week.start, week.end, language).replacingOccurrences(of: "\u{00A0}", with: " ")
    let what = language == .ko ? "자료 미갱신 안내" : "no new data this week"
    return "[\(L.reportTitle)] \(period) \(what)" + (list == WeeklyList.city ? "" : " — \(list)")
  }

  /// `raon.20250825.city.notice@example.go.kr`: one notice per list and week.
  static func noticeID(week: ISOWeek, list: String, from: Mailbox) -> String {
    messageID(week: week, list: list, documentHash: "notice", resendRun: nil, from: from)
  }

  /// The notice's paragraphs.
  static func noticeBlocks(_ facts: NoticeFacts, language: ReportLanguage) -> [AlertText.Block] {
    let plain = { (text: String) in text.replacingOccurrences(of: "\u{00A0}", with: " ") }
    let period = plain(OfficialDates.period(facts.week.start, facts.week.end, language))
    let collected = plain(OfficialDates.instant(facts.collectedAt, language))
    if language == .en {
      var second = "The latest data was collected \(collected)"
      if let earlier = facts.reportedWeek {
        second += "; its report, for \(plain(OfficialDates.period(earlier.start, earlier.end, .en))), was sent to you already."
      } else {
        second += ", too long ago to report as this week's."
      }
      return [
        .paragraph("Seoul's cultural events data was not updated this week (\(period)), so no weekly report is sent."),
        .paragraph(second),
        .paragraph("The report will be sent again with the first update."),
      ]
    }
    var second = "현재 최신 자료는 \(collected) 기준이며"
    if let earlier = facts.reportedWeek {
      second += ", 이 자료로 작성한 \(plain(OfficialDates.period(earlier.start, earlier.end, .ko))) 주간 현황은 이미 보내 드렸습니다."
    } else {
      second += ", 수집된 지 오래되어 이번 주 현황으로 보내 드리지 않습니다."
    }
    return [
      .paragraph("이번 주(\(period))에는 서울시 문화행사 자료가 새로 갱신되지 않아 주간 현황 보고서를 보내 드리지 않습니다."),
      .paragraph(second),
      .paragraph("자료가 갱신되면 다음 발송 때 새 보고서를 보내 드리겠습니다."),
    ]
  }

  /// The notice to `list`, with the footer every message of Raon's carries.
  static func notice(
    _ facts: NoticeFacts, list: String, to recipients: [MailAddress], from: Mailbox, date: Date,
    language: ReportLanguage
  ) -> MailMessage {
    let body = AlertText(
      subject: noticeSubject(week: facts.week, list: list, language: language),
      blocks: noticeBlocks(facts, language: language) + [.paragraph(footer(language, from: from))])
    return MailMessage(
      from: from, to: recipients, subject: body.subject, date: date,
      messageID: noticeID(week: facts.week, list: list, from: from), text: body.text, html: body.html,
      extraHeaders: [("Auto-Submitted", "auto-generated")])
  }
}
