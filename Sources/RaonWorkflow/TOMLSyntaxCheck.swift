import RaonErrors

/// A check of TOML 1.0's grammar that a config passes before TOMLKit reads it, and the
/// line every key is written on.
///
/// Why a check in front of the library: TOMLKit parses with toml++ 3.4, which guards its
/// parser's own invariants with `assert`s that malformed input reaches — `[` and a newline
/// aborts the process inside `parse_key()` (the issue's exit 134), `x = [0, }` inside
/// `parse_value()` — and built with `NDEBUG` those asserts become `__builtin_assume`, so
/// the same input is undefined behaviour rather than an error. toml++ only ever sees
/// what passes this check (its tests and ours parse valid TOML without tripping an
/// assert), and TOMLKit still does the rest: values, types, dates, duplicate keys and
/// tables defined twice, with its own line numbers. Alternatives weighed: parsing in a
/// child process (a spawn per command, and an abort is still a crash to explain), or
/// Raon's own full parser instead of the library (this check is the grammar without the
/// values). How it was chosen and fuzzed: docs/ROBUSTNESS.md ("The config").
///
/// The grammar is TOML 1.0.0's ABNF: comments, `key = value` with bare, quoted and dotted
/// keys, `[table]` and `[[array of tables]]` headers, the four kinds of string with their
/// escapes, integers (decimal, `0x`, `0o`, `0b`, within 64 bits), floats, `inf`/`nan`,
/// booleans, offset and local dates and times (checked against the calendar), arrays
/// over several lines and one-line inline tables, nested at most ``maxDepth`` deep, and
/// keys of at most ``maxKeyParts`` parts.
struct TOMLSyntaxCheck {
  /// Where the text stops being TOML, and why.
  struct Failure: RaonError, Equatable {
    var exitStatus: ExitStatus { .config }
    /// 1-based line and column (in bytes) of the offending character.
    var line: Int
    var column: Int
    var message: String
  }

  /// Arrays and inline tables nested deeper than this are refused (toml++ stops at 256;
  /// a config needs 2).
  static let maxDepth = 64
  /// Keys of more dotted parts than this are refused, and so are longer full paths (table,
  /// inline tables and key): toml++ makes a table per part and frees them recursively (a key
  /// of 300,000 parts, a 600 KB config, overflowed its stack), and ``record`` keeps every
  /// prefix of a path (that key took 22 GB here before toml++ saw it).
  static let maxKeyParts = 64

  /// Checks `text`; returns the line of every key and table header, by its full dotted
  /// path (`["mail", "to"]` for `to` under `[mail]` or for `mail.to`; `["mail"]` too),
  /// first mention kept. Keys inside lists are not recorded.
  ///
  /// - Throws: ``Failure`` at the first place the text is not TOML 1.0.
  static func keyLines(_ text: String) throws -> [[String]: Int] {
    var check = TOMLSyntaxCheck(Array(text.utf8))
    try check.document()
    return check.lines
  }

  let bytes: [UInt8]
  var at = 0
  var line = 1
  var lineStart = 0
  var depth = 0
  private var lines: [[String]: Int] = [:]

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  // MARK: - Document and lines

