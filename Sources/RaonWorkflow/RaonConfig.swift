import Foundation
import RaonCore
import RaonPostgres
import RaonDocument
import RaonExport
import TOMLKit

/// Defaults for the weekly job, read from `raon.toml` in the working directory or the file
/// given with `--config`. Command-line options override them.
///
/// ```toml
/// # raon.toml
/// db = "/var/lib/raon/raon.sqlite"
/// formats = ["md", "xlsx", "csv", "json"]
/// out = "reports"            # a parent folder: each report goes to out/<YYYY-Www>/
/// lang = "ko"
/// api_base = "http://openapi.seoul.go.kr:8088"
/// csv_encoding = "utf8-bom"
/// csv_headers = "en"         # or "ko": Korean CSV header rows
/// chart_top_n = 10
///
/// [document]                 # the head of every report: page 1, the workbook's 요약, the mail's signature
/// department = "문화본부 문화정책과"
/// officer = "주무관 홍길동"
/// phone = "02-2133-0000"
/// ```
///
/// Every value is checked and typed when the file is read, so a bad one is a config error
/// (exit 78, naming the file, line and key) and the commands merge typed values only.
public struct RaonConfig: Sendable, Equatable {
  public var db: String?
  public var formats: [ReportFormat]?
  /// A parent folder; each report is written to `<out>/<YYYY-Www>/`.
  public var out: String?
  public var lang: ReportLanguage?
  public var apiBase: String?
  public var csvEncoding: CSVEncoding?
  public var csvHeaders: CSVHeaders?
  public var chartTopN: Int?
  /// The `[national]` section (NationalConfig.swift).
  public var national = NationalConfig()
  /// `[weekly]` and `[mail]`: the weekly service's sections (RaonConfig+Weekly.swift).
  public var weekly: WeeklySettings?
  public var mail: MailSettings?
  /// The recipients of the channels configured by sections of their own (`[webhook.NAME]`:
  /// ``WebhookSettings``), every kind of the registry the file was read with.
  var channels = ConfiguredChannels()
  /// `[document]`: the office that sends the reports (RaonConfig+Weekly.swift); empty when unset.
  public var document = DocumentHead()
  /// Where it was read from, for messages.
  public var path: String?

  public init() {}

  public static let fileName = "raon.toml"

