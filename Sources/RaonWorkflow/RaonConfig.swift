import Foundation

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
/// ```
public struct RaonConfig: Sendable, Equatable {
  public var db: String?
  public var formats: [String]?
  /// A parent folder; each report is written to `<out>/<YYYY-Www>/`.
  public var out: String?
  public var lang: String?
  public var apiBase: String?
  public var csvEncoding: String?
  public var csvHeaders: String?
  public var chartTopN: Int?
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
    guard let data = FileManager.default.contents(atPath: url.path),
      let text = String(data: data, encoding: .utf8)
    else {
      throw WorkflowError.config(path: url.path, line: 0, message: "cannot read it as UTF-8 text")
    }
    return try parse(text, path: url.path)
  }

  /// Parses the config text (a flat subset of TOML; `[sections]` are allowed and ignored).
  public static func parse(_ text: String, path: String) throws -> RaonConfig {
    var config = RaonConfig()
    config.path = path
    let table = try TOMLSubset.parse(text, path: path)
    for (key, entry) in table {
      func string() throws -> String {
        guard case .string(let s) = entry.value else {
          throw WorkflowError.config(path: path, line: entry.line, message: "'\(key)' must be a string")
        }
        return s
      }
      switch key {
      case "db": config.db = try string()
      case "out": config.out = try string()
      case "lang": config.lang = try string()
      case "api_base": config.apiBase = try string()
      case "csv_encoding": config.csvEncoding = try string()
      case "csv_headers": config.csvHeaders = try string()
      case "chart_top_n":
        guard case .integer(let n) = entry.value, n > 0 else {
          throw WorkflowError.config(path: path, line: entry.line, message: "'chart_top_n' must be a positive integer")
        }
        config.chartTopN = n
      case "formats":
        switch entry.value {
        case .array(let items): config.formats = items
        case .string(let s): config.formats = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        default:
          throw WorkflowError.config(path: path, line: entry.line, message: "'formats' must be a list like [\"md\", \"xlsx\"]")
        }
      default:
        throw WorkflowError.config(
          path: path, line: entry.line,
          message: "unknown key '\(key)' (known: db, formats, out, lang, api_base, csv_encoding, csv_headers, chart_top_n)")
      }
    }
    return config
  }
}

/// The part of TOML a config file needs: `key = value` lines with strings, integers,
/// booleans and arrays of strings, `#` comments and `[section]` headers.
enum TOMLSubset {
  enum Value: Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case array([String])
  }

  static func parse(_ text: String, path: String) throws -> [String: (value: Value, line: Int)] {
    var result: [String: (value: Value, line: Int)] = [:]
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let lineNumber = index + 1
      let line = stripComment(String(rawLine)).trimmingCharacters(in: .whitespaces)
      if line.isEmpty || (line.hasPrefix("[") && line.hasSuffix("]")) { continue }
      guard let eq = line.firstIndex(of: "=") else {
        throw WorkflowError.config(path: path, line: lineNumber, message: "expected 'key = value'")
      }
      let key = line[..<eq].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      let valueText = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
      guard let value = parseValue(valueText) else {
        throw WorkflowError.config(path: path, line: lineNumber, message: "cannot read the value of '\(key)'")
      }
      result[key] = (value, lineNumber)
    }
    return result
  }

  /// Removes a `#` comment that is not inside a string.
  private static func stripComment(_ line: String) -> String {
    var inString: Character?
    var previous: Character = " "
    for (offset, ch) in line.enumerated() {
      if let quote = inString {
        if ch == quote && !(quote == "\"" && previous == "\\") { inString = nil }
      } else if ch == "\"" || ch == "'" {
        inString = ch
      } else if ch == "#" {
        return String(line.prefix(offset))
      }
      previous = ch
    }
    return line
  }

  private static func parseValue(_ text: String) -> Value? {
    if text == "true" { return .boolean(true) }
    if text == "false" { return .boolean(false) }
    if let n = Int(text.replacingOccurrences(of: "_", with: "")) { return .integer(n) }
    if let s = parseString(text) { return .string(s) }
    if text.hasPrefix("[") && text.hasSuffix("]") {
      let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
      if inner.isEmpty { return .array([]) }
      var items: [String] = []
      for part in splitArray(String(inner)) {
        let trimmed = part.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { continue }  // trailing comma
        guard let s = parseString(trimmed) else { return nil }
        items.append(s)
      }
      return .array(items)
    }
    return nil
  }

  private static func splitArray(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var inString: Character?
    for ch in text {
      if let q = inString {
        if ch == q { inString = nil }
        current.append(ch)
      } else if ch == "\"" || ch == "'" {
        inString = ch
        current.append(ch)
      } else if ch == "," {
        parts.append(current)
        current = ""
      } else {
        current.append(ch)
      }
    }
    parts.append(current)
    return parts
  }

  private static func parseString(_ text: String) -> String? {
    guard text.count >= 2, let first = text.first, text.last == first, first == "\"" || first == "'"
    else { return nil }
    let inner = String(text.dropFirst().dropLast())
    if first == "'" { return inner }
    var out = ""
    var escaping = false
    for ch in inner {
      if escaping {
        switch ch {
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "\\": out.append("\\")
        case "\"": out.append("\"")
        default: out.append(ch)
        }
        escaping = false
      } else if ch == "\\" {
        escaping = true
      } else {
        out.append(ch)
      }
    }
    return out
  }
}
