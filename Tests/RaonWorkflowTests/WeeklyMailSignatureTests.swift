import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import RaonExport
import RaonMail
import Testing

@testable import RaonWorkflow

/// A weekly message signs with the office of `[document]` (as page 1 names it), then a
/// short note that it comes every week by itself; never with the software's name. Its
/// sentences point into no attachment: its 붙임 are the files it carries.
@Suite struct WeeklyMailSignatureTests {
  static let from = Mailbox("culture@example.go.kr")!
  static let to = MailAddress("city@example.go.kr")!

  static func message(office: [String]?, from: Mailbox = from, language: ReportLanguage = .ko) -> MailMessage {
    var summary = WeeklyMailPartsTests.summary
    summary.office = office
    return WeeklyMail.message(
      summary: summary, subject: "s", to: [to], files: [], messageID: "m@example.go.kr", from: from,
      date: Date(timeIntervalSince1970: 1_755_468_000), language: language)
  }

  @Test func theOfficeSignsTheMessage() {
    let message = Self.message(office: ["문화본부 문화정책과", "담당 주무관 홍길동 (02-2133-0000)"])
    #expect(
      message.text.hasSuffix(
        "\n-- \n문화본부 문화정책과\n담당 주무관 홍길동 (02-2133-0000)\n매주 자동으로 발송되는 메일입니다. 문의: culture@example.go.kr\n"))
    #expect(message.html.contains("문화본부 문화정책과<br>담당 주무관 홍길동 (02-2133-0000)<br>매주 자동으로"))
    for body in [message.text, message.html] { #expect(!body.contains("Raon"), "\(body)") }
  }

  /// Without `[document]`, the sender's display name stands for the office; without one
  /// either, the note alone.
  @Test func withoutAHeadTheSendersNameOrTheNoteAlone() throws {
    let named = try #require(Mailbox("서울특별시 문화정책과 <culture@example.go.kr>"))
    #expect(
      Self.message(office: nil, from: named).text.hasSuffix(
        "\n-- \n서울특별시 문화정책과\n매주 자동으로 발송되는 메일입니다. 문의: culture@example.go.kr\n"))
    #expect(Self.message(office: nil).text.hasSuffix("\n-- \n매주 자동으로 발송되는 메일입니다. 문의: culture@example.go.kr\n"))
    #expect(
      Self.message(office: nil, language: .en).text.hasSuffix(
        "\n-- \nSent automatically every week. Questions: culture@example.go.kr\n"))
  }

  /// A summary the ledger kept before the head existed (no `office` key) reads as before.
  @Test func aSummaryKeptBeforeTheHeadStillReads() throws {
    let old = try JSONEncoder().encode(WeeklyMailPartsTests.summary)
    var object = try #require(try JSONSerialization.jsonObject(with: old) as? [String: Any])
    #expect(object["office"] == nil)
    object.removeValue(forKey: "office")
    let decoded = try JSONDecoder().decode(WeeklySummary.self, from: JSONSerialization.data(withJSONObject: object))
    #expect(decoded.office == nil)
    #expect(decoded.title == WeeklyMailPartsTests.summary.title)
  }

  /// Page 1 as a message says it: the head's lines and sentences without "(붙임 4)".
  @Test func theSummaryCarriesTheOfficeAndNoAttachmentReference() throws {
    let running = (1...3).map {
      Program(
        id: "p\($0)", title: "행사 \($0)", category: "연극", district: "종로구", place: "장소", isFree: true,
        startDate: CalendarDay(iso: "2025-08-01"), endDate: CalendarDay(iso: "2025-09-30"))
    }
    var before = running
    before[0].title = "예전 제목"
    let week = ISOWeek(containing: CalendarDay(iso: "2025-08-18")!)
    let taken = Date(timeIntervalSince1970: 1_755_475_200)  // 2025-08-18 09:00 KST
    let figures = try ReportAssembler.assemble(
      snapshot: SnapshotInfo(id: 2, takenAt: taken, source: "b.csv", programCount: 3), programs: running,
      compareTo: (SnapshotInfo(id: 1, takenAt: taken.addingTimeInterval(-7 * 86_400), source: "a.csv", programCount: 3), before),
      week: week)
    var options = ExportOptions()
    options.head = DocumentHead(department: "문화본부 문화정책과", officer: "주무관 홍길동")
    let summary = PageOneSummary.make(figures, options)
    #expect(summary.office == ["문화본부 문화정책과", "담당 주무관 홍길동"])
    #expect(summary.sentences.last == "지난 수집 이후 내용이 바뀐 행사는 1건입니다.")
    #expect(summary.sentences.allSatisfy { !$0.contains("붙임") })
    #expect(PageOneSummary.make(figures, ExportOptions()).office == nil)
  }
}
