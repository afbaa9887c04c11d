/// Small byte-level helpers shared by the catalog parsers.
///
/// The parsers run once per field of up to a million records, so they read UTF-8 bytes
/// directly instead of going through `Character`s, regular expressions or Foundation.
enum UTF8Scanning {
  /// Runs `body` over the string's UTF-8 bytes, without copying a native string.
  @inline(__always)
  static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    // Only bridged or otherwise non-contiguous strings get here; make them contiguous.
    var copy = text
    return copy.withUTF8(body)
  }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  /// Whether the bytes at `index` are exactly `pattern` (which must be non-empty).
  @inline(__always)
  static func matches(
    _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: StaticBytes
  ) -> Bool {
    let count = pattern.count
    guard index >= 0, index + count <= bytes.count else { return false }
    if bytes[index] != pattern.b0 { return false }
    if count > 1, bytes[index + 1] != pattern.b1 { return false }
    if count > 2, bytes[index + 2] != pattern.b2 { return false }
    return true
  }

  /// The length in bytes of a space at `index` (ASCII space or tab, NBSP, ideographic
  /// space), or 0 when there is none.
  @inline(__always)
  static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    guard index < bytes.count else { return 0 }
    let b = bytes[index]
    if b == 0x20 || b == 0x09 { return 1 }
    if b == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 { return 2 }
    if b == 0xE3, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0x80 {
      return 3
    }
    return 0
  }

  /// The first index at or after `index` that is not a space.
  @inline(__always)
  static func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
    var i = index
    while true {
      let n = spaceLength(bytes, at: i)
      if n == 0 { return i }
      i += n
    }
  }
}

/// Up to three bytes to compare against, without allocating an array per comparison.
struct StaticBytes {
  let count: Int
  let b0: UInt8
  let b1: UInt8
  let b2: UInt8

  init(_ b0: UInt8) { (count, self.b0, b1, b2) = (1, b0, 0, 0) }
  init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) { (count, self.b0, self.b1, self.b2) = (3, b0, b1, b2) }
}

/// The UTF-8 bytes of the few Korean and typographic characters the parsers look for.
enum Glyph {
  static let won = StaticBytes(0xEC, 0x9B, 0x90)  // 원
  static let man = StaticBytes(0xEB, 0xA7, 0x8C)  // 만 (ten thousand)
  static let cheon = StaticBytes(0xEC, 0xB2, 0x9C)  // 천 (thousand)
  static let mu = StaticBytes(0xEB, 0xAC, 0xB4)  // 무
  static let ryo = StaticBytes(0xEB, 0xA3, 0x8C)  // 료
  static let wonSign = StaticBytes(0xE2, 0x82, 0xA9)  // ₩
  static let fullwidthWonSign = StaticBytes(0xEF, 0xBF, 0xA6)  // ￦
  static let fullwidthTilde = StaticBytes(0xEF, 0xBD, 0x9E)  // ～
  static let waveDash = StaticBytes(0xE3, 0x80, 0x9C)  // 〜
  static let enDash = StaticBytes(0xE2, 0x80, 0x93)  // –
  static let year = StaticBytes(0xEB, 0x85, 0x84)  // 년
  static let month = StaticBytes(0xEC, 0x9B, 0x94)  // 월
  static let day = StaticBytes(0xEC, 0x9D, 0xBC)  // 일
  static let prime = StaticBytes(0xE2, 0x80, 0xB2)  // ′
  static let doublePrime = StaticBytes(0xE2, 0x80, 0xB3)  // ″
}
