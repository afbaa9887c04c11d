import RaonCore
import RaonErrors

/// A parsed JSON value that keeps what the catalog readers need and
/// `JSONSerialization` loses: the order of object keys and the exact text of numbers.
indirect enum JSONNode: Sendable, Equatable {
  case null
  case bool(Bool)
  /// The number's literal text, as written in the source.
  case number(String)
  case string(String)
  case array([JSONNode])
  /// Members in source order (a duplicate key keeps every occurrence).
  case object([(key: String, value: JSONNode)])

  static func == (a: JSONNode, b: JSONNode) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// The first member with this key, for objects.
  subscript(key: String) -> JSONNode? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The value as a catalog field: strings as they are, integers as their digits
  /// (`1734793200000`, never `1.7347932e12`), other numbers in their shortest round-trip
  /// form, `null` → nil, booleans `true`/`false`, arrays and objects as compact JSON.
  var fieldText: String? {
    switch self {
    case .null: return nil
    case .bool(let b): return b ? "true" : "false"
    case .string(let s): return s
    case .number(let text): return JSONNode.canonicalNumber(text)
    case .array, .object: return compactJSON
    }
  }

  static func canonicalNumber(_ text: String) -> String {
    let isInteger = text.utf8.enumerated().allSatisfy { index, c in
      (c >= 0x30 && c <= 0x39) || (index == 0 && c == UInt8(ascii: "-"))
    }
    if isInteger { return text == "-0" ? "0" : text }
    guard let value = Double(text) else { return text }
    // 1.0, 1e3 and 1734793200000.0 are integers written another way.
    if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
      return String(Int64(value))
    }
    return String(value)
  }

  /// The value as compact JSON text.
  var compactJSON: String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let text): out += text
    case .string(let s): JSONStringLiteral.append(s, to: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, member) in members.enumerated() {
        if i > 0 { out += "," }
        JSONStringLiteral.append(member.key, to: &out)
        out += ":"
        member.value.write(to: &out)
      }
      out += "}"
    }
  }

}

/// A JSON syntax error at a byte offset.
struct JSONSyntaxError: RaonError, Equatable {
  var offset: Int
  var line: Int
  var column: Int
  /// What was wrong, e.g. "the text ends inside a string".
  var problem: String
  /// True when the input simply stopped (a truncated download).
  var truncated: Bool
}

/// A small recursive-descent JSON parser over UTF-8 bytes (RFC 8259), hand-written so
/// that errors can say at which byte, line and column the text went wrong or stopped.
struct JSONParser {
  private let b: UnsafeBufferPointer<UInt8>
  private var i = 0
  private var depth = 0
  /// Deeper nesting than this is rejected rather than risking the stack on garbage.
  static let maxDepth = 256

