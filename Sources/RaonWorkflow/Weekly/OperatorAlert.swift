import Foundation
import RaonCore
import RaonDocument
import RaonMail

/// A message the weekly service writes itself: its subject and a body of a few blocks,
/// rendered as plain text and as HTML (inline-free, loading nothing). Pure.
struct AlertText: Equatable {
  enum Block: Equatable {
    case paragraph(String)
    case list([String])
    case table(header: [String], rows: [[String]])
    /// Lines to copy as they are (`raon.toml` lines): indented in the text, `<pre>` in HTML.
    case code([String])
  }

  var subject: String
  var blocks: [Block]

  /// The verdicts of a tripped gate, as the tables write them.
  static let tripped: Set<String> = ["초과", "TRIPPED"]

  var text: String {
    blocks.map { block in
      switch block {
      case .paragraph(let text): return text
      case .list(let items): return items.map { "- " + $0 }.joined(separator: "\n")
      case .code(let lines): return lines.map { "    " + $0 }.joined(separator: "\n")
      case .table(let header, let rows):
        return ([header] + rows).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
      }
    }.joined(separator: "\n\n") + "\n"
  }

  var html: String {
    let e = WeeklyMailBody.escapeHTML
    let body = blocks.map { block in
      switch block {
      case .paragraph(let text): return "<p>\(e(text))</p>"
      case .list(let items): return "<ul>\n" + items.map { "<li>\(e($0))</li>" }.joined(separator: "\n") + "\n</ul>"
      case .code(let lines): return "<pre style=\"white-space:pre-wrap\">" + lines.map(e).joined(separator: "\n") + "</pre>"
      case .table(let header, let rows):
        let cell = "style=\"border:1px solid #999;padding:2px 6px;text-align:left\""
        // A tripped gate's verdict stands out.
        let marked = { (text: String) in
          AlertText.tripped.contains(text) ? "<td \(cell)><strong style=\"color:#b00020\">\(e(text))</strong></td>" : "<td \(cell)>\(e(text))</td>"
        }
        return "<table style=\"border-collapse:collapse\">\n<tr>" + header.map { "<th \(cell)>\(e($0))</th>" }.joined()
          + "</tr>\n" + rows.map { "<tr>" + $0.map(marked).joined() + "</tr>" }.joined(separator: "\n")
          + "\n</table>"
      }
    }
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(e(subject))</title></head>\n<body>\n"
      + body.joined(separator: "\n") + "\n</body></html>\n"
  }
}

/// The operators' mail: a failed run, one that delivered in part, a stale week, a week held
/// by its gates or for approval — what happened, the figures, what to do.
enum OperatorAlert {
  /// `[raon weekly] 2025. 8. 25.(월) 주:` — the prefix a mail filter can count on.
  static func prefix(_ week: ISOWeek, _ language: ReportLanguage) -> String {
    language == .ko
      ? "[raon weekly] \(plain(OfficialDates.day(week.start, .ko))) 주:"
      : "[raon weekly] week of \(plain(OfficialDates.day(week.start, .en))):"
  }

  static func plain(_ text: String) -> String { text.replacingOccurrences(of: "\u{00A0}", with: " ") }

  /// One line, as subject and body.
  static func oneLine(_ line: String) -> AlertText {
    AlertText(subject: line, blocks: [.paragraph(line)])
  }

  /// A stale week: no new data, nothing (or only the notice) sent.
  static func stale(
    _ freshness: WeeklyFreshness, week: ISOWeek, runID: Int64, source: String, notices: Int, language: ReportLanguage
  ) -> AlertText {
    let ko = language == .ko
    let collected = freshness.collectedDay(language)
    let period = plain(OfficialDates.period(week.start, week.end, language))
    let taken = plain(OfficialDates.instant(freshness.snapshot.takenAt, language))
    var facts = [
      ko ? "최근 자료: \(taken) 수집 (스냅샷 \(freshness.snapshot.id))" : "Latest data: collected \(taken) (snapshot \(freshness.snapshot.id))",
      ko ? "자료 출처: \(source)" : "Source: \(source)",
    ]
    if let reported = freshness.reportedWeek.flatMap(CalendarDay.init(iso:)).map(ISOWeek.init(containing:)) {
      let earlier = plain(OfficialDates.period(reported.start, reported.end, language))
      facts.insert(
        ko ? "이 자료의 보고서: \(earlier) 주간으로 이미 작성·발송됨" : "Its report: already written and sent for the week \(earlier)", at: 1)
    }
    if freshness.age > TimeInterval(freshness.maxAge) {
      let age = Int(freshness.age / 86_400)
      let limit = freshness.maxAge % 86_400 == 0 ? "\(freshness.maxAge / 86_400)" : String(format: "%.1f", Double(freshness.maxAge) / 86_400)
      facts.append(ko ? "수집 후 \(age)일 지남 (max_age \(limit)일)" : "Collected \(age) days ago (max_age \(limit) days)")
    }
    facts.append(
      notices > 0
        ? (ko ? "각 기관에는 ‘자료 미갱신 안내’ \(notices)건을 보냈습니다 (stale_notice = true)." : "The offices got \(notices) notice\(notices == 1 ? "" : "s") that the data did not change (stale_notice = true).")
        : (ko ? "각 기관에는 아무것도 보내지 않았습니다." : "Nothing was sent to the offices."))
    let subject =
      ko
      ? "\(prefix(week, language)) \(collected) 이후 새 자료 없음 — 발송하지 않음"
      : "\(prefix(week, language)) no new download since \(collected) — nothing sent"
    return AlertText(
      subject: subject,
      blocks: [
        .paragraph(
          ko
            ? "\(period) 주간 실행(실행 \(runID))에서 새 자료를 찾지 못해 이번 주 보고서를 각 기관에 보내지 않았습니다."
            : "The run for \(period) (run \(runID)) found no new data, so this week's report was not sent to the offices."),
        .list(facts),
        .paragraph(ko ? "할 일:" : "What to do:"),
        .list(
          ko
            ? [
              "새 자료를 내려받아 자료 폴더에 넣거나 Open API를 확인합니다.",
              "raon weekly --dry-run 으로 확인한 뒤 raon weekly 를 실행하면 이번 주 보고서를 보냅니다.",
            ]
            : [
              "Put a new download in the source folder, or check the Open API.",
              "Check with raon weekly --dry-run, then raon weekly sends this week's report.",
            ]),
        .paragraph(
          ko ? "raon runs 에서 이 실행은 stale 로 표시됩니다 (종료 상태 66)." : "raon runs lists this run as stale (exit status 66)."),
      ])
  }

