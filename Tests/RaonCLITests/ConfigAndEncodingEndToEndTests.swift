import Foundation
import TestSupport
import Testing

/// Issue 37 with the real binary: malformed configs (major 7 and the config minors) and a
/// catalog in two encodings (a minor).
@Suite(.serialized) struct ConfigAndEncodingEndToEndTests {
  /// Before: `[` and a newline aborted inside toml++ (exit 134, a 62-line crash dump and a
  /// false "interrupted by SIGTERM"). Now: exit 78, one line naming raon.toml:1.
  @Test func aConfigOfOneBracketIsAConfigErrorNotACrash() throws {
    let dir = try Fixtures.temporaryDirectory("raon-config-bracket")
    defer { try? FileManager.default.removeItem(at: dir) }
    for text in ["[\n", "[[[1]]]\n", "db = [0, }\n"] {
      try text.write(to: dir.appendingPathComponent("raon.toml"), atomically: true, encoding: .utf8)
      let run = try RaonProcess.run(["snapshots", "--db", "store.sqlite"], in: dir)
      #expect(run.status == 78, "\(text.debugDescription): exit \(run.status): \(run.stderr.prefix(500))")
      #expect(run.stderr.contains("raon.toml:1: not valid TOML"), "\(run.stderr.prefix(500))")
      #expect(Self.lines(run.stderr) == 1, "\(run.stderr.prefix(500))")
      #expect(!run.stderr.contains("SIGTERM"))
    }
  }

