#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Converts UTF-8 bytes to CP949 with the C library's iconv, writing `?` for every
/// character CP949 cannot hold and counting them, so the user can be told how many.
///
/// Not thread-safe (an iconv descriptor carries state); one per file being written.
final class CP949Converter {
  private let descriptor: iconv_t
  /// Characters written as `?` so far.
  private(set) var replacements = 0

  init() throws {
    let cd = iconv_open("CP949", "UTF-8")
    // iconv_open signals failure with (iconv_t)-1, not with NULL.
    guard let cd, Int(bitPattern: cd) != -1 else {
      throw TextExportError.encoderUnavailable(encoding: "CP949")
    }
    descriptor = cd
  }

  deinit { iconv_close(descriptor) }

  /// CP949 forms for punctuation it lacks, by UTF-8 bytes: the dashes Raon's own labels
  /// use (`2–7 days`) and their relatives, so they never become `?`.
  static let substitutes: [[UInt8]: [UInt8]] = [
    [0xE2, 0x80, 0x90]: [0x2D],  // U+2010 hyphen → -
    [0xE2, 0x80, 0x91]: [0x2D],  // U+2011 non-breaking hyphen → -
    [0xE2, 0x80, 0x92]: [0x2D],  // U+2012 figure dash → -
    [0xE2, 0x80, 0x93]: [0x2D],  // U+2013 en dash → -
    [0xE2, 0x80, 0x94]: [0xA1, 0xAA],  // U+2014 em dash → U+2015 ―
    [0xE2, 0x88, 0x92]: [0x2D],  // U+2212 minus → -
  ]

  /// Converts `utf8`, which must end on a character boundary (writers pass whole rows).
  func convert(_ utf8: [UInt8]) -> [UInt8] {
    guard !utf8.isEmpty else { return [] }
    var input = utf8
    // CP949 never needs more bytes than UTF-8 for the same text (ASCII 1→1, others 2 ≤ 2…4).
    var output = [UInt8](repeating: 0, count: utf8.count + 16)
    var written = 0
    input.withUnsafeMutableBufferPointer { inBuf in
      guard let inBase = inBuf.baseAddress else { return }
      var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBase)
        .assumingMemoryBound(to: CChar.self)
      var inLeft = inBuf.count
      while inLeft > 0 {
        let (result, error): (Int, Int32) = output.withUnsafeMutableBufferPointer { outBuf in
          guard let outBase = outBuf.baseAddress else { return (0, 0) }
          var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBase + written)
            .assumingMemoryBound(to: CChar.self)
          var outLeft = outBuf.count - written
          let before = outLeft
          let r = iconv(descriptor, &inPtr, &inLeft, &outPtr, &outLeft)
          written += before - outLeft
          return (r, r == -1 ? errno : 0)
        }
        if result != -1 { break }
        if error == E2BIG {
          output.append(contentsOf: [UInt8](repeating: 0, count: max(64, inLeft * 2)))
          continue
        }
        // EILSEQ (no CP949 form, or invalid UTF-8) or EINVAL (cut sequence): write a
        // CP949 look-alike when there is one, else '?', and step over one UTF-8 sequence.
        guard let at = inPtr else { break }
        let lead = UInt8(bitPattern: at.pointee)
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let skip = min(max(1, length), inLeft)
        let sequence = (0..<skip).map { UInt8(bitPattern: at[$0]) }
        inPtr = at + skip
        inLeft -= skip
        if let substitute = Self.substitutes[sequence] {
          while written + substitute.count > output.count { output.append(0) }
          for byte in substitute {
            output[written] = byte
            written += 1
          }
          continue
        }
        if written == output.count { output.append(0) }
        output[written] = UInt8(ascii: "?")
        written += 1
        replacements += 1
      }
    }
    output.removeSubrange(written...)
    return output
  }
}
