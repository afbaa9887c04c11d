/// Finds a line in another encoding than the rest of its file: CP949 rows after a UTF-8
/// header (the file then has a byte-order mark or valid UTF-8 lines first), or UTF-8 rows
/// in a CP949 file. Decoded either way, every row of the other encoding comes out
/// garbled, so ``CatalogTextDecoder`` refuses such a file rather than record it.
///
/// A stray invalid byte is not a second encoding: the portal's own CP949 download has one
/// inside a URL, and a UTF-8 file with a damaged byte is still UTF-8. A line counts as
/// CP949 only when it is entirely well-formed CP949 with at least two double-byte
/// characters, mostly Hangul (``readsAsCP949(_:)``), and is not UTF-8; as UTF-8 only when it is entirely well-formed UTF-8 with a
/// character of three bytes or more (all Hangul is), which a CP949 line of Korean text
/// never is.
enum MixedEncodingCheck {
  /// Where the encodings meet: the 1-based line in the other encoding.
  struct Finding: Equatable {
    var line: Int
    /// The encoding of that line (`"CP949"` or `"UTF-8"`).
    var lineEncoding: String
  }

  /// In a file marked UTF-8 (a byte-order mark, stripped from `bytes`) whose text is not
  /// all UTF-8: the first line that reads as CP949.
  static func cp949Line(inUTF8 bytes: UnsafeBufferPointer<UInt8>, from firstInvalid: Int) -> Finding? {
    var invalid: Int? = firstInvalid
    while let at = invalid {
      let line = lineBounds(bytes, around: at)
      if readsAsCP949(UnsafeBufferPointer(rebasing: bytes[line])) {
        return Finding(line: lineNumber(bytes, at: at), lineEncoding: "CP949")
      }
      guard line.upperBound < bytes.count else { return nil }
      let rest = UnsafeBufferPointer(rebasing: bytes[line.upperBound...])
      invalid = CatalogTextDecoder.firstInvalidUTF8(rest).map { $0 + line.upperBound }
    }
    return nil
  }

  /// In a file being read as CP949 (`firstInvalid` is its first byte that is not UTF-8):
  /// the first CP949 line when whole UTF-8 lines come before it, else the first line that
  /// holds one of `replaced` (input offsets where CP949 decoding failed) and is UTF-8.
  static func utf8Lines(
    inCP949 bytes: UnsafeBufferPointer<UInt8>, firstInvalid: Int, replaced: [Int]
  ) -> Finding? {
    let firstLine = lineBounds(bytes, around: firstInvalid)
    if hasLongUTF8Sequence(UnsafeBufferPointer(rebasing: bytes[..<firstLine.lowerBound])) {
      return Finding(line: lineNumber(bytes, at: firstInvalid), lineEncoding: "CP949")
    }
    var checkedUpTo = -1
    for offset in replaced where offset >= checkedUpTo {
      let line = lineBounds(bytes, around: offset)
      checkedUpTo = line.upperBound
      let text = UnsafeBufferPointer(rebasing: bytes[line])
      if CatalogTextDecoder.firstInvalidUTF8(text) == nil, hasLongUTF8Sequence(text) {
        return Finding(line: lineNumber(bytes, at: offset), lineEncoding: "UTF-8")
      }
    }
    return nil
  }

  // MARK: - Lines and bytes

  /// The line holding `offset`, without its line feed.
  private static func lineBounds(_ bytes: UnsafeBufferPointer<UInt8>, around offset: Int) -> Range<Int> {
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    var end = offset
    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
    return start..<end
  }

  private static func lineNumber(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
    UnsafeBufferPointer(rebasing: bytes[..<offset]).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
  }

  /// Whether `bytes` hold a UTF-8 lead byte of a 3- or 4-byte sequence (they are known to
  /// be UTF-8 here).
  private static func hasLongUTF8Sequence(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.contains { $0 >= 0xE0 && $0 <= 0xF4 }
  }

  /// Whether the line is well-formed CP949 (a lead 0x81–0xFE; trails 0x41–0x5A, 0x61–0x7A,
  /// 0x81–0xFE after leads up to 0xC6, and 0xA1–0xFE after the others) with at least two
  /// double-byte characters, at least half of them KS X 1001 Hangul (lead 0xB0–0xC8, trail
  /// 0xA1–0xFE), as Korean text is: UTF-8 Hangul read from a stray byte on can pass as
  /// CP949, but as Hanja and rare syllables, not as the common ones.
  static func readsAsCP949(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var pairs = 0
    var hangul = 0
    var i = 0
    while i < bytes.count {
      let lead = bytes[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      guard lead >= 0x81, lead <= 0xFE, i + 1 < bytes.count else { return false }
      let trail = bytes[i + 1]
      let valid =
        lead <= 0xC6
        ? (0x41...0x5A).contains(trail) || (0x61...0x7A).contains(trail) || (0x81...0xFE).contains(trail)
        : (0xA1...0xFE).contains(trail)
      guard valid else { return false }
      pairs += 1
      if (0xB0...0xC8).contains(lead), trail >= 0xA1 { hangul += 1 }
      i += 2
    }
    return pairs >= 2 && hangul * 2 >= pairs
  }
}