  /// A week whose report is written but whose deliveries are held: by a gate, or by
  /// `approve` (then `gates` may all pass).
  static func held(
    gates: [WeeklyGate], compared: (old: GateFigures.Side, new: GateFigures.Side)?, week: ISOWeek, runID: Int64,
    held: Int, folder: String, approve: Bool, language: ReportLanguage
  ) -> AlertText {
    let ko = language == .ko
    let tripped = gates.filter(\.tripped)
    let period = plain(OfficialDates.period(week.start, week.end, language))
    let subject: String
    let opening: String
    if tripped.isEmpty {
      subject = ko
        ? "\(prefix(week, language)) 보고서 확인 후 발송 승인 필요 (raon weekly --release)"
        : "\(prefix(week, language)) approval needed before sending (raon weekly --release)"
      opening = ko
        ? "\(period) 주간 보고서를 작성했습니다(실행 \(runID)). approve = true 설정에 따라 각 기관 발송 \(held)건을 보류했습니다."
        : "The report for \(period) is written (run \(runID)). With approve = true, its \(held) deliveries are held."
    } else {
      subject = ko
        ? "\(prefix(week, language)) 점검 \(tripped.count)개 항목 기준 초과 — 발송 보류 (raon weekly --release)"
        : "\(prefix(week, language)) \(tripped.count) gate\(tripped.count == 1 ? "" : "s") tripped — deliveries held (raon weekly --release)"
      opening = ko
        ? "\(period) 주간 보고서를 작성했지만(실행 \(runID)) 자료가 평소와 달라 각 기관 발송 \(held)건을 보류했습니다."
        : "The report for \(period) is written (run \(runID)), but the data looks unusual: its \(held) deliveries are held."
    }
    var blocks: [AlertText.Block] = [.paragraph(opening)]
    if let compared {
      func side(_ s: GateFigures.Side) -> String {
        let time = plain(OfficialDates.instant(s.takenAt, language))
        return s.id.map { ko ? "\(time) 수집 (스냅샷 \($0))" : "\(time) (snapshot \($0))" } ?? time
      }
      blocks.append(.paragraph((ko ? "비교: " : "Compared: ") + side(compared.old) + " → " + side(compared.new)))
    }
    if !gates.isEmpty {
      blocks.append(
        .table(
          header: ko ? ["점검 항목", "이번 자료", "판정"] : ["gate", "figure", "verdict"],
          rows: gates.map { [$0.label, $0.figure, $0.tripped ? (ko ? "초과" : "TRIPPED") : (ko ? "통과" : "passes")] }))
    }
    blocks.append(.paragraph(ko ? "할 일:" : "What to do:"))
    blocks.append(
      .list(
        ko
          ? [
            "보고서를 확인합니다: \(folder)",
            "보내도 되면: raon weekly --release (보류된 \(held)건만 보냅니다)",
            tripped.isEmpty
              ? "보내지 않으려면 그대로 둡니다. 보류된 발송은 --release 전에는 나가지 않습니다."
              : "자료가 잘못되었으면: 올바른 자료를 넣고 raon weekly 를 다시 실행합니다. 점검을 통과하면 그때 보냅니다.",
          ]
          : [
            "Look at the report: \(folder)",
            "To send it: raon weekly --release (sends exactly the \(held) held deliveries)",
            tripped.isEmpty
              ? "To send nothing, leave it: held deliveries go only with --release."
              : "If the data is wrong: put the right data in place and run raon weekly again; it sends once the gates pass.",
          ]))
    blocks.append(.paragraph(ko ? "raon runs 에서 이 실행은 held 로 표시됩니다 (종료 상태 65)." : "raon runs lists this run as held (exit status 65)."))
    return AlertText(subject: subject, blocks: blocks)
  }
}