  private mutating func document() throws {
    // A byte-order mark, as Windows editors write one (toml++ skips it too).
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      at = 3
      lineStart = 3
    }
    var table: [String] = []
    while at < bytes.count {
      skipBlanks()
      guard let c = peek() else { break }
      switch c {
      case .hash, .lf, .cr: break
      case .openBracket: table = try tableHeader()
      default:
        let keyLine = line
        let key = try self.key()
        try expectEquals()
        try record(table + key, keyLine)
        try value(table + key)
      }
      try endOfLine()
    }
  }

  /// Blanks, a comment, then a newline or the end of the file.
  private mutating func endOfLine() throws {
    skipBlanks()
    if peek() == .hash { try comment() }
    guard let c = peek() else { return }
    if !newline() {
      throw failure("expected the end of the line, saw \(describe(c)) — one key = value per line")
    }
  }

  /// Consumes LF or CR LF; a lone CR is refused.
  mutating func newline() -> Bool {
    if peek() == .lf {
      at += 1
    } else if peek() == .cr, peek(1) == .lf {
      at += 2
    } else {
      return false
    }
    line += 1
    lineStart = at
    return true
  }

  private mutating func comment() throws {
    at += 1  // #
    while let c = peek(), c != .lf {
      if c == .cr, peek(1) == .lf { return }
      guard c == .tab || (c >= 0x20 && c != 0x7F) else {
        throw failure("a comment holds the control character \(describe(c))")
      }
      at += 1
    }
  }

  mutating func skipBlanks() {
    while let c = peek(), c == .space || c == .tab { at += 1 }
  }

  /// Blanks, comments and newlines, as between a list's items.
  private mutating func skipBlanksCommentsAndNewlines() throws {
    while true {
      skipBlanks()
      if peek() == .hash { try comment() }
      if !newline() { return }
    }
  }

  // MARK: - Tables and keys

  /// `[a.b]` or `[[a.b]]`: the table's path.
  private mutating func tableHeader() throws -> [String] {
    let headerLine = line
    at += 1
    let array = peek() == .openBracket
    if array { at += 1 }
    skipBlanks()
    let path = try key()
    skipBlanks()
    for _ in 0..<(array ? 2 : 1) {
      guard peek() == .closeBracket else {
        throw failure(
          "a table header ends with \(array ? "]]" : "]"), saw \(describe(peek())) — write it like [weekly]")
      }
      at += 1
    }
    try record(path, headerLine)
    return path
  }

  /// A bare, quoted or dotted key.
  private mutating func key() throws -> [String] {
    var parts = [try simpleKey()]
    while true {
      let before = at
      skipBlanks()
      guard peek() == .dot else {
        at = before
        return parts
      }
      at += 1
      skipBlanks()
      guard parts.count < Self.maxKeyParts else {
        throw failure("a key has more than \(Self.maxKeyParts) dotted parts")
      }
      parts.append(try simpleKey())
    }
  }

  private mutating func simpleKey() throws -> String {
    guard let c = peek() else { throw failure("expected a key, saw the end of the file") }
    if Self.isBareKeyByte(c) {
      let start = at
      while let c = peek(), Self.isBareKeyByte(c) { at += 1 }
      return String(decoding: bytes[start..<at], as: UTF8.self)
    }
    if c == .quote || c == .apostrophe {
      guard !(peek(1) == c && peek(2) == c) else {
        throw failure("a key cannot be a multi-line string")
      }
      return c == .quote ? try basicString() : try literalString()
    }
    throw failure("expected a key (letters, digits, _ and -, or a quoted \"key\"), saw \(describe(c))")
  }

  private mutating func expectEquals() throws {
    skipBlanks()
    guard peek() == .equals else {
      throw failure("expected '=' after the key, saw \(describe(peek()))")
    }
    at += 1
    skipBlanks()
  }

  /// Records `path` and each of its prefixes (`a.b.c = 1` writes the tables `a` and `a.b`).
  private mutating func record(_ path: [String], _ line: Int) throws {
    // Every new prefix is kept, so a path of n parts costs n² here: its table, inline
    // tables and dotted parts together are bounded too (64 inline tables of 64-part keys,
    // an 8 KB line, took 130 MB).
    guard path.count <= Self.maxKeyParts else {
      throw failure("a key's full path (its [table], inline tables and dotted parts) has more than \(Self.maxKeyParts) parts")
    }
    for end in stride(from: path.count, through: 1, by: -1) {
      let prefix = Array(path[..<end])
      guard lines[prefix] == nil else { return }
      lines[prefix] = line
    }
  }

  // MARK: - Values

  /// One value; `path` is where its keys are recorded (`nil` inside a list).
  private mutating func value(_ path: [String]?) throws {
    guard let c = peek(), c != .lf, c != .cr, c != .hash else {
      throw failure("a value is missing after '='")
    }
    switch c {
    case .quote:
      if peek(1) == .quote, peek(2) == .quote { try multiLineString(quote: c) } else { _ = try basicString() }
    case .apostrophe:
      if peek(1) == .apostrophe, peek(2) == .apostrophe { try multiLineString(quote: c) } else { _ = try literalString() }
    case .openBracket: try array()
    case .openBrace: try inlineTable(path)
    case UInt8(ascii: "t"): try word("true")
    case UInt8(ascii: "f"): try word("false")
    case UInt8(ascii: "i"): try word("inf")
    case UInt8(ascii: "n"): try word("nan")
    case .plus, .minus, UInt8(ascii: "0")...UInt8(ascii: "9"): try numberOrDate()
    default:
      throw failure(
        "expected a value (a \"string\", a number, true or false, a date, [a list] or {a table}), saw \(describe(c))")
    }
  }

  mutating func word(_ word: String) throws {
    let expected = Array(word.utf8)
    for (k, byte) in expected.enumerated() where peek(k) != byte {
      throw failure("expected a value, saw \(describe(peek())) (strings need quotes: \"…\")")
    }
    at += expected.count
  }

  private mutating func array() throws {
    try deeper()
    let open = (line, at)
    at += 1  // [
    while true {
      try skipBlanksCommentsAndNewlines()
      guard let c = peek() else { throw failure("the list opened on line \(open.0) is not closed with ]") }
      if c == .closeBracket { break }
      try value(nil)
      try skipBlanksCommentsAndNewlines()
      if peek() == .comma {
        at += 1
        continue
      }
      guard peek() == .closeBracket else {
        if peek() == nil { throw failure("the list opened on line \(open.0) is not closed with ]") }
        throw failure("expected ',' or ']' in the list, saw \(describe(peek()))")
      }
      break
    }
    at += 1  // ]
    depth -= 1
  }

  private mutating func inlineTable(_ path: [String]?) throws {
    try deeper()
    at += 1  // {
    skipBlanks()
    if peek() == .closeBrace {
      at += 1
      depth -= 1
      return
    }
    while true {
      let keyLine = line
      let key = try self.key()
      try expectEquals()
      if let path { try record(path + key, keyLine) }
      try value(path.map { $0 + key })
      skipBlanks()
      switch peek() {
      case .comma:
        at += 1
        skipBlanks()
      case .closeBrace:
        at += 1
        depth -= 1
        return
      case .lf, .cr, nil:
        throw failure("an inline table { … } must be closed on the line it starts")
      case let c:
        throw failure("expected ',' or '}' in the inline table, saw \(describe(c))")
      }
    }
  }

  private mutating func deeper() throws {
    depth += 1
    guard depth <= Self.maxDepth else {
      throw failure("lists and inline tables are nested more than \(Self.maxDepth) deep")
    }
  }

  // MARK: - Bytes

  func peek(_ offset: Int = 0) -> UInt8? {
    at + offset < bytes.count ? bytes[at + offset] : nil
  }

  func isDigit(_ offset: Int) -> Bool {
    guard let c = peek(offset) else { return false }
    return c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
  }

  func failure(_ message: String) -> Failure {
    Failure(line: line, column: at - lineStart + 1, message: message)
  }

  /// `'x'`, `a line break`, `U+0007`, `the end of the file`.
  func describe(_ c: UInt8?) -> String {
    guard let c else { return "the end of the file" }
    switch c {
    case .lf, .cr: return "the end of the line"
    case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
    case .space: return "a space"
    case .tab: return "a tab"
    case 0x80...: return "a non-ASCII character"
    default:
      let hex = String(c, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }
  }

  func describeRaw(_ c: UInt8) -> String {
    (0x21...0x7E).contains(c) ? String(Character(Unicode.Scalar(c))) : describe(c)
  }

  private static func isBareKeyByte(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
      || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == .underscore || c == .minus
  }

  static func radix(_ c: UInt8) -> UInt64? {
    switch c {
    case UInt8(ascii: "x"): return 16
    case UInt8(ascii: "o"): return 8
    case UInt8(ascii: "b"): return 2
    default: return nil
    }
  }

  static func hexValue(_ c: UInt8) -> UInt8? { digitValue(c, radix: 16) }

  static func digitValue(_ c: UInt8, radix: UInt64) -> UInt8? {
    let value: UInt8
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): value = c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): value = c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): value = c - UInt8(ascii: "A") + 10
    default: return nil
    }
    return UInt64(value) < radix ? value : nil
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension UInt8 {
  // The bytes TOML's grammar is written in (internal: the check spans two files).
  static let tab = UInt8(ascii: "\t")
  static let lf = UInt8(ascii: "\n")
  static let cr = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let hash = UInt8(ascii: "#")
  static let quote = UInt8(ascii: "\"")
  static let apostrophe = UInt8(ascii: "'")
  static let backslash = UInt8(ascii: "\\")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let equals = UInt8(ascii: "=")
  static let comma = UInt8(ascii: ",")
  static let dot = UInt8(ascii: ".")
  static let colon = UInt8(ascii: ":")
  static let plus = UInt8(ascii: "+")
  static let minus = UInt8(ascii: "-")
  static let underscore = UInt8(ascii: "_")
}