  /// The config given explicitly, else `raon.toml` in the working directory, else empty.
  public static func load(explicit: String?, environment: RaonEnvironment) throws -> RaonConfig {
    let url: URL
    if let explicit {
      url = environment.url(forPath: explicit)
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw WorkflowError.config(path: explicit, line: 0, message: "no such config file")
      }
    } else {
      url = environment.workingDirectory.appendingPathComponent(fileName)
      guard FileManager.default.fileExists(atPath: url.path) else { return RaonConfig() }
    }
    let data = try readBytes(url.path)
    guard let text = String(validating: data, as: UTF8.self) else {
      throw WorkflowError.config(
        path: url.path, line: ConfigSource.firstLineNotUTF8(data),
        message: "this line is not UTF-8 text — save the config as UTF-8")
    }
    return try parse(text, path: url.path)
  }

  /// A config larger than this is not one.
  static let maximumBytes = 1 << 20

  /// The file's bytes, read to its end rather than by its size, so `/dev/null` reads as
  /// empty and `--config <(…)` works.
  ///
  /// - Throws: A config error when the path names a folder, a socket or a FIFO (opening a
  ///   FIFO no one writes to waits forever), when it cannot be read, or when it holds more
  ///   than ``maximumBytes``.
  private static func readBytes(_ path: String) throws -> Data {
    func refuse(_ message: String) -> WorkflowError { .config(path: path, line: 0, message: message) }
    if let kind = ConfigSource.unreadableKind(path: path) {
      throw refuse("it is \(kind), not a config file — give the path of a file")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw refuse("cannot be opened for reading — check its permissions")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      // `nil` at once is the end of the file: an empty config.
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw refuse("cannot be read (\(error.localizedDescription))")
    }
    guard data.count <= maximumBytes else {
      throw refuse("it is larger than \(maximumBytes >> 20) MB, which no config is — is this the right file?")
    }
    return data
  }

  /// The range `chart_top_n` must fall in: a chart of more than 100 bars is unreadable,
  /// and a bound keeps every sum made from it far from overflow.
  public static let chartTopNRange = 1...100

  /// The keys a config may hold.
  public static let knownKeys = [
    "db", "formats", "out", "lang", "api_base", "csv_encoding", "csv_headers", "chart_top_n",
  ]

  /// Parses the config text (TOML 1.0 through TOMLKit). Keys may stand at the top or inside
  /// `[sections]`, which are read as if they were not there. Every mistake names the file
  /// and the line of the key it is about. `formats` are the `registry`'s; the sections of
  /// delivery channels, `channels`'.
  public static func parse(_ text: String, path: String, registry: FormatRegistry = .standard) throws -> RaonConfig {
    try parse(text, path: path, registry: registry, channels: .shipped)
  }

  static func parse(_ text: String, path: String, registry: FormatRegistry, channels: ChannelRegistry) throws -> RaonConfig {
    var config = RaonConfig()
    config.path = path
    let lines = ConfigLines(text)
    // TOMLKit reads C strings: a NUL byte would silently end the file there, and an
    // escaped one (`\u0000`) would cut a value or a list item.
    if let line = lines.firstLineHoldingNUL() {
      throw WorkflowError.config(path: path, line: line, message: "holds a NUL character (a byte or \\u0000)")
    }
    // TOMLKit (toml++) sees only text that passed the grammar check: it aborts on some
    // malformed input (``TOMLSyntaxCheck``). The check also gives every key's line, which
    // TOMLKit does not.
    let keyLines: [[String]: Int]
    do {
      keyLines = try TOMLSyntaxCheck.keyLines(text)
    } catch let failure as TOMLSyntaxCheck.Failure {
      throw WorkflowError.config(
        path: path, line: failure.line, message: "not valid TOML: \(failure.message) (column \(failure.column))")
    }
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw WorkflowError.config(
        path: path, line: error.source.begin.line,
        message: "not valid TOML: \(ConfigLines.oneLine(error.description))")
    } catch {
      throw WorkflowError.config(path: path, line: 0, message: "not valid TOML")
    }
    config.national = try NationalConfig.parse(table[Self.nationalSection]?.table, lines: lines, path: path)
    try parseServiceSections(table, lines: lines, path: path, channels: channels, into: &config)
    var seen: Set<String> = []
    // In the order they are written (TOMLKit gives keys sorted), so "given twice" names
    // the second one.
    let located = try entries(of: table, keyLines: keyLines, path: path, skipping: serviceSections(channels)).sorted { $0.line < $1.line }
    for (key, value, line) in located {
      func fail(_ message: String) -> WorkflowError {
        WorkflowError.config(path: path, line: line, message: message)
      }
      guard seen.insert(key).inserted else { throw fail("'\(SafeText.excerpt(key))' is given twice") }
      func string() throws -> String {
        guard let s = value.string else { throw fail("'\(key)' must be a string, like \(key) = \"…\"") }
        return s
      }
      func nonEmptyPath() throws -> String {
        let s = try string()
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw fail("'\(key)' is empty — give a path, or remove the line")
        }
        return s
      }
      /// One of the type's values, by name: `lang must be "ko" or "en", not 'fr'`.
      func choice<Value: RawRepresentable & CaseIterable>(_: Value.Type) throws -> Value
      where Value.RawValue == String {
        let s = try string()
        guard let value = Value(rawValue: s) else {
          let names = Value.allCases.map { "\"\($0.rawValue)\"" }
          let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
          throw fail("\(key) must be \(list), not '\(SafeText.excerpt(s))'")
        }
        return value
      }
      switch key {
      case "db":
        let db = try nonEmptyPath()
        if PostgresAddress.isPostgresURL(db) {
          // A bad URL names its line now, not later; the message never holds the password.
          do {
            _ = try PostgresAddress(url: db, environment: [:])
          } catch let error as PostgresAddressError {
            throw fail("db = \(error.url): \(error.problem)")
          }
        } else if let scheme = StoreAddress.unknownScheme(of: db) {
          throw fail("db names a '\(scheme)://' store, which Raon does not know — give \(StoreAddress.knownSchemes), or a file path")
        }
        config.db = db
      case "out": config.out = try nonEmptyPath()
      case "lang": config.lang = try choice(ReportLanguage.self)
      case "api_base":
        let s = try string()
        guard let url = URL(string: s), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else { throw fail("api_base must be an http(s) URL like \"http://openapi.seoul.go.kr:8088\"") }
        config.apiBase = s
      case "csv_encoding": config.csvEncoding = try choice(CSVEncoding.self)
      case "csv_headers": config.csvHeaders = try choice(CSVHeaders.self)
      case "chart_top_n":
        guard let n = value.int, chartTopNRange.contains(n) else {
          throw fail(
            "chart_top_n must be a whole number from \(chartTopNRange.lowerBound) to \(chartTopNRange.upperBound)")
        }
        config.chartTopN = n
      case "formats":
        let items: [String]
        if let s = value.string {
          items = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        } else if let array = value.array, let strings = Optional(array.compactMap(\.string)),
          strings.count == array.count
        {
          items = strings
        } else {
          throw fail("'formats' must be a list like [\"md\", \"xlsx\"]")
        }
        guard items.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
          let some = registry.defaults(for: .report).map(\.rawValue).joined(separator: ", ")
          throw fail("'formats' is empty — list at least one of \(some), or remove the line")
        }
        do {
          config.formats = try registry.parse(items, for: .report)
        } catch {
          throw fail("formats: \(error)")
        }
      default:
        throw fail("unknown key '\(SafeText.excerpt(key))' (known: \(knownKeys.joined(separator: ", ")))")
      }
    }
    return config
  }

  /// The top-level keys and those of each `[section]`, with their lines. An inline table
  /// (`lang = {a = 1}`) is a value like any other, for its key to refuse; a table inside a
  /// section (`[a.b]`, `[a]` then `b.c = 1`) is refused here, naming its line.
  private static func entries(
    of table: TOMLTable, keyLines: [[String]: Int], path: String, skipping services: Set<String>
  ) throws -> [(key: String, value: TOMLValueConvertible, line: Int)] {
    var out: [(String, TOMLValueConvertible, Int)] = []
    for (key, value) in table where key != Self.nationalSection && !services.contains(key) {
      guard let section = value.table, !section.inline else {
        out.append((key, value, keyLines[[key]] ?? 0))
        continue
      }
      for (innerKey, innerValue) in section {
        if let inner = innerValue.table, !inner.inline {
          let line = keyLines.filter { $0.key.starts(with: [key, innerKey]) }.map(\.value).min() ?? 0
          throw WorkflowError.config(
            path: path, line: line,
            message: "'\(SafeText.excerpt(key)).\(SafeText.excerpt(innerKey))' is a table inside the section "
              + "[\(SafeText.excerpt(key))]; Raon's config holds keys at the top or in one [section]")
        }
        out.append((innerKey, innerValue, keyLines[[key, innerKey]] ?? 0))
      }
    }
    return out
  }
}

