import Foundation
import RaonCore
import RaonMail
import TestSupport
import Testing

/// The MIME bytes, read back by an independent parser: Python's `email` package
/// (`raon_testkit.mail`), as a mail client would read them.
@Suite struct MIMEWriterTests {
  static func parse(_ data: Data) throws -> [String: Any] {
    let dir = try Fixtures.temporaryDirectory("raon-mime")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("m.eml")
    try data.write(to: file)
    let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts").path
    let run = try Python.run(["-c", "import sys; sys.path.insert(0, sys.argv[1]); from raon_testkit.mail import main; sys.exit(main(sys.argv[1:]))", scripts, file.path])
    #expect(run.status == 0, "\(run.stderr)")
    return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
  }

  static func address(_ text: String) throws -> MailAddress {
    try #require(MailAddress(text))
  }

  static func sample(subject: String, attachments: [MailAttachment]) throws -> MailMessage {
    MailMessage(
      from: try address("culture@example.go.kr"), to: [try address("a@example.go.kr"), try address("b.c+d@example.org")],
      subject: subject, date: Date(timeIntervalSince1970: 1_755_468_005),  // 2025-08-18 07:00:05 KST
      messageID: "raon.20250818.city.0123456789ab@example.go.kr",
      text: "첫 줄\n둘째 줄 — 한글\n", html: "<p>이번 주 운영 중인 문화행사는 306건</p>\n", attachments: attachments)
  }

  @Test func aKoreanSubjectAndFileNamesComeBackExactlyThroughPythonsParser() throws {
    let pdf = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    let workbook = Data("PK\u{3}\u{4} not really a workbook\r\n\0\u{1}".utf8)
    let longName = "서울시_문화행사_주간현황_2025-08-18_동대문구_붙임자료_아주_긴_이름입니다.pdf"
    let subject = "[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일) — 종로구"
    let message = try Self.sample(
      subject: subject,
      attachments: [
        MailAttachment(fileName: longName, contentType: "application/pdf", data: pdf),
        MailAttachment(fileName: "서울시_문화행사_주간현황_2025-08-18_종로구.xlsx", contentType: MailAttachment.contentType(forExtension: "xlsx"), data: workbook),
      ])
    let parsed = try Self.parse(MIMEWriter.render(message))
    #expect(parsed["subject"] as? String == subject)
    #expect(parsed["to"] as? [String] == ["a@example.go.kr", "b.c+d@example.org"])
    #expect(parsed["from"] as? String == "culture@example.go.kr")
    #expect(parsed["messageId"] as? String == "<raon.20250818.city.0123456789ab@example.go.kr>")
    #expect(parsed["dateParsed"] as? String == "2025-08-18T07:00:05+09:00")
    #expect((parsed["defects"] as? [String])?.isEmpty == true, "\(parsed["defects"] ?? "")")
    #expect((parsed["text"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") == "첫 줄\n둘째 줄 — 한글\n")
    #expect((parsed["html"] as? String)?.contains("306건") == true)
    let files = parsed["attachments"] as? [[String: Any]] ?? []
    #expect(files.map { $0["filename"] as? String } == [longName, "서울시_문화행사_주간현황_2025-08-18_종로구.xlsx"])
    #expect(files.map { $0["size"] as? Int } == [pdf.count, workbook.count])
    #expect(files.first?["sha256"] as? String == Self.hex(pdf))
    #expect(files.last?["sha256"] as? String == Self.hex(workbook))
    #expect(files.first?["contentType"] as? String == "application/pdf")
  }

  @Test func everyLineEndsInCRLFAndNoneIsLongerThan78() throws {
    let message = try Self.sample(
      subject: String(repeating: "가나다라마바사 아자차카타파하 ", count: 8) + "끝",
      attachments: [MailAttachment(fileName: String(repeating: "긴파일이름", count: 20) + ".pdf", contentType: "application/pdf", data: Data(count: 5_000))])
    let bytes = MIMEWriter.render(message)
    let parsed = try Self.parse(bytes)
    #expect(parsed["bareLineFeeds"] as? Int == 0)
    #expect((parsed["longestLine"] as? Int ?? 999) <= 78)
    #expect(parsed["subject"] as? String == message.subject)
  }

  @Test func headersCannotBeBentByLineBreaksInTheSubjectOrAFileName() throws {
    let message = try Self.sample(
      subject: "보고\r\nBcc: evil@example.org",
      attachments: [
        MailAttachment(fileName: "a\r\nX-Evil: 1.pdf", contentType: "application/pdf", data: Data("x".utf8)),
        MailAttachment(fileName: "quote\"d.pdf", contentType: "application/pdf", data: Data("y".utf8)),
      ])
    let parsed = try Self.parse(MIMEWriter.render(message))
    let headers = parsed["rawHeaders"] as? String ?? ""
    #expect(!headers.contains("\r\nBcc:"))
    #expect(!headers.contains("\r\nX-Evil"))
    #expect((parsed["subject"] as? String)?.contains("Bcc: evil@example.org") == true)
    let names = (parsed["attachments"] as? [[String: Any]] ?? []).map { $0["filename"] as? String }
    #expect(names == ["a  X-Evil: 1.pdf", "quote\"d.pdf"])
  }

  @Test func theSameMessageGivesTheSameBytes() throws {
    let message = try Self.sample(subject: "같은 메시지", attachments: [])
    #expect(MIMEWriter.render(message) == MIMEWriter.render(message))
  }

  @Test func addressesAreRefusedWhenAHeaderOrCommandCouldBeBentWithThem() {
    for good in ["a@example.go.kr", "first.last+tag@sub.example.org", "o'brien@example.com"] {
      #expect(MailAddress(good) != nil, "\(good)")
    }
    for bad in [
      "", "a", "a@", "@example.org", "a@b", "a b@example.org", "a@example.org>", "<a@example.org>",
      "a@example.org\r\nRCPT TO:<x@y.z>", "a,b@example.org", "a@@example.org", "한글@example.org", "a@exa mple.org",
      "a@.example.org", "a@example..org", "\"q\"@example.org",
    ] {
      #expect(MailAddress(bad) == nil, "\(bad.debugDescription)")
    }
  }

  static func hex(_ data: Data) -> String {
    var sha = SHA256()
    sha.update(data)
    return SHA256.hexString(sha.finalize())
  }
}
