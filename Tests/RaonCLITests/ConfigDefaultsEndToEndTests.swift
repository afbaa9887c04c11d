import Foundation
import TestSupport
import Testing

/// The config file's `lang`, `csv_encoding` and `csv_headers` are defaults for every command
/// that writes files, not only `raon report`; an option on the command line wins over them.
/// Each run with a config is compared with the same run given the options on the command
/// line instead, and with the run given neither.
@Suite(.serialized) struct ConfigDefaultsEndToEndTests {
  static let env = ["RAON_DB": "store.sqlite"]

  /// A store with the sample (2024-09-09) and a modified copy (2024-09-16).
  static func history() throws -> URL {
    let dir = try Fixtures.temporaryDirectory("raon-config-defaults")
    let modified = dir.appendingPathComponent("modified.csv")
    let make = try Python.run([
      Fixtures.repositoryRoot.appendingPathComponent("scripts/make_modified_sample.py").path,
      Fixtures.sampleCSV.path, modified.path,
    ])
    #expect(make.status == 0, "\(make.stderr)")
    let recorded = try RaonProcess.run(
      [
        "snapshot", Fixtures.sampleCSV.path, modified.path, "--taken-at", "2024-09-09",
        "--taken-at", "2024-09-16",
      ], in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    return dir
  }

  /// Runs `arguments --out OUT` in `dir`, with `config` as `raon.toml` (none when `nil`),
  /// and returns every file written, by its path under OUT.
  static func written(
    _ arguments: [String], config: String?, out: String, in dir: URL
  ) throws -> [String: Data] {
    let configFile = dir.appendingPathComponent("raon.toml")
    try? FileManager.default.removeItem(at: configFile)
    if let config { try Data(config.utf8).write(to: configFile) }
    defer { try? FileManager.default.removeItem(at: configFile) }
    let run = try RaonProcess.run(arguments + ["--out", out], in: dir, environment: env)
    #expect(run.status == 0, "\(arguments): \(run.stderr)")
    let folder = dir.appendingPathComponent(out)
    var files: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
      let url = folder.appendingPathComponent(path)
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
        files[path] = try Data(contentsOf: url)
      }
    }
    return files
  }

  @Test(arguments: [
    ["diff", "1", "2", "--format", "md,csv"],
    ["trend", "--format", "md,csv"],
  ])
  func diffAndTrendTakeLanguageAndCSVEncodingFromTheConfig(command: [String]) throws {
    let dir = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let config = "lang = \"en\"\ncsv_encoding = \"cp949\"\n"
    let fromConfig = try Self.written(command, config: config, out: "config", in: dir)
    let fromOptions = try Self.written(
      command + ["--lang", "en", "--csv-encoding", "cp949"], config: nil, out: "options", in: dir)
    let neither = try Self.written(command, config: nil, out: "neither", in: dir)
    let overridden = try Self.written(
      command + ["--lang", "ko", "--csv-encoding", "utf8-bom"], config: config, out: "overridden", in: dir)
    #expect(!fromConfig.isEmpty)
    #expect(fromConfig == fromOptions, "\(command): the config's lang and csv_encoding were not used")
    #expect(overridden == neither, "\(command): the command line did not win over the config")
    // The two settings change both kinds of file, so the comparisons above say something.
    let markdown = try #require(neither.keys.first { $0.hasSuffix(".md") })
    let csv = try #require(neither.keys.first { $0.hasSuffix(".csv") })
    #expect(fromOptions[markdown] != neither[markdown])
    #expect(fromOptions[csv] != neither[csv])
  }

  /// `csv_headers = "ko"` gives `raon diff`'s changes.csv Korean header rows, as it does the
  /// report's, and `--csv-headers` names them on the command line.
  @Test func diffTakesCSVHeadersFromTheConfigOrTheCommandLine() throws {
    let dir = try Self.history()
    defer { try? FileManager.default.removeItem(at: dir) }
    let command = ["diff", "1", "2", "--format", "csv"]
    let fromConfig = try Self.written(command, config: "csv_headers = \"ko\"\n", out: "config", in: dir)
    let fromOption = try Self.written(command + ["--csv-headers", "ko"], config: nil, out: "option", in: dir)
    let neither = try Self.written(command, config: nil, out: "neither", in: dir)
    let file = "csv/changes.csv"
    #expect(fromConfig[file] != nil)
    #expect(fromConfig[file] == fromOption[file])
    let korean = String(decoding: fromOption[file] ?? Data(), as: UTF8.self)
    let english = String(decoding: neither[file] ?? Data(), as: UTF8.self)
    #expect(korean.split(separator: "\n").first != english.split(separator: "\n").first)
    #expect(korean.split(separator: "\n").dropFirst() == english.split(separator: "\n").dropFirst())
  }
}
