import Foundation
import RaonCore
import RaonDocument
import RaonMail
import Testing

@testable import RaonWorkflow

/// A list's message over `max_message_bytes` goes as "(1/2)", "(2/2)": every part fits, the
/// files keep their order, and each part's page 1 says where every file is.
@Suite struct WeeklyMailPartsTests {
  static let summary = WeeklySummary(
    language: "ko", title: "서울시 문화행사 주간 현황", period: "2025.\u{00A0}8.\u{00A0}18.(월) ~ 8.\u{00A0}24.(일)",
    dataAsOf: "2025.\u{00A0}8.\u{00A0}18.(월)\u{00A0}07:00 수집 기준", sentencesHeading: "□ 주간 요약",
    sentences: ["이번 주 운영 중인 문화행사는 306건입니다."], headlineHeading: "□ 주요 지표",
    headline: .init(header: ["구분", "이번 주", "전주", "증감"], rows: [["운영 중·예정", "1,234", "1,200", "▲ 34"]]),
    attachmentsHeading: "붙임", sourceLine: "출처: 서울 열린데이터광장")
  static let subject = "[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일)"
  static let id = "raon.20250818.city.0123456789ab@example.go.kr"

  /// Files of these sizes, of bytes base64 cannot shrink below 4 for 3.
  static func files(_ sizes: [(String, Int)]) -> [MailAttachment] {
    var generator = SystemRandomNumberGenerator()
    return sizes.map { name, size in
      MailAttachment(
        fileName: name, contentType: MailAttachment.contentType(forExtension: (name as NSString).pathExtension),
        data: Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }
  }

  static func parts(_ files: [MailAttachment], cap: Int, language: ReportLanguage = .ko) throws -> [WeeklyMail.Part] {
    let from = try #require(Mailbox("culture@example.go.kr"))
    let to = try #require(MailAddress("city@example.go.kr"))
    return try WeeklyMail.parts(
      summary: summary, subject: subject, to: [to], files: files, messageID: id, from: from,
      date: Date(timeIntervalSince1970: 1_755_468_000), language: language, cap: cap)
  }

  @Test func aMessageThatFitsGoesWholeAsItAlwaysDid() throws {
    let files = Self.files([("보고서.pdf", 30_000), ("보고서.xlsx", 20_000)])
    let parts = try Self.parts(files, cap: 10_240_000)
    #expect(parts.count == 1)
    let from = try #require(Mailbox("culture@example.go.kr"))
    let whole = WeeklyMail.message(
      summary: Self.summary, subject: Self.subject, to: parts[0].message.to, files: files, messageID: Self.id, from: from,
      date: Date(timeIntervalSince1970: 1_755_468_000), language: .ko)
    #expect(parts[0].bytes == MIMEWriter.render(whole))
    #expect(parts[0].message.subject == Self.subject)
    #expect(parts[0].message.messageID == Self.id)
  }

  @Test func filesTooBigTogetherGoInPartsThatEachFitInOrder() throws {
    let files = Self.files([("보고서.pdf", 200_000), ("보고서.xlsx", 300_000), ("보고서.json", 40_000)])
    // Base64 makes the workbook alone about 411 KB; with the JSON about 466 KB; all three 740 KB.
    let cap = 500_000
    let parts = try Self.parts(files, cap: cap)
    #expect(parts.count == 2)
    for part in parts { #expect(part.bytes.count <= cap) }
    #expect(parts.map { $0.message.attachments.map(\.fileName) } == [["보고서.pdf"], ["보고서.xlsx", "보고서.json"]])
    #expect(parts.flatMap { $0.message.attachments }.map { $0.data } == files.map { $0.data })
    #expect(parts.map(\.message.subject) == ["\(Self.subject) (1/2)", "\(Self.subject) (2/2)"])
    #expect(
      parts.map(\.message.messageID) == [
        "raon.20250818.city.0123456789ab.p1of2@example.go.kr", "raon.20250818.city.0123456789ab.p2of2@example.go.kr",
      ])
    // Each part's page 1 lists every file with the message that carries it.
    let first = parts[0].message.text
    #expect(first.contains("보고서.pdf (200 KB) — 이 메일"), "\(first)")
    #expect(first.contains("보고서.xlsx (300 KB) — 2/2 메일"), "\(first)")
    #expect(first.contains("메일 용량 제한(500 KB)으로 2통에 나누어 보냅니다. 이 메일은 1/2입니다."), "\(first)")
    #expect(parts[1].message.html.contains("보고서.pdf (200 KB) — 1/2 메일"))
    let english = try Self.parts(files, cap: cap, language: .en)
    #expect(english[1].message.text.contains("Sent as 2 messages for the size limit (500 KB); this is 2/2."))
  }

  @Test func aFileTooBigForAnyMessageStopsWithItsName() throws {
    let files = Self.files([("보고서.pdf", 20_000), ("보고서.xlsx", 400_000)])
    #expect {
      _ = try Self.parts(files, cap: 300_000)
    } throws: { error in
      let text = String(describing: error)
      return text.contains("보고서.xlsx (400 KB) alone makes a message over max_message_bytes (300 KB)")
        && text.contains("nothing was sent")
    }
  }

  /// The dry run's estimate from sizes alone says as many messages as the parts built, given
  /// what the message takes besides its files (the dry run assumes 40 KB, more than page 1 takes).
  @Test(arguments: [
    ([200_000, 300_000, 40_000], 500_000), ([100_000, 100_000], 10_240_000), ([300_000, 300_000, 300_000], 480_000),
    ([100_000, 250_000, 100_000, 100_000], 420_000),
  ])
  func theDryRunsEstimateCountsTheParts(sizes: [Int], cap: Int) throws {
    let files = Self.files(sizes.enumerated().map { ("f\($0.offset).bin", $0.element) })
    let parts = try Self.parts(files, cap: cap)
    let whole = try Self.parts(files, cap: 1_000_000_000)[0].bytes.count
    let overhead = whole - sizes.reduce(0, +) * 4 / 3 * 78 / 76
    #expect(overhead > 0 && overhead < 40_000)
    #expect(WeeklyDryRun.partsEstimate(sizes, cap: cap, overhead: overhead + 200) == parts.count)
  }

  @Test func theDryRunsEstimateSaysNothingFitsWhenOneFileIsTooBig() {
    #expect(WeeklyDryRun.partsEstimate([10_000, 9_000_000], cap: 10_240_000) == nil)
  }
}
