/// Finds, in Swift source text, the type, extension and protocol declarations that conform
/// to `Error` (or Foundation's refinements of it) without conforming to `RaonError`.
///
/// It reads declarations the way Raon writes them — the inheritance clause after the name,
/// on the declaration's line or the lines up to its `{` — and skips comments; it does not
/// parse Swift. A conformance it cannot see (through a typealias, say) is not refused.
enum ErrorDeclarations {
  struct Finding: Equatable {
    var line: Int
    var name: String
    /// The conformance that makes it an error (`Error`, `Swift.Error`, `LocalizedError`…).
    var conformance: String
  }

  /// The protocols that make a type an error.
  static let errorProtocols: Set<String> = [
    "Error", "Swift.Error", "LocalizedError", "Foundation.LocalizedError", "CustomNSError",
    "Foundation.CustomNSError", "RecoverableError", "Foundation.RecoverableError",
  ]

  /// The protocol that gives an error its exit status.
  static let statusProtocols: Set<String> = ["RaonError", "RaonErrors.RaonError"]

  static let keywords: Set<String> = ["struct", "enum", "class", "actor", "extension", "protocol"]
  static let modifiers: Set<String> = [
    "public", "package", "internal", "private", "fileprivate", "open", "final", "indirect",
    "nonisolated", "static",
  ]

  static func findings(in text: String) -> [Finding] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let code = withoutComments(lines)
    var found: [Finding] = []
    for (index, line) in code.enumerated() {
      guard let (name, afterName) = declaration(line) else { continue }
      // The inheritance clause: up to the body's `{` or a `where`, perhaps over a few lines.
      var clause = afterName
      var next = index + 1
      while !clause.contains("{"), next < code.count, next <= index + 6 {
        clause += " " + code[next]
        next += 1
      }
      clause = withoutGenericParameters(clause)
      guard let colon = clause.firstIndex(of: ":"), clause[..<colon].trimmingSpaces.isEmpty else { continue }
      var inherited = String(clause[clause.index(after: colon)...])
      if let brace = inherited.firstIndex(of: "{") { inherited = String(inherited[..<brace]) }
      if let whereClause = inherited.range(of: " where ") { inherited = String(inherited[..<whereClause.lowerBound]) }
      let names = inherited.split(separator: ",").map { part -> String in
        var name = part.trimmingSpaces
        for attribute in ["@unchecked ", "@retroactive ", "@preconcurrency ", "any "] where name.hasPrefix(attribute) {
          name = String(name.dropFirst(attribute.count)).trimmingSpaces
        }
        return name
      }
      guard let conformance = names.first(where: errorProtocols.contains),
        !names.contains(where: statusProtocols.contains)
      else { continue }
      found.append(Finding(line: index + 1, name: name, conformance: conformance))
    }
    return found
  }

  /// The name declared on `line` and the text after it, when `line` declares a type, an
  /// extension or a protocol.
  static func declaration(_ line: String) -> (name: String, rest: String)? {
    var words = Substring(line).drop { $0 == " " || $0 == "\t" }
    while words.hasPrefix("@") {
      // An attribute, with its arguments: `@available(*, deprecated)`, `@MainActor`.
      var depth = 0
      var end = words.startIndex
      for i in words.indices {
        let c = words[i]
        if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
        end = words.index(after: i)
        if depth == 0, c == " " { break }
      }
      words = words[end...].drop { $0 == " " }
    }
    while true {
      let word = words.prefix { $0 != " " && $0 != "(" }
      guard modifiers.contains(String(word)) else { break }
      words = words.dropFirst(word.count)
      if words.hasPrefix("(") {  // `private(set)`
        words = words.drop { $0 != ")" }.dropFirst()
      }
      words = words.drop { $0 == " " }
    }
    let keyword = words.prefix { $0 != " " }
    guard keywords.contains(String(keyword)) else { return nil }
    words = words.dropFirst(keyword.count).drop { $0 == " " }
    let name = words.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    guard !name.isEmpty else { return nil }
    return (String(name), String(words.dropFirst(name.count)))
  }

  /// `text` without the generic parameters it starts with (`<T: Sendable>: Error` → `: Error`).
  static func withoutGenericParameters(_ text: String) -> String {
    let trimmed = text.trimmingSpaces
    guard trimmed.hasPrefix("<") else { return text }
    var depth = 0
    for i in trimmed.indices {
      if trimmed[i] == "<" { depth += 1 } else if trimmed[i] == ">" { depth -= 1 }
      if depth == 0 { return String(trimmed[trimmed.index(after: i)...]) }
    }
    return text
  }

  /// The lines with `//` and `/* */` comments blanked out (string literals are kept: a
  /// `//` inside quotes on one line is not a comment).
  static func withoutComments(_ lines: [String]) -> [String] {
    var inBlock = false
    return lines.map { line in
      var out = ""
      var quoted = false
      let chars = Array(line)
      var i = 0
      while i < chars.count {
        let c = chars[i]
        let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
        if inBlock {
          if c == "*", next == "/" {
            inBlock = false
            i += 2
          } else {
            i += 1
          }
          continue
        }
        if c == "\"" { quoted.toggle() }
        if !quoted, c == "/", next == "/" { break }
        if !quoted, c == "/", next == "*" {
          inBlock = true
          i += 2
          continue
        }
        out.append(c)
        i += 1
      }
      return out
    }
  }
}

extension StringProtocol {
  var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
