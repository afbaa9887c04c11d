import Foundation
import RaonMail
import TestSupport
import Testing

/// Issue 49 item 6 (malformed addresses became deliveries) and issue 45's `from` with a
/// display name: the address rules of RFC 5321/5322 and RFC 1035's labels, and a sender's
/// name RFC 2047-encoded in `From:` — read back by Python's `email` package.
@Suite struct AddressRulesTests {
  @Test func labelsAndDotAtomsFollowTheRFCs() {
    for good in [
      "a@x.kr", "a-b@x-y.example.kr", "a.b.c@example.go.kr", "1@2x.kr", "a@xn--3e0b707e.kr", "x@a--b.kr",
      "!#$%&'*+-/=?^_`{|}~@example.org", String(repeating: "a", count: 64) + "@example.org",
      "a@" + String(repeating: "b", count: 63) + ".kr",
    ] {
      #expect(MailAddress(good) != nil, "\(good)")
    }
    let bad: [(String, String)] = [
      ("a@-x.kr", "begins or ends with '-'"), ("a@x-.kr", "begins or ends with '-'"),
      ("a@x.-kr", "begins or ends with '-'"), ("a@x.kr-", "begins or ends with '-'"),
      (".a@x.kr", "begins or ends with '.'"), ("a.@x.kr", "begins or ends with '.'"),
      ("a..b@x.kr", "two dots in a row"), ("a@x..kr", "empty label"), ("a@.x.kr", "empty label"),
      ("a@x.kr.", "empty label"), ("a@x", "has no '.'"), ("a@x_y.kr", "holds '_'"),
      ("a@[127.0.0.1]", "address literal"), ("a@127.0.0.1", "ends in a number"),
      ("a@" + String(repeating: "b", count: 64) + ".kr", "longer than 63"),
      (String(repeating: "a", count: 65) + "@example.org", "longer than 64"),
      ("담당자@example.go.kr", "outside ASCII"), ("a@문화.한국", "xn--"), ("a b@x.kr", "space"),
      ("a@x.kr\r\nDATA", "control"), ("a@b@x.kr", "more than one '@'"), ("ax.kr", "no '@'"),
      ("\"a\"@x.kr", "holds '\"'"), ("a(c)@x.kr", "holds '('"),
    ]
    for (text, why) in bad {
      #expect(MailAddress(text) == nil, "\(text.debugDescription)")
      #expect(MailAddress.problem(in: text)?.contains(why) == true, "\(text.debugDescription): \(MailAddress.problem(in: text) ?? "nil")")
    }
  }

  @Test func aSenderMayHaveADisplayNameButNothingThatBendsAHeader() throws {
    let korean = try #require(Mailbox("서울특별시 문화정책과 <culture@example.go.kr>"))
    #expect(korean.displayName == "서울특별시 문화정책과")
    #expect(korean.address.text == "culture@example.go.kr")
    #expect(korean.description == "서울특별시 문화정책과 <culture@example.go.kr>")
    #expect(Mailbox("culture@example.go.kr")?.displayName == nil)
    #expect(Mailbox("  <culture@example.go.kr>  ")?.displayName == nil)
    #expect(Mailbox("\"Culture, \\\"Seoul\\\"\" <culture@example.go.kr>")?.displayName == "Culture, \"Seoul\"")
    let refused: [(String, String)] = [
      ("문화정책과 <culture@-x.kr>", "begins or ends with '-'"),
      ("문화정책과\r\nBcc: evil@example.org <culture@example.go.kr>", "control"),
      ("문화\u{202E}과 <culture@example.go.kr>", "direction"),
      ("a <b@x.kr> <c@x.kr>", "'<' or '>'"), ("문화정책과 culture@example.go.kr>", "angle brackets"),
      ("문화정책과 <culture@example.go.kr", "angle brackets"),
      (String(repeating: "가", count: 201) + " <culture@example.go.kr>", "longer than 200"),
    ]
    for (text, why) in refused {
      #expect(Mailbox(text) == nil, "\(text.debugDescription)")
      #expect(Mailbox.problem(in: text)?.contains(why) == true, "\(text.debugDescription): \(Mailbox.problem(in: text) ?? "nil")")
    }
  }

  @Test func theFromHeaderCarriesTheNameEncodedAndTheAddressAsItIs() throws {
    let names = [
      "서울특별시 문화정책과", "Culture, Seoul (Dept.)", "\"Quoted\" \\ back",
      String(repeating: "서울특별시 문화본부 문화정책과 ", count: 4) + "끝",
      "Raon", "=?UTF-8?B?not-a-word?=",
      // Found by the fuzz target mail_config: escaped, it made an 83-byte From line.
      String(repeating: "\\", count: 24) + "x\"y\"" + String(repeating: "\\", count: 10),
    ]
    for name in names {
      let from = Mailbox(try #require(MailAddress("culture@example.go.kr")), displayName: name)
      let message = MailMessage(
        from: from, to: [try #require(MailAddress("a@example.go.kr"))], subject: "제목", date: Date(timeIntervalSince1970: 1_755_468_005),
        messageID: "raon.test@example.go.kr", text: "본문\n", html: "<p>본문</p>\n")
      let bytes = MIMEWriter.render(message)
      let parsed = try MIMEWriterTests.parse(bytes)
      #expect(parsed["fromName"] as? String == name, "\(parsed["rawHeaders"] ?? "")")
      #expect(parsed["fromAddress"] as? String == "culture@example.go.kr")
      #expect((parsed["defects"] as? [String])?.isEmpty == true, "\(name): \(parsed["defects"] ?? "")")
      #expect((parsed["longestLine"] as? Int ?? 999) <= 78, "\(name)")
      let head = String(decoding: bytes.prefix(600), as: UTF8.self)
      let ascii = head.unicodeScalars.allSatisfy { $0.isASCII }
      #expect(ascii, "the header is ASCII")
      if name.unicodeScalars.contains(where: { !$0.isASCII }) {
        #expect(head.contains("From: =?UTF-8?B?"), "\(head)")
      }
    }
  }
}
