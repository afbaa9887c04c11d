import Foundation

/// Replaces the API key with `****` in any text about to leave the client.
///
/// The key travels inside the URL path, so every URL, every underlying error (whose
/// description may repeat the URL) and every body snippet passes through here. A server or
/// proxy may echo the key in many shapes, so the key is matched however it comes back:
/// in any letter case, with any of its characters written as a percent escape (`%41`),
/// an HTML character reference (`&#x41;`, `&#65;`, `&amp;`) or a JSON escape (`\u0041`),
/// and whatever follows it (a combining mark such as U+0301 does not hide it). Matching is
/// done on bytes, not on Swift's grapheme clusters.
///
/// ```swift
/// KeyRedactor(key: "abc123").redact("http://h/abc123/json")  // "http://h/****/json"
/// KeyRedactor(key: "abc123").redact("ABC&#x31;23\u{301}")    // "****\u{301}"
/// ```
public struct KeyRedactor: Sendable {
  /// What the key is replaced with.
  public static let mask = "****"
  /// The key's UTF-8 bytes, ASCII letters in lower case.
  private let folded: [UInt8]

  /// - Parameter key: The secret; an empty key redacts nothing.
  public init(key: String) {
    folded = key.utf8.map(Self.lower)
  }

  /// `text` with every occurrence of the key, in any of its escaped forms, replaced by
  /// ``mask``.
  public func redact(_ text: String) -> String {
    guard !folded.isEmpty else { return text }
    let source = Array(text.utf8)
    guard source.count >= folded.count else { return text }
    let decoded = Self.decode(source)
    let ranges = matches(in: decoded)
    guard !ranges.isEmpty else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(source.count)
    var position = 0
    for range in ranges {
      out.append(contentsOf: source[position..<range.lowerBound])
      out.append(contentsOf: Self.mask.utf8)
      position = range.upperBound
    }
    out.append(contentsOf: source[position...])
    return String(decoding: out, as: UTF8.self)
  }

  /// The description of `error`, redacted. URLError's description carries the failing
  /// URL (and so the key) in its user info; this is the only way such text may leave.
  public func describe(_ error: any Error) -> String {
    if let urlError = error as? URLError {
      return redact("URLError \(urlError.code.rawValue): \(urlError.localizedDescription)")
    }
    return redact(String(describing: error))
  }

  /// A short quotation of text a server sent: redacted, on one line, without control or
  /// bidirectional-formatting characters, at most `limit` characters (then `…`). A
  /// server's answer is never shown otherwise.
  public func excerpt(_ text: String, limit: Int = 120) -> String {
    let clean = String(
      String.UnicodeScalarView(
        redact(text).unicodeScalars.map { Self.isUnsafe($0) ? " " : $0 }))
    let oneLine = clean.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return oneLine.count > limit ? String(oneLine.prefix(limit)) + "…" : oneLine
  }

  /// Control characters (C0, DEL, C1), line and paragraph separators, bidirectional
  /// formatting, and the non-characters U+FFFE/U+FFFF.
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E,
      0x2066...0x2069, 0xFFFE, 0xFFFF:
      return true
    default:
      return false
    }
  }

  // MARK: - Matching

  /// One decoded byte and the source bytes it came from.
  struct Unit {
    var byte: UInt8
    var start: Int
    var end: Int
  }

  /// Source byte ranges where the decoded, case-folded text holds the key; disjoint and
  /// in order.
  private func matches(in decoded: [Unit]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    let count = folded.count
    guard decoded.count >= count else { return [] }
    var i = 0
    while i <= decoded.count - count {
      var k = 0
      while k < count, decoded[i + k].byte == folded[k] { k += 1 }
      if k == count {
        let range = decoded[i].start..<decoded[i + count - 1].end
        if let last = ranges.last, last.upperBound > range.lowerBound {
          ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
          ranges.append(range)
        }
        i += count
      } else {
        i += 1
      }
    }
    return ranges
  }

  /// The bytes of `source` with percent escapes, HTML character references and JSON
  /// escapes decoded and ASCII letters lower-cased, each tied to its source bytes.
  static func decode(_ source: [UInt8]) -> [Unit] {
    var units: [Unit] = []
    units.reserveCapacity(source.count)
    var i = 0
    while i < source.count {
      if let (bytes, length) = escape(in: source, at: i) {
        for byte in bytes { units.append(Unit(byte: lower(byte), start: i, end: i + length)) }
        i += length
      } else {
        units.append(Unit(byte: lower(source[i]), start: i, end: i + 1))
        i += 1
      }
    }
    return units
  }

  /// The bytes an escape at `i` stands for, and its length in the source.
  private static func escape(in s: [UInt8], at i: Int) -> (bytes: [UInt8], length: Int)? {
    switch s[i] {
    case UInt8(ascii: "%"):
      guard i + 2 < s.count, let high = hex(s[i + 1]), let low = hex(s[i + 2]) else { return nil }
      return ([high << 4 | low], 3)
    case UInt8(ascii: "\\"):
      guard i + 1 < s.count else { return nil }
      if s[i + 1] == UInt8(ascii: "u"), i + 5 < s.count {
        var value: UInt32 = 0
        for k in 2...5 {
          guard let digit = hex(s[i + k]) else { return nil }
          value = value << 4 | UInt32(digit)
        }
        return (utf8(value), 6)
      }
      if [UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\"")].contains(s[i + 1]) {
        return ([s[i + 1]], 2)
      }
      return nil
    case UInt8(ascii: "&"):
      guard let semicolon = s[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
      let body = Array(s[(i + 1)..<semicolon])
      let length = semicolon - i + 1
      if body.first == UInt8(ascii: "#") {
        var digits = body.dropFirst()
        var radix: UInt32 = 10
        if let x = digits.first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
          radix = 16
          digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for d in digits {
          guard let digit = hex(d), UInt32(digit) < radix, value < 0x110000 else { return nil }
          value = value * radix + UInt32(digit)
        }
        return (utf8(value), length)
      }
      let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]
      guard let byte = named[String(decoding: body, as: UTF8.self).lowercased()] else { return nil }
      return ([byte], length)
    default:
      return nil
    }
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  private static func utf8(_ value: UInt32) -> [UInt8] {
    guard let scalar = Unicode.Scalar(value) else { return [0xEF, 0xBF, 0xBD] }
    return Array(String(scalar).utf8)
  }

  private static func lower(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }

  /// RFC 3986 unreserved characters: what may stand unencoded in a path segment.
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
