import Foundation
import RaonCore
import RaonErrors

/// The small JSON the store writes into text columns: arrays of strings and nulls (raw
/// values, field names) and flat objects of strings and integers (a version's program text).
///
/// Written by hand rather than with `JSONEncoder` because the store needs byte-stable
/// output (one content must always give one text) with non-ASCII text and `/` left as they
/// are: escaping them would make every Korean value six bytes per character bigger. The
/// output is plain RFC 8259 JSON, so Python's `json.loads` reads it.
package enum CompactJSON {
  /// A value in one of the store's JSON texts.
  package enum Value: Equatable {
    case string(String)
    case integer(Int)
    case null
  }

  // MARK: - Writing

  /// `["a",null,"b"]`
  package static func array(_ values: [String?]) -> String {
    var out = "["
    out.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
    for (i, value) in values.enumerated() {
      if i > 0 { out += "," }
      if let value {
        JSONStringLiteral.append(value, to: &out)
      } else {
        out += "null"
      }
    }
    out += "]"
    return out
  }

  /// `{"key":"text","other":4}`, keys in the order given.
  package static func object(_ members: [(key: String, value: Value)]) -> String {
    var out = "{"
    for (i, member) in members.enumerated() {
      if i > 0 { out += "," }
      JSONStringLiteral.append(member.key, to: &out)
      out += ":"
      switch member.value {
      case .string(let text): JSONStringLiteral.append(text, to: &out)
      case .integer(let number): out += String(number)
      case .null: out += "null"
      }
    }
    out += "}"
    return out
  }

  // MARK: - Reading

  package struct SyntaxError: RaonError, CustomStringConvertible {
    package var exitStatus: ExitStatus { .failure }
    var text: String
    var expected: String
    package var description: String { "expected \(expected) in JSON text '\(text.prefix(60))'" }
  }

  /// Parses an array of strings and nulls.
  package static func parseArray(_ text: String) throws -> [String?] {
    // Reading a snapshot back parses one array per program: the direct reader below takes
    // what this store writes (and any plain JSON of the same shape); anything it does not
    // handle itself goes to Foundation, so results and errors stay Foundation's.
    if let values = FastReader.array(text) { return values }
    return try foundationArray(text)
  }

  private static func foundationArray(_ text: String) throws -> [String?] {
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

  /// A flat object's members, looked up by key.
  ///
  /// A list rather than a dictionary: a program's text has a dozen short keys, and hashing
  /// them cost more than comparing them (perf, one pass over 1,000,000 programs read back:
  /// hashing and the dictionary ~1.3 s of CPU, the list ~0.4 s).
  package struct Members: Equatable {
    package var pairs: [(key: String, value: Value)]

    package subscript(key: String) -> Value? {
      for pair in pairs where pair.key == key { return pair.value }
      return nil
    }

    /// The same members, whatever their order.
    package static func == (a: Members, b: Members) -> Bool {
      a.pairs.count == b.pairs.count && a.pairs.allSatisfy { b[$0.key] == $0.value }
    }
  }

  /// Parses a flat object of strings, integers and nulls (its keys distinct).
  package static func parseObject(_ text: String) throws -> Members {
    if let members = FastReader.object(text) { return Members(pairs: members) }
    return Members(pairs: try foundationObject(text).map { (key: $0.key, value: $0.value) })
  }

  private static func foundationObject(_ text: String) throws -> [String: Value] {
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

// MARK: - Fast reading

extension CompactJSON {
  /// A direct reader for the common case: UTF-8 bytes in, values out, no Foundation
  /// objects or dynamic casts. It returns `nil` — and the caller falls back to Foundation —
  /// at anything outside a narrow, unambiguous subset: invalid syntax, `\u` escapes
  /// (surrogates), numbers other than plain integers that fit an `Int`, repeated keys.
  /// On what it accepts it gives exactly Foundation's result.
  enum FastReader {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    static func array(_ text: String) -> [String?]? {
      var copy = text
      return copy.withUTF8 { bytes -> [String?]? in
        var i = 0
        let n = bytes.count
        skipSpace(bytes, &i)
        guard i < n, bytes[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        var values: [String?] = []
        skipSpace(bytes, &i)
        if i < n, bytes[i] == UInt8(ascii: "]") { return endsText(bytes, &i) ? values : nil }
        while true {
          skipSpace(bytes, &i)
          guard i < n else { return nil }
          if bytes[i] == quote {
            guard let value = string(bytes, &i) else { return nil }
            values.append(value)
          } else if isNull(bytes, i) {
            values.append(nil)
            i += 4
          } else {
            return nil
          }
          guard let more = separator(bytes, &i, close: UInt8(ascii: "]")) else { return nil }
          if !more { return values }
        }
      }
    }

    static func object(_ text: String) -> [(key: String, value: Value)]? {
      var copy = text
      return copy.withUTF8 { bytes -> [(key: String, value: Value)]? in
        var i = 0
        let n = bytes.count
        skipSpace(bytes, &i)
        guard i < n, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var members: [(key: String, value: Value)] = []
        skipSpace(bytes, &i)
        if i < n, bytes[i] == UInt8(ascii: "}") { return endsText(bytes, &i) ? members : nil }
        while true {
          skipSpace(bytes, &i)
          guard i < n, bytes[i] == quote, let key = string(bytes, &i) else { return nil }
          skipSpace(bytes, &i)
          guard i < n, bytes[i] == UInt8(ascii: ":") else { return nil }
          i += 1
          skipSpace(bytes, &i)
          guard i < n else { return nil }
          let value: Value
          if bytes[i] == quote {
            guard let text = string(bytes, &i) else { return nil }
            value = .string(text)
          } else if isNull(bytes, i) {
            value = .null
            i += 4
          } else {
            guard let number = integer(bytes, &i) else { return nil }
            value = .integer(number)
          }
          // A repeated key: leave Foundation to decide which one wins.
          guard !members.contains(where: { $0.key == key }) else { return nil }
          members.append((key, value))
          guard let more = separator(bytes, &i, close: UInt8(ascii: "}")) else { return nil }
          if !more { return members }
        }
      }
    }

    /// After a value: `true` past a comma, `false` past the closing bracket when nothing
    /// but space follows it (the text's end); `nil` for anything else.
    private static func separator(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, close: UInt8) -> Bool? {
      skipSpace(b, &i)
      guard i < b.count else { return nil }
      if b[i] == UInt8(ascii: ",") {
        i += 1
        return true
      }
      guard b[i] == close, endsText(b, &i) else { return nil }
      return false
    }

    /// Steps over the closing bracket at `i` and the space after it: whether the text ends there.
    private static func endsText(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
      i += 1
      skipSpace(b, &i)
      return i == b.count
    }

    @inline(__always)
    private static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
      while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    @inline(__always)
    private static func isNull(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
      i + 4 <= b.count && b[i] == UInt8(ascii: "n") && b[i + 1] == UInt8(ascii: "u")
        && b[i + 2] == UInt8(ascii: "l") && b[i + 3] == UInt8(ascii: "l")
    }

    /// A string starting at the quote at `i`; `i` ends after the closing quote.
    private static func string(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> String? {
      let start = i + 1
      var j = start
      while j < b.count {
        let c = b[j]
        if c == quote {
          i = j + 1
          // The text is a Swift string's UTF-8 cut at ASCII quotes, so it is valid UTF-8:
          // decoding repairs nothing and, unlike `String(validating:)`, is not generic
          // (which looked up type metadata on every string).
          return String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self)
        }
        if c == backslash { return escapedString(b, &i) }
        if c < 0x20 { return nil }  // a raw control character is not JSON
        j += 1
      }
      return nil
    }

    /// The slower path for a string with escapes (no `\u`).
    private static func escapedString(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> String? {
      var out: [UInt8] = []
      var j = i + 1
      while j < b.count {
        let c = b[j]
        if c == quote {
          i = j + 1
          return out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
        if c < 0x20 { return nil }
        if c == backslash {
          guard j + 1 < b.count else { return nil }
          // \u and anything else: Foundation's call.
          guard let byte = JSONStringLiteral.unescaped(b[j + 1]) else { return nil }
          out.append(byte)
          j += 2
          continue
        }
        out.append(c)
        j += 1
      }
      return nil
    }

    /// A plain integer (`-?[0-9]+`, no leading zeros) of magnitude at most 2^53.
    private static func integer(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int? {
      var j = i
      let negative = j < b.count && b[j] == UInt8(ascii: "-")
      if negative { j += 1 }
      let first = j
      var value = 0
      while j < b.count, b[j] >= 0x30, b[j] <= 0x39 {
        let digit = Int(b[j] - 0x30)
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
        guard !o1, !o2 else { return nil }
        value = next
        j += 1
      }
      guard j > first, !(b[first] == 0x30 && j - first > 1) else { return nil }
      // A fraction or exponent follows: not a plain integer.
      if j < b.count, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E") {
        return nil
      }
      // Foundation goes through Double: beyond 2^53 its result may differ.
      guard value.magnitude <= 1 << 53 else { return nil }
      i = j
      return value
    }
  }
}
