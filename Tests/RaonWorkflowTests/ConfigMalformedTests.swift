import Foundation
import TestSupport
import Testing

@testable import RaonWorkflow

/// Issue 37, major 7 and the config minors: every malformed config is an error naming its
/// line, never a crash (TOMLKit's toml++ aborted on `[` and a newline), and the messages
/// name the right key and line, cap what they echo, and read the file safely.
@Suite struct ConfigMalformedTests {
  /// The line and message of the config error `text` gives, or `nil` when it is accepted.
  /// Anything but a config error is recorded as an issue.
  static func outcome(_ text: String) -> (line: Int, message: String)? {
    do {
      _ = try RaonConfig.parse(text, path: "raon.toml")
      return nil
    } catch let error as WorkflowError {
      guard case .config(let path, let line, let message) = error else {
        Issue.record("\(text.debugDescription): \(error)")
        return nil
      }
      #expect(path == "raon.toml")
      return (line, message)
    } catch {
      Issue.record("\(text.debugDescription): not a WorkflowError: \(error)")
      return nil
    }
  }

  /// Lines as TOML counts them (a line feed ends one; `"\r\n"` is one Character in Swift).
  static func lineCount(_ text: String) -> Int { text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } }

  /// Before: each aborted the process inside toml++ (`[` and a newline was the issue's
  /// exit 134). Now each is "not valid TOML" on its line.
  @Test(arguments: ConfigCorpus.formerAborts)
  func inputsThatAbortedTomlPlusPlusAreErrorsOnTheirLine(text: String) throws {
    let found = try #require(Self.outcome(text), "accepted: \(text.debugDescription)")
    #expect(found.message.hasPrefix("not valid TOML"), "\(found.message)")
    let lines = Self.lineCount(text)
    #expect((1...lines).contains(found.line), "\(text.debugDescription): line \(found.line)")
  }

  /// 6,000 configs a fuzzer's mutations make from valid ones: each is read or refused
  /// with a config error on one line that names a line of the file (a crash fails the
  /// whole run). Deterministic: the same seeds every time.
  @Test func sixThousandMutatedConfigsAreReadOrRefusedOnALine() {
    var refused = 0
    for (index, text) in ConfigCorpus.mutants(count: 6_000, seed: 37).enumerated() {
      guard let (line, message) = Self.outcome(text) else { continue }
      refused += 1
      let lines = Self.lineCount(text)
      #expect((1...lines).contains(line), "#\(index) \(text.debugDescription): line \(line): \(message)")
      #expect(!message.contains("\n") && message.count < 400, "#\(index): \(message)")
    }
    // Most mutants are malformed; the test is about those.
    #expect(refused > 4_000, "only \(refused) refused")
  }

  @Test func theGrammarCheckAcceptsEveryKindOfValidTOML() throws {
    for text in ConfigCorpus.seeds {
      #expect(throws: Never.self, "\(text.debugDescription)") { try TOMLSyntaxCheck.keyLines(text) }
    }
    // Edges TOML 1.0 allows.
    for text in [
      "\u{FEFF}lang = \"ko\"\n", "a = \"\"\"\"\"\"\n", "a = \"\"\"x\"\"\"\"\"\n", "a = '''x'''''\n",
      "a = [\n]\n", "a = [ # c\n 1, # d\n]\n", "\"\" = 1\n", "a = -0\nb = +0.0\nc = 1e-0_1\n",
      "a = 2024-02-29\n", "a = 1979-05-27t07:32:00z\n", "a = {}\n", "[a]\n[a.b]\n[[c]]\n[[c]]\n",
      "a = \"\\\\\\\"\\b\\f\\n\\r\\t\\u00E9\\U0001F600\"\n", "a.\"b.c\".'d' = 1\n", "a = 9_223_372_036_854_775_807\n",
      "a = 0x7FFF_FFFF_FFFF_FFFF\n", "a = \"\"\"\\\n  \\\n  x\"\"\"\n", "a=1\r\nb=2\r\n",
    ] {
      #expect(throws: Never.self, "\(text.debugDescription)") { try TOMLSyntaxCheck.keyLines(text) }
    }
  }

  @Test func theGrammarCheckRefusesWhatTOMLForbids() {
    for text in [
      "a = 2023-02-29\n", "a = 07\n", "a = 1__0\n", "a = 1_\n", "a = .5\n", "a = 1.\n", "a = +0x1\n",
      "a = 0x8000_0000_0000_0000\n", "a = 9223372036854775808\n", "a = \"\\x41\"\n", "a = \"\\uD800\"\n",
      "a = \"b\nc\"\n", "a = 'b\u{7F}'\n", "a = 1 b = 2\n", "a = {b = 1,}\n", "a = {b = 1\n}\n",
      "a = \"\"\"\"\"\"\"\"\"\n", "a = 24:00:00\n", "a = 1979-05-27T07:32\n", "a\rb = 1\n", "# \u{1B}\n",
      "a = tru\n", "[a] b = 1\n", "a = [1 2]\n", "a = \"\"\"\\ x\"\"\"\n",
    ] {
      #expect(throws: TOMLSyntaxCheck.Failure.self, "\(text.debugDescription)") {
        try TOMLSyntaxCheck.keyLines(text)
      }
    }
  }

  /// Found while fuzzing: toml++ frees nested tables recursively, so a dotted key of
  /// 300,000 parts (a 600 KB config) overflowed its stack (SIGSEGV), and the check's own
  /// record of its prefixes took 22 GB first. Keys, and full paths (table, inline tables,
  /// key), have at most 64 parts; deeper nesting of lists and tables is refused as well, at once.
  @Test func deepKeysAndNestingAreRefusedNotFollowed() throws {
    for (text, says) in [
      (Array(repeating: "a", count: 300_000).joined(separator: ".") + " = 1\n", "more than 64 dotted parts"),
      ("[" + Array(repeating: "a", count: 65).joined(separator: ".") + "]\n", "more than 64 dotted parts"),
      ("a = " + String(repeating: "[", count: 100_000) + "\n", "nested more than 64 deep"),
      ("a = " + String(repeating: "[{b=", count: 100_000) + "\n", "nested more than 64 deep"),
      // Inline tables nested outside a list add a part each: their path reaches 65 first.
      ("a = " + String(repeating: "{b=", count: 100_000) + "\n", "full path"),
      // Parts add up across a table, inline tables and a key: 63 inline tables of 64-part
      // keys (an 8 KB line) took 130 MB in the check's own record of prefixes.
      ("x = " + String(repeating: "{" + Self.dotted(64) + " = ", count: 63) + "1" + String(repeating: "}", count: 63) + "\n",
       "full path"),
      ("[" + Self.dotted(40) + "]\n" + Self.dotted(40) + " = 1\n", "full path"),
    ] {
      let started = Date()
      let found = try #require(Self.outcome(text))
      let lastLine = text.filter { $0 == "\n" }.count
      #expect(found.line == lastLine && found.message.contains(says), "\(found.message)")
      #expect(Date().timeIntervalSince(started) < 5)
    }
    // At the limits: read.
    let fine = Array(repeating: "a", count: 64).joined(separator: ".") + " = 1\nx = " + String(repeating: "[", count: 64)
      + String(repeating: "]", count: 64) + "\n"
    #expect(throws: Never.self) { try TOMLSyntaxCheck.keyLines(fine) }
    #expect(throws: Never.self) { try TOMLSyntaxCheck.keyLines("[" + Self.dotted(32) + "]\n" + Self.dotted(32) + " = 1\n") }
  }

  /// `a.a.…` of `parts` parts.
  static func dotted(_ parts: Int) -> String { Array(repeating: "a", count: parts).joined(separator: ".") }

  /// Before: `lang = {a=1}` said "unknown key 'a'" on line 0, `[a.b.c]` "unknown key 'b'" on
  /// line 0, and `csv_headers = {}` was accepted.
  @Test func inlineTablesAndNestedTablesNameTheirKeyAndLine() throws {
    let cases: [(text: String, line: Int, says: String)] = [
      ("# c\nlang = {a=1}\n", 2, "'lang' must be a string"),
      ("lang = \"ko\"\n\n[a.b.c]\nx = 1\n", 3, "[a]"),
      ("csv_headers = {}\n", 1, "'csv_headers' must be a string"),
      ("[report]\nformats = {md = true}\n", 2, "formats"),
      ("[report]\nlang = \"ko\"\nsub.key = 1\n", 3, "[report]"),
      ("# top\na.lang = \"ko\"\nb = 1\n", 3, "unknown key 'b'"),
      ("[ \"report\" ]\nlang = \"fr\"\n", 2, "lang must be"),
      ("formats = [\n  \"md\",\n]\nlang = 3\n", 4, "'lang' must be a string"),
    ]
    for c in cases {
      let found = try #require(Self.outcome(c.text), "accepted: \(c.text.debugDescription)")
      #expect(found.line == c.line, "\(c.text.debugDescription): \(found.message)")
      #expect(found.message.contains(c.says), "\(c.text.debugDescription): \(found.message)")
    }
  }

  /// Before: a 1 MB `lang` was echoed whole in its one-line error.
  @Test func aBadValueIsEchoedInShort() throws {
    let long = String(repeating: "x", count: 1_000_000)
    for text in ["lang = \"\(long)\"\n", "formats = [\"\(long)\"]\n", "csv_encoding = '\(long)'\n"] {
      let found = try #require(Self.outcome(text))
      #expect(found.line == 1)
      #expect(found.message.count < 300, "\(found.message.prefix(300))")
      #expect(found.message.contains("1,000,000 characters"), "\(found.message.prefix(300))")
    }
  }

  /// Before: a config over 1 MB was "cannot read it as UTF-8 text"; a byte that is not
  /// UTF-8 named line 0.
  @Test func aLargeOrNonUTF8FileSaysSoWithItsLine() throws {
    let dir = try Fixtures.temporaryDirectory("raon-config")
    defer { try? FileManager.default.removeItem(at: dir) }
    let environment = RaonEnvironment(variables: [:], workingDirectory: dir)
    func error(_ bytes: Data) -> (Int, String)? {
      try? bytes.write(to: dir.appendingPathComponent("raon.toml"))
      do {
        _ = try RaonConfig.load(explicit: nil, environment: environment)
        return nil
      } catch WorkflowError.config(_, let line, let message) {
        return (line, message)
      } catch {
        return (-1, "\(error)")
      }
    }
    let big = error(Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1))
    #expect(big?.1.contains("larger than 1 MB") == true, "\(String(describing: big))")
    let cp949 = error(Data("lang = \"ko\"\n\n# ".utf8) + Data([0xB0, 0xA1]) + Data("\n".utf8))
    #expect(cp949?.0 == 3 && cp949?.1.contains("not UTF-8") == true, "\(String(describing: cp949))")
  }

  /// Before: opening a FIFO named raon.toml waited forever for a writer. Now a named FIFO
  /// is refused before it is opened; a shell's `--config <(…)` pipe is still read.
  @Test func aNamedFIFOIsRefusedAndAnAnonymousPipeRead() throws {
    let dir = try Fixtures.temporaryDirectory("raon-config-fifo")
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(mkfifo(dir.appendingPathComponent("raon.toml").path, 0o600) == 0)
    #expect(ConfigSource.unreadableKind(path: dir.appendingPathComponent("raon.toml").path) == "a FIFO (named pipe)")
    #expect(ConfigSource.unreadableKind(path: dir.path) == "a folder")
    #expect(ConfigSource.unreadableKind(path: "/dev/null") == nil)
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { close(fds[0]) }
    let text = "lang = \"en\"\n"
    _ = text.withCString { write(fds[1], $0, strlen($0)) }
    close(fds[1])
    let environment = RaonEnvironment(variables: [:], workingDirectory: dir)
    let config = try RaonConfig.load(explicit: "/dev/fd/\(fds[0])", environment: environment)
    #expect(config.lang == .en)
  }
}
