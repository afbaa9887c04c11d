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
        // EILSEQ (no CP949 form, or invalid UTF-8) or EINVAL (cut sequence): write '?'
        // and step over one UTF-8 sequence.
        guard let at = inPtr else { break }
        let lead = UInt8(bitPattern: at.pointee)
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let skip = min(max(1, length), inLeft)
        inPtr = at + skip
        inLeft -= skip
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
