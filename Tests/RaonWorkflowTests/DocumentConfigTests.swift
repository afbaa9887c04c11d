import Foundation
import RaonDocument
import RaonErrors
import Testing

@testable import RaonWorkflow

/// `[document]` of `raon.toml` (DESIGN.md, "The fifth round"): the office's department,
/// officer and phone, each optional, every mistake naming its file and line (exit 78).
@Suite struct DocumentConfigTests {
  @Test func theDesignsExampleReadsIntoTheHead() throws {
    let text = """
      lang = "ko"
      [document]                         # the head of every report
      department = "문화본부 문화정책과"
      officer = "주무관 홍길동"
      phone = "02-2133-0000"
      """
    let config = try RaonConfig.parse(text, path: "raon.toml")
    #expect(config.document == DocumentHead(department: "문화본부 문화정책과", officer: "주무관 홍길동", phone: "02-2133-0000"))
    #expect(config.lang == .ko)
  }

  @Test func everyKeyIsOptionalAndNoneIsAnEmptyHead() throws {
    #expect(try RaonConfig.parse("[document]\nphone = \"02-120\"\n", path: "raon.toml").document == DocumentHead(phone: "02-120"))
    #expect(try RaonConfig.parse("[document]\n", path: "raon.toml").document.isEmpty)
    #expect(try RaonConfig.parse("lang = \"en\"\n", path: "raon.toml").document.isEmpty)
    // A dotted key outside the section is the same key.
    #expect(try RaonConfig.parse("document.officer = \"주무관 김\"\n", path: "raon.toml").document.officer == "주무관 김")
  }

  @Test func aBadValueNamesItsLine() throws {
    let long = String(repeating: "가", count: 61)
    let cases: [(text: String, line: Int, mentions: String)] = [
      ("[document]\ndepartment = \"문화정책과\"\nteam = \"x\"\n", 3, "unknown key 'team' in [document]"),
      ("lang = \"ko\"\n[document]\nofficer = 3\n", 3, "'officer' must be a string"),
      ("[document]\nphone = \"  \"\n", 2, "'phone' is empty"),
      ("[document]\nofficer = \"주무관\\n홍길동\"\n", 2, "control character"),
      ("[document]\ndepartment = \"\(long)\"\n", 2, "longer than 60 characters"),
      ("document = \"문화정책과\"\n", 1, "[document] section"),
      ("[document]\nphone = [\"02\"]\n", 2, "'phone' must be a string"),
      ("[document.team]\nname = \"x\"\n", 1, "unknown key 'team' in [document]"),
    ]
    for c in cases {
      do {
        _ = try RaonConfig.parse(c.text, path: "raon.toml")
        Issue.record("accepted: \(c.text.debugDescription)")
      } catch let error as WorkflowError {
        guard case .config(let path, let line, let message) = error else {
          Issue.record("\(c.text.debugDescription): \(error)")
          continue
        }
        #expect(error.exitStatus == .config)
        #expect(path == "raon.toml" && line == c.line, "\(c.text.debugDescription): line \(line), \(message)")
        #expect(message.contains(c.mentions), "\(c.text.debugDescription): \(message)")
      }
    }
  }

  /// The grammar check in front of TOMLKit passes a `[document]` section and still stops
  /// at a malformed one, naming the line.
  @Test func theGrammarCheckStopsAMalformedSection() throws {
    do {
      _ = try RaonConfig.parse("[document]\nofficer = 주무관\n", path: "raon.toml")
      Issue.record("accepted an unquoted value")
    } catch WorkflowError.config(_, let line, let message) {
      #expect(line == 2, "\(message)")
      #expect(message.contains("not valid TOML"), "\(message)")
    }
  }
}
