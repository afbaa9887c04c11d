/// The small JSON the store writes into text columns: arrays of strings and nulls (raw
/// values, field names) and flat objects of strings and integers (a version's program text).
///
/// Written by hand rather than with `JSONEncoder` because the store needs byte-stable
/// output (one content must always give one text) with non-ASCII text and `/` left as they
/// are: escaping them would make every Korean value six bytes per character bigger. The
/// output is plain RFC 8259 JSON, so Python's `json.loads` reads it.
enum CompactJSON {
  /// A value in one of the store's JSON texts.
  enum Value: Equatable {
    case string(String)
    case integer(Int)
    case null
  }

  // MARK: - Writing

  /// `["a",null,"b"]`
  static func array(_ values: [String?]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
    out.append(UInt8(ascii: "["))
    for (i, value) in values.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      if let value {
        appendString(value, to: &out)
      } else {
        out.append(contentsOf: "null".utf8)
      }
    }
    out.append(UInt8(ascii: "]"))
    return String(decoding: out, as: UTF8.self)
  }

  /// `{"key":"text","other":4}`, keys in the order given.
  static func object(_ members: [(key: String, value: Value)]) -> String {
    var out: [UInt8] = [UInt8(ascii: "{")]
    for (i, member) in members.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      appendString(member.key, to: &out)
      out.append(UInt8(ascii: ":"))
      switch member.value {
      case .string(let text): appendString(text, to: &out)
      case .integer(let number): out.append(contentsOf: String(number).utf8)
      case .null: out.append(contentsOf: "null".utf8)
      }
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendString(_ text: String, to out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x00..<0x20:
        out.append(contentsOf: "\\u00".utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0f)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  // MARK: - Reading

  struct SyntaxError: Swift.Error, CustomStringConvertible {
    var offset: Int
    var expected: String
    var description: String { "malformed JSON at byte \(offset): expected \(expected)" }
  }

  /// Parses an array of strings and nulls.
  static func parseArray(_ text: String) throws -> [String?] {
    var parser = Parser(text)
    var values: [String?] = []
    try parser.expect(UInt8(ascii: "["))
    if try parser.peek() == UInt8(ascii: "]") {
      parser.index += 1
    } else {
      while true {
        switch try parser.value() {
        case .string(let s): values.append(s)
        case .null: values.append(nil)
        case .integer: throw SyntaxError(offset: parser.index, expected: "a string or null")
        }
        if try parser.peek() == UInt8(ascii: ",") {
          parser.index += 1
          continue
        }
        try parser.expect(UInt8(ascii: "]"))
        break
      }
    }
    try parser.end()
    return values
  }

  /// Parses a flat object of strings, integers and nulls.
  static func parseObject(_ text: String) throws -> [String: Value] {
    var parser = Parser(text)
    var members: [String: Value] = [:]
    try parser.expect(UInt8(ascii: "{"))
    if try parser.peek() == UInt8(ascii: "}") {
      parser.index += 1
    } else {
      while true {
        guard case .string(let key) = try parser.value() else {
          throw SyntaxError(offset: parser.index, expected: "a key")
        }
        try parser.expect(UInt8(ascii: ":"))
        members[key] = try parser.value()
        if try parser.peek() == UInt8(ascii: ",") {
          parser.index += 1
          continue
        }
        try parser.expect(UInt8(ascii: "}"))
        break
      }
    }
    try parser.end()
    return members
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func peek() throws -> UInt8 {
      skipSpace()
      guard index < bytes.count else { throw SyntaxError(offset: index, expected: "more input") }
      return bytes[index]
    }

    mutating func expect(_ byte: UInt8) throws {
      guard try peek() == byte else {
        throw SyntaxError(offset: index, expected: "'\(Character(Unicode.Scalar(byte)))'")
      }
      index += 1
    }

    mutating func end() throws {
      skipSpace()
      guard index == bytes.count else { throw SyntaxError(offset: index, expected: "the end") }
    }

    mutating func value() throws -> Value {
      let first = try peek()
      if first == UInt8(ascii: "\"") { return .string(try string()) }
      if first == UInt8(ascii: "n") {
        guard bytes[index...].starts(with: "null".utf8) else {
          throw SyntaxError(offset: index, expected: "null")
        }
        index += 4
        return .null
      }
      var number = 0
      var negative = false
      let start = index
      if first == UInt8(ascii: "-") {
        negative = true
        index += 1
      }
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
        let (product, overflow) = number.multipliedReportingOverflow(by: 10)
        guard !overflow else { throw SyntaxError(offset: start, expected: "a smaller integer") }
        number = product + Int(bytes[index] - 0x30)
        index += 1
      }
      guard index > start + (negative ? 1 : 0) else {
        throw SyntaxError(offset: start, expected: "a string, an integer or null")
      }
      return .integer(negative ? -number : number)
    }

    mutating func string() throws -> String {
      index += 1  // the opening quote
      var out: [UInt8] = []
      while true {
        guard index < bytes.count else { throw SyntaxError(offset: index, expected: "'\"'") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(decoding: out, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { throw SyntaxError(offset: index, expected: "an escape") }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "r"): out.append(0x0D)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "b"): out.append(0x08)
          case UInt8(ascii: "f"): out.append(0x0C)
          case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar), bytes[index...].starts(with: "\\u".utf8) {
              index += 2
              let low = try hex4()
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
              throw SyntaxError(offset: index, expected: "a valid \\u escape")
            }
            out.append(contentsOf: String(Character(unicode)).utf8)
          default: throw SyntaxError(offset: index - 1, expected: "a valid escape")
          }
        default:
          out.append(byte)
        }
      }
    }

    mutating func hex4() throws -> UInt32 {
      guard index + 4 <= bytes.count else { throw SyntaxError(offset: index, expected: "4 hex digits") }
      var value: UInt32 = 0
      for byte in bytes[index..<index + 4] {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
          throw SyntaxError(offset: index, expected: "4 hex digits")
        }
        value = value << 4 | UInt32(digit)
      }
      index += 4
      return value
    }
  }
}
