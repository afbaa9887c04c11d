import Foundation
import RaonErrors
import RaonMail
import Testing

@testable import RaonWorkflow

/// `[mail]` mistakes caught when the config is read (issue 49 items 5 and 6; issue 45's
/// `from` with a display name), and the environment children get (item 7).
@Suite struct MailConfigCheckTests {
  static func mail(_ lines: String) -> String {
    "[mail]\nserver = \"smtp://mail.example.go.kr:587\"\nfrom = \"culture@example.go.kr\"\n" + lines
  }

  static func refusal(_ text: String) -> (line: Int, message: String)? {
    do {
      _ = try RaonConfig.parse(text, path: "raon.toml")
      return nil
    } catch let error as WorkflowError {
      guard case .config(_, let line, let message) = error else { return (-1, "\(error)") }
      #expect(error.exitStatus == .config)
      return (line, message)
    } catch {
      return (-1, "\(error)")
    }
  }

  @Test func aWrongPortIsAConfigErrorOnItsLine() {
    for server in ["smtp://127.0.0.1:99999", "smtp://127.0.0.1:0", "smtps://127.0.0.1:abc", "smtp://127.0.0.1:",
                   "smtp://mail.example:587/evil%0D%0AMAIL", "smtp://-mail.example:587"] {
      let text = "db = \"x.sqlite\"\n\n[mail]\nfrom = \"culture@example.go.kr\"\nserver = \"\(server)\"\n"
      let refused = Self.refusal(text)
      #expect(refused?.line == 5, "\(server): \(String(describing: refused))")
      #expect(refused?.message.contains("smtp://host:587") == true, "\(server): \(String(describing: refused))")
    }
    #expect(Self.refusal(Self.mail("")) == nil)
  }

  @Test func aMalformedAddressIsAConfigErrorOnItsLineSayingWhy() {
    let cases: [(String, Int, String)] = [
      (Self.mail("city = [\"a@-x.kr\"]\n"), 4, "begins or ends with '-'"),
      (Self.mail("city = [\"ok@x.kr\",\n  \".a@x.kr\"]\n"), 4, "begins or ends with '.'"),
      (Self.mail("operator = \"a..b@x.kr\"\n"), 4, "two dots in a row"),
      (Self.mail("city = [\"a@x..kr\"]\n"), 4, "empty label"),
      (Self.mail("\n[mail.districts]\n\"종로구\" = [\"담당@x.kr\"]\n"), 6, "outside ASCII"),
      ("[mail]\nserver = \"smtp://m.example.kr\"\nfrom = \"문화정책과 <culture@-example.go.kr>\"\n", 3, "begins or ends with '-'"),
      ("[mail]\nserver = \"smtp://m.example.kr\"\nfrom = \"문화정책과 <culture@example.go.kr\"\n", 3, "angle brackets"),
      ("[mail]\nserver = \"smtp://m.example.kr\"\nfrom = \"문화\\r\\nBcc: x@y.kr <culture@example.go.kr>\"\n", 3, "control"),
    ]
    for (text, line, why) in cases {
      let refused = Self.refusal(text)
      #expect(refused?.line == line, "\(text.debugDescription): \(String(describing: refused))")
      #expect(refused?.message.contains(why) == true, "\(text.debugDescription): \(String(describing: refused))")
    }
  }

  /// Found by the hostile set: an unknown quoted key `"from "` was reported on the line of
  /// `from`, whose text begins the same way.
  @Test func aQuotedUnknownKeyIsReportedOnItsOwnLine() {
    let refused = Self.refusal(Self.mail("user = \"u\"\n\"from \" = \"x@y.kr\"\n"))
    #expect(refused?.line == 5, "\(String(describing: refused))")
    #expect(refused?.message.contains("unknown key 'from '") == true)
  }

  @Test func aSenderWithADisplayNameIsTaken() throws {
    let config = try RaonConfig.parse(
      "[mail]\nserver = \"smtp://m.example.kr\"\nfrom = \"서울특별시 문화정책과 <culture@example.go.kr>\"\ntimeout = 2\n",
      path: "raon.toml")
    let mail = try #require(config.mail)
    #expect(mail.from.displayName == "서울특별시 문화정책과")
    #expect(mail.from.address.text == "culture@example.go.kr")
    #expect(mail.timeout == 2)
    #expect(Self.refusal(Self.mail("timeout = 0\n"))?.line == 4)
  }

  @Test func childrenGetNoSecret() {
    let environment = [
      "PATH": "/usr/bin", "HOME": "/home/raon", "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": "/run/user/1000",
      "SEOUL_API_KEY": "seoul-key-123456", "DATA_GO_KR_KEY": "national-key-98765", "RAON_SMTP_PASSWORD": "smtp-pw-abcdef",
      "PGPASSWORD": "pg-pw-1234567", "RAON_DB": "postgresql://raon@db/x?password=pg-pw-1234567",
      "GITHUB_TOKEN": "ghp_x", "MY_SECRET": "s", "aws_secret_access_key": "k", "Some_Password_File": "/etc/pw",
      "COPY_OF_IT": "prefix-seoul-key-123456", "SSH_AUTH_SOCK": "/tmp/ssh", "KEYBOARD": "ko", "DISPLAY": ":0",
      // A webhook's URL carries its token.
      "RAON_WEBHOOK_CULTURE": "https://hooks.example/T0/B1/xyzzy",
    ]
    let child = ChildEnvironment.withoutSecrets(environment)
    #expect(Set(child.keys) == ["PATH", "HOME", "LANG", "XDG_RUNTIME_DIR", "SSH_AUTH_SOCK", "KEYBOARD", "DISPLAY"])
  }
}