/// The config's lines, for what TOMLKit cannot see (a NUL cuts its C string) and for
/// its messages.
struct ConfigLines {
  private let lines: [Substring]

  init(_ text: String) {
    lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  }

  /// The 1-based line of `key`, or 0 when it cannot be found (a dotted or inline key).
  func line(of key: String, in section: String?) -> Int {
    var start = 0
    if let section {
      guard let header = lines.firstIndex(where: { Self.isHeader($0, section) }) else { return 0 }
      start = header + 1
    }
    for index in start..<lines.count {
      let line = lines[index].drop { $0 == " " || $0 == "\t" }
      if section == nil && line.hasPrefix("[") { break }
      // A bare key holds only A-Z a-z 0-9 _ -: any other key (`"from "`) is written quoted.
      let bare = key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
      for form in (bare ? [key] : []) + ["\"\(key)\"", "'\(key)'"] where line.hasPrefix(form) {
        let rest = line.dropFirst(form.count).drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("=") { return index + 1 }
      }
    }
    return 0
  }

  /// The 1-based line of the `[section]` header, or 0.
  func line(ofSection section: String) -> Int {
    lines.firstIndex { Self.isHeader($0, section) }.map { $0 + 1 } ?? 0
  }

  /// The 1-based line of the first NUL byte or escaped NUL (`\u0000`, `\U00000000`)
  /// outside a whole-line comment, or `nil`.
  func firstLineHoldingNUL() -> Int? {
    for (index, line) in lines.enumerated() {
      if line.contains("\0") { return index + 1 }
      let text = line.drop { $0 == " " || $0 == "\t" }.lowercased()
      if !text.hasPrefix("#") && (text.contains("\\u0000") || text.contains("\\u00000000")) {
        return index + 1
      }
    }
    return nil
  }

  private static func isHeader(_ line: Substring, _ section: String) -> Bool {
    let t = line.trimmingCharacters(in: .whitespaces)
    let body = t.hasPrefix("[") ? String(t.dropFirst().prefix { $0 != "]" }) : ""
    let name = body.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    return t.hasPrefix("[") && name == section
  }

  /// TOMLKit's message on one line, without control characters.
  static func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map {
      $0.properties.generalCategory == .control ? " " : $0
    })).split(separator: " ").joined(separator: " ")
  }
}
