import Foundation
import TestSupport
import Testing

@testable import RaonWorkflow

/// Config bugs the hostile-case runner found (scripts/hostile/RESULTS.md, findings 8
/// and 9).
@Suite struct ConfigHostileTests {
  static func configError(_ text: String) -> (line: Int, message: String)? {
    do {
      _ = try RaonConfig.parse(text, path: "raon.toml")
      return nil
    } catch {
      guard case .config(_, let line, let message)? = error as? WorkflowError else { return nil }
      return (line, message)
    }
  }

  /// Finding 8: TOMLKit reads C strings, so a NUL byte ended the config there (the lines
  /// after it were never read) and an escaped NUL in a list item passed. Each is refused
  /// with its line.
  @Test func aNULAnywhereIsRefusedWithItsLine() {
    let cases: [(text: String, line: Int)] = [
      ("lang = \"en\"\n\0\nchart_top_n = 999\n", 2),
      ("\0lang = \"ko\"\n", 1),
      ("lang = \"en\"\nformats = [\"json\\u0000\"]\n", 2),
      ("formats = [\n  \"md\",\n  \"json\\U00000000\",\n]\n", 3),
      ("[report]\nout = \"reports\" # \0\n", 2),
    ]
    for c in cases {
      guard let (line, message) = Self.configError(c.text) else {
        Issue.record("\(c.text.debugDescription): accepted")
        continue
      }
      #expect(line == c.line, "\(c.text.debugDescription): \(message)")
      #expect(message.contains("NUL"), "\(c.text.debugDescription): \(message)")
      #expect(!message.contains("\n"))
    }
  }

  /// A comment may still mention the escape.
  @Test func aCommentMayNameTheEscape() throws {
    let config = try RaonConfig.parse("# never write \\u0000 here\nlang = \"en\"\n", path: "raon.toml")
    #expect(config.lang == .en)
  }

  /// Finding 9: `--config /dev/null` was "cannot read it as UTF-8 text" (its size is 0, so
  /// it was never read); it reads as an empty config, like an empty file.
  @Test func devNullReadsAsAnEmptyConfig() throws {
    let environment = RaonEnvironment(variables: [:], workingDirectory: URL(fileURLWithPath: "/"))
    let config = try RaonConfig.load(explicit: "/dev/null", environment: environment)
    var empty = RaonConfig()
    empty.path = "/dev/null"
    #expect(config == empty)
  }
}