  /// 250 malformed configs through the command (in-process: a trap would end the test
  /// process): each ends with 78 and one line naming raon.toml and a line, or (a mutant
  /// that is still a valid config) as the command would; never a crash.
  @Test func mutatedConfigsEndWithAConfigErrorNeverACrash() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-config-corpus")
    defer { try? FileManager.default.removeItem(at: dir) }
    var configErrors = 0
    for (index, text) in ConfigCorpus.mutants(count: 250, seed: 1_037).enumerated() {
      try Data(text.utf8).write(to: dir.appendingPathComponent("raon.toml"))
      let run = await InProcess.run(["snapshots", "--db", "store.sqlite"], in: dir)
      let what = "#\(index) \(text.debugDescription.prefix(200)): \(run.description.prefix(300))"
      #expect([0, 1, 64, 78].contains(run.status), "\(what)")
      #expect(Self.lines(run.stderr) <= 1, "\(what)")
      if run.status == 78 {
        configErrors += 1
        #expect(run.stderr.range(of: #"raon\.toml:[1-9][0-9]*: "#, options: .regularExpression) != nil, "\(what)")
      }
    }
    #expect(configErrors > 150, "\(configErrors)")
  }

  /// Before: a FIFO named raon.toml hung every command forever.
  @Test func aFIFOAsTheConfigIsRefusedAtOnce() throws {
    let dir = try Fixtures.temporaryDirectory("raon-config-fifo")
    defer { try? FileManager.default.removeItem(at: dir) }
    try #require(mkfifo(dir.appendingPathComponent("raon.toml").path, 0o600) == 0)
    guard let run = try HostileEndToEndTests.run(["snapshots", "--db", "store.sqlite"], in: dir, seconds: 20) else {
      Issue.record("raon waited for a writer of the FIFO")
      return
    }
    #expect(run.status == 78, "\(run.stderr)")
    #expect(run.stderr.contains("FIFO") && Self.lines(run.stderr) == 1, "\(run.stderr)")
  }

  /// Before: `--format` of 100 KB was echoed whole in its one-line error.
  @Test func aLongBadOptionValueIsEchoedInShort() throws {
    let dir = try Fixtures.temporaryDirectory("raon-long-format")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--format", String(repeating: "q", count: 100_000)], in: dir)
    #expect(run.status == 64, "\(run.stderr.prefix(300))")
    #expect(run.stderr.utf8.count < 400, "\(run.stderr.utf8.count) bytes")
    #expect(run.stderr.contains("100,000 characters"), "\(run.stderr.prefix(300))")
  }

  // MARK: - Two encodings in one catalog

  /// Python writes the sample's header (and, with `splitAfterRows`, that many rows) in
  /// `head` and the next rows in `rows` (encodings as Python names them), with a UTF-8
  /// byte-order mark when asked. Returns the file and the line Python expects refused: the
  /// second part's first line, or — UTF-8 rows in a CP949 file — its first line that
  /// Python's own CP949 codec cannot decode (an ASCII-only line reads the same in both).
  static func mixed(_ dir: URL, _ name: String, head: String, rows: String, bom: Bool, splitAfterRows: Int)
    throws -> (URL, Int)
  {
    let out = dir.appendingPathComponent(name)
    let result = try Python.run([
      "-c",
      #"""
      import csv, io, sys
      text = open(sys.argv[1], "rb").read().decode("cp949", errors="replace")
      rows = list(csv.reader(io.StringIO(text, newline="")))
      def enc(rs, e):
          b = io.StringIO(newline="")
          csv.writer(b, lineterminator="\r\n").writerows(rs)
          return b.getvalue().encode(e, errors="replace")
      split = 1 + int(sys.argv[5])
      first = (b"\xef\xbb\xbf" if sys.argv[6] == "bom" else b"") + enc(rows[:split], sys.argv[3])
      second = enc(rows[split:split + 60], sys.argv[4])
      open(sys.argv[2], "wb").write(first + second)
      line = first.count(b"\n") + 1
      if sys.argv[4] == "utf-8":
          for k, l in enumerate(second.split(b"\n")):
              try:
                  l.decode("cp949")
              except UnicodeDecodeError:
                  line += k
                  break
      print(line)
      """#, Fixtures.sampleCSV.path, out.path, head, rows, String(splitAfterRows), bom ? "bom" : "none",
    ])
    try #require(result.status == 0, "\(result.stderr)")
    return (out, try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))))
  }

  /// Before: a UTF-8 byte-order mark and header followed by CP949 rows was recorded with
  /// exit 0 and no warning, every row garbled (district 미상). Now each mix is refused in
  /// one line naming the file and the first line in the other encoding; nothing recorded.
  @Test(arguments: [
    ("bom-utf8-header-cp949-rows.csv", "utf-8", "cp949", true, 0, "CP949"),
    ("utf8-header-cp949-rows.csv", "utf-8", "cp949", false, 0, "CP949"),
    ("bom-utf8-rows-then-cp949.csv", "utf-8", "cp949", true, 40, "CP949"),
    ("cp949-then-utf8-rows.csv", "cp949", "utf-8", false, 30, "UTF-8"),
  ])
  func aCatalogInTwoEncodingsIsRefusedNamingTheLine(
    name: String, head: String, rows: String, bom: Bool, split: Int, lineEncoding: String
  ) throws {
    let dir = try Fixtures.temporaryDirectory("raon-mixed")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (file, line) = try Self.mixed(dir, name, head: head, rows: rows, bom: bom, splitAfterRows: split)
    let run = try RaonProcess.run(
      ["snapshot", file.path, "--db", "store.sqlite", "--taken-at", "2024-09-09"], in: dir)
    #expect(run.status == 1, "\(name): \(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("\(name):\(line): this line is \(lineEncoding)"), "\(line): \(run.stderr)")
    #expect(Self.lines(run.stderr) == 1, "\(run.stderr)")
    if FileManager.default.fileExists(atPath: dir.appendingPathComponent("store.sqlite").path) {
      #expect(try HostileEndToEndTests.snapshotCount(in: dir) == 0)
    }
  }

  /// The bundled sample, CP949 with one invalid byte inside a URL, is still recorded whole.
  @Test func theSampleWithItsOneInvalidByteIsStillRecorded() throws {
    let dir = try Fixtures.temporaryDirectory("raon-sample-byte")
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try RaonProcess.run(
      ["snapshot", Fixtures.sampleCSV.path, "--db", "store.sqlite", "--taken-at", "2024-09-09"], in: dir)
    #expect(run.status == 0 && run.stdout.contains("4998 programs"), "\(run.stdout) \(run.stderr)")
  }

  static func lines(_ text: String) -> Int { FaultsAndOddInputsEndToEndTests.lines(text).count }
}
