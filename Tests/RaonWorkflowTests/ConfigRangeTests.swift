import Foundation
import Testing

@testable import RaonWorkflow

/// The config's numbers are range-checked where they are read, and errors name file:line.
@Suite struct ConfigRangeTests {
  /// Item 1: a number Raon would do arithmetic on is refused where it is read, with the
  /// file and line, instead of trapping later in the workbook.
  @Test(arguments: ["9223372036854775807", "-9223372036854775808", "0", "101", "-1", "1e3", "10.5", "\"10\"", "true"])
  func chartTopNOutsideItsRangeIsRefusedWithItsLine(value: String) {
    let text = "# weekly job\nlang = \"ko\"\n\nchart_top_n = \(value)\n"
    #expect {
      try RaonConfig.parse(text, path: "raon.toml")
    } throws: { error in
      guard case .config(let path, let line, let message)? = error as? WorkflowError else { return false }
      return path == "raon.toml" && line == 4 && message.contains("chart_top_n")
    }
  }

  @Test func theRangeIsInclusive() throws {
    #expect(try RaonConfig.parse("chart_top_n = 1", path: "c.toml").chartTopN == 1)
    #expect(try RaonConfig.parse("chart_top_n = 100", path: "c.toml").chartTopN == 100)
  }

  /// Every key's bad value names its own line, in a section or not (TOMLKit gives lines
  /// only for syntax errors; Raon finds the key's line).
  @Test func everyBadValueNamesItsLine() {
    let cases: [(text: String, line: Int, mentions: String)] = [
      ("db = \"x\"\n\n[report]\nlang = \"fr\"\n", 4, "lang"),
      ("csv_encoding = \"latin1\"\n", 1, "csv_encoding"),
      ("\n\nformats = [\"md\", \"docx\"]\n", 3, "docx"),
      ("formats = [\"md\", 3]\n", 1, "formats"),
      ("api_base = \"ftp://x\"\n", 1, "api_base"),
      ("\"db\" = \"\"\n", 1, "db"),
      ("out = \" \"\n", 1, "out"),
      ("db = 3\n", 1, "db"),
      ("lang = \"ko\"\nlang_x = 1\n", 2, "lang_x"),
      ("lang = \"ko\"\n[a]\nlang = \"en\"\n", 3, "twice"),
      ("lang = \"ko\"\nchart_top_n = = 3\n", 2, "TOML"),
      ("lang = \"ko\n", 1, "TOML"),
      ("formats = []\n", 1, "empty"),
      ("lang = \"ko\"\ndb = \"a\\u0000b\"\n", 2, "NUL"),
    ]
    for c in cases {
      var thrown: (any Error)?
      do { _ = try RaonConfig.parse(c.text, path: "c.toml") } catch { thrown = error }
      guard case .config(_, let line, let message)? = thrown as? WorkflowError else {
        Issue.record("\(c.text.debugDescription): expected a config error, got \(String(describing: thrown))")
        continue
      }
      #expect(line == c.line, "\(c.text.debugDescription): \(message)")
      #expect(message.contains(c.mentions), "\(c.text.debugDescription): \(message)")
      #expect(!"\(thrown.map { "\($0)" } ?? "")".contains("\n"))
    }
  }

  @Test func fullTOMLIsRead() throws {
    let text = """
      # TOML that the hand-written subset could not read
      formats = [
        "md",   # the report
        "json",
      ]
      out = \"\"\"reports\"\"\"
      chart_top_n = 1_0
      """
    let config = try RaonConfig.parse(text, path: "raon.toml")
    #expect(config.formats == [.md, .json])
    #expect(config.out == "reports")
    #expect(config.chartTopN == 10)
  }
}