  /// Parses one JSON document filling all of `bytes` (white space around it allowed; a
  /// leading UTF-8 BOM is skipped).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONNode {
    var parser = JSONParser(b: bytes)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.i = 3 }
    let value = try parser.value()
    parser.skipSpace()
    if parser.i < bytes.count { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
    let result: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) { return .success(try parse(buffer)) } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private init(b: UnsafeBufferPointer<UInt8>) { self.b = b }

  private func error(_ problem: String, truncated: Bool = false) -> JSONSyntaxError {
    var line = 1
    var lineStart = 0
    for k in 0..<min(i, b.count) where b[k] == UInt8(ascii: "\n") {
      line += 1
      lineStart = k + 1
    }
    let column = String(decoding: UnsafeBufferPointer(rebasing: b[lineStart..<min(i, b.count)]), as: UTF8.self).count + 1
    return JSONSyntaxError(
      offset: i, line: line, column: column, problem: problem, truncated: truncated)
  }

  private func endOfInput(_ what: String) -> JSONSyntaxError {
    error("the text ends inside \(what)", truncated: true)
  }

  private mutating func skipSpace() {
    while i < b.count {
      switch b[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  private mutating func value() throws(JSONSyntaxError) -> JSONNode {
    skipSpace()
    guard i < b.count else { throw endOfInput("a value (nothing where a value should be)") }
    switch b[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("unexpected character where a value should be")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for c in expected {
      guard i < b.count else { throw endOfInput("the literal \(word)") }
      guard b[i] == c else { throw error("invalid literal (expected \(word))") }
      i += 1
    }
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth)") }
  }

  private mutating func object() throws(JSONSyntaxError) -> JSONNode {
    try enter()
    defer { depth -= 1 }
    i += 1
    var members: [(key: String, value: JSONNode)] = []
    if try closes(UInt8(ascii: "}"), "an object", empty: true) { return .object(members) }
    while true {
      skipSpace()
      guard i < b.count else { throw endOfInput("an object") }
      guard b[i] == UInt8(ascii: "\"") else { throw error("expected a quoted key in an object") }
      let key = try string()
      skipSpace()
      guard i < b.count else { throw endOfInput("an object") }
      guard b[i] == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
      i += 1
      let member = try value()
      members.append((key: key, value: member))
      if try closes(UInt8(ascii: "}"), "an object") { return .object(members) }
    }
  }

  private mutating func array() throws(JSONSyntaxError) -> JSONNode {
    try enter()
    defer { depth -= 1 }
    i += 1
    var items: [JSONNode] = []
    if try closes(UInt8(ascii: "]"), "an array", empty: true) { return .array(items) }
    while true {
      items.append(try value())
      if try closes(UInt8(ascii: "]"), "an array") { return .array(items) }
    }
  }

  /// After an object's member or an array's item: a comma (consumed) gives `false`, the
  /// container's `closer` (consumed) `true`; anything else is an error naming `container`.
  /// Right after the opening bracket (`empty`), `false` leaves the first value unread.
  private mutating func closes(
    _ closer: UInt8, _ container: String, empty: Bool = false
  ) throws(JSONSyntaxError) -> Bool {
    skipSpace()
    guard i < b.count else { throw endOfInput(container) }
    if empty, b[i] != closer { return false }
    if !empty, b[i] == UInt8(ascii: ",") {
      i += 1
      return false
    }
    guard b[i] == closer else {
      throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))' in \(container)")
    }
    i += 1
    return true
  }

  private mutating func number() throws(JSONSyntaxError) -> JSONNode {
    let start = i
    func digits(_ i: inout Int, _ b: UnsafeBufferPointer<UInt8>) -> Int {
      let s = i
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
      return i - s
    }
    if b[i] == UInt8(ascii: "-") { i += 1 }
    guard digits(&i, b) > 0 else {
      throw i < b.count ? error("invalid number") : endOfInput("a number")
    }
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      guard digits(&i, b) > 0 else {
        throw i < b.count ? error("invalid number") : endOfInput("a number")
      }
    }
    if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
      i += 1
      if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
      guard digits(&i, b) > 0 else {
        throw i < b.count ? error("invalid number") : endOfInput("a number")
      }
    }
    return .number(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
  }

  private mutating func string() throws(JSONSyntaxError) -> String {
    i += 1
    var segment = i
    var bytes: [UInt8] = []
    var escaped = false
    while i < b.count {
      let c = b[i]
      if c == UInt8(ascii: "\"") {
        let tail = UnsafeBufferPointer(rebasing: b[segment..<i])
        i += 1
        if !escaped { return String(decoding: tail, as: UTF8.self) }
        bytes.append(contentsOf: tail)
        return String(decoding: bytes, as: UTF8.self)
      }
      if c == UInt8(ascii: "\\") {
        escaped = true
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[segment..<i]))
        i += 1
        guard i < b.count else { throw endOfInput("a string") }
        if let byte = JSONStringLiteral.unescaped(b[i]) {
          bytes.append(byte)
        } else if b[i] == UInt8(ascii: "u") {
          i += 1
          var scalar = try hex4()
          if (0xD800...0xDBFF).contains(scalar), i + 1 < b.count, b[i] == UInt8(ascii: "\\"),
            b[i + 1] == UInt8(ascii: "u")
          {
            let save = i
            i += 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
              i = save
            }
          }
          // A lone surrogate cannot be represented; it becomes U+FFFD.
          let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
          bytes.append(contentsOf: Array(String(unicode).utf8))
          segment = i
          continue
        } else {
          throw error("invalid escape in a string")
        }
        i += 1
        segment = i
        continue
      }
      if c < 0x20 {
        throw error("unescaped control character in a string")
      }
      i += 1
    }
    throw endOfInput("a string")
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard i < b.count else { throw endOfInput("a \\u escape") }
      let c = b[i]
      let digit: UInt32
      switch c {
      case 0x30...0x39: digit = UInt32(c - 0x30)
      case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
      default: throw error("invalid \\u escape")
      }
      value = value * 16 + digit
      i += 1
    }
    return value
  }
}

extension JSONSyntaxError {
  var exitStatus: ExitStatus { .failure }
}
