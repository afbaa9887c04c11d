import Foundation

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
    var out = "["
    out.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
    for (i, value) in values.enumerated() {
      if i > 0 { out += "," }
      if let value {
        appendString(value, to: &out)
      } else {
        out += "null"
      }
    }
    out += "]"
    return out
  }

  /// `{"key":"text","other":4}`, keys in the order given.
  static func object(_ members: [(key: String, value: Value)]) -> String {
    var out = "{"
    for (i, member) in members.enumerated() {
      if i > 0 { out += "," }
      appendString(member.key, to: &out)
      out += ":"
      switch member.value {
      case .string(let text): appendString(text, to: &out)
      case .integer(let number): out += String(number)
      case .null: out += "null"
      }
    }
    out += "}"
    return out
  }

  /// The characters JSON requires escaped, but U+0000 (`strcspn` stops there anyway).
  private static let specials = "\"\\" + String((1..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })

  private static func appendString(_ text: String, to out: inout String) {
    // Nearly no catalog text needs escaping: find that out with one C call rather than a
    // loop over bytes, which is slow in debug builds, and copy the string whole.
    let plainPrefix = specials.withCString { set in text.withCString { strcspn($0, set) } }
    out += "\""
    if plainPrefix == text.utf8.count {
      out += text
    } else {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{0}"..."\u{1F}":
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  // MARK: - Reading

  struct SyntaxError: Swift.Error, CustomStringConvertible {
    var text: String
    var expected: String
    var description: String { "expected \(expected) in JSON text '\(text.prefix(60))'" }
  }

  /// Parses an array of strings and nulls.
  static func parseArray(_ text: String) throws -> [String?] {
    // Foundation's parser is compiled optimised even in debug builds, and well tested.
    guard let items = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
      throw SyntaxError(text: text, expected: "an array")
    }
    return try items.map { item in
      if item is NSNull { return nil }
      guard let string = item as? String else {
        throw SyntaxError(text: text, expected: "strings and nulls")
      }
      return string
    }
  }

  /// Parses a flat object of strings, integers and nulls.
  static func parseObject(_ text: String) throws -> [String: Value] {
    guard let members = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw SyntaxError(text: text, expected: "an object") }
    return try members.mapValues { item in
      if item is NSNull { return .null }
      if let string = item as? String { return .string(string) }
      if let number = item as? NSNumber, let integer = Int(exactly: number.doubleValue) {
        return .integer(integer)
      }
      throw SyntaxError(text: text, expected: "strings, integers and nulls")
    }
  }
}
