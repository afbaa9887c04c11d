import Foundation
import RaonErrors

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The encoding a catalog file turned out to be in.
public enum SourceEncoding: String, Sendable, Hashable {
  /// UTF-8 without a byte-order mark.
  case utf8
  /// UTF-8 that started with the byte-order mark EF BB BF (stripped from the text).
  case utf8WithBOM
  /// Korean Windows code page 949 (a superset of EUC-KR), the portal's CSV download.
  case cp949
}

/// A source's text as UTF-8 bytes, with the places where undecodable bytes were replaced.
public struct DecodedText: Sendable {
  /// The text as UTF-8, without a byte-order mark. Always valid UTF-8.
  public var utf8: [UInt8]
  /// The encoding the source was decoded from.
  public var encoding: SourceEncoding
  /// Offsets into ``utf8`` (ascending) where U+FFFD (EF BF BD) was inserted in place of
  /// an undecodable input byte. A U+FFFD the source itself contained is not listed.
  public var replacementOffsets: [Int]

  public init(utf8: [UInt8], encoding: SourceEncoding, replacementOffsets: [Int] = []) {
    self.utf8 = utf8
    self.encoding = encoding
    self.replacementOffsets = replacementOffsets
  }

  /// The text as a Swift string.
  public var string: String { String(decoding: utf8, as: UTF8.self) }
}

/// Why a source's bytes could not be turned into text.
public enum TextDecodingError: RaonError, CustomStringConvertible, Equatable {
  /// The C library has no CP949 converter (glibc's gconv modules are missing).
  case converterUnavailable(source: String)
  /// The converter failed for a reason other than an invalid byte.
  case conversionFailed(source: String, byteOffset: Int, errno: Int32)
  /// One file in two encodings: `line` is in `lineEncoding`, the lines before it (or the
  /// byte-order mark) in the other (``MixedEncodingCheck``).
  case mixedEncodings(source: String, line: Int, lineEncoding: String, fileEncoding: String)

  public var description: String {
    switch self {
    case .converterUnavailable(let source):
      return "\(source): cannot decode CP949 text because the system's iconv has no CP949 "
        + "converter; install glibc's gconv modules (Debian/Ubuntu: libc6 with "
        + "/usr/lib/x86_64-linux-gnu/gconv/UHC.so) or convert the file to UTF-8 first"
    case .conversionFailed(let source, let offset, let code):
      return "\(source): decoding CP949 failed at byte \(offset) (errno \(code)); "
        + "convert the file to UTF-8 and try again"
    case .mixedEncodings(let source, let line, let lineEncoding, let fileEncoding):
      return "\(source):\(line): this line is \(lineEncoding) but the file is \(fileEncoding) — one file in two "
        + "encodings would be read garbled, so nothing was recorded; save the whole file in one encoding "
        + "(UTF-8 or CP949) and try again"
    }
  }
}

/// Turns a catalog file's bytes into UTF-8 text.
///
/// - UTF-8 with a byte-order mark: the mark is stripped; should the rest not be valid
///   UTF-8, each invalid byte becomes U+FFFD (the mark says the file *is* UTF-8, so
///   reading it as CP949 would only make things worse).
/// - Valid UTF-8: used as is.
/// - Anything else: CP949 through the C library's iconv. An invalid or incomplete
///   sequence becomes one U+FFFD and decoding resumes at the *next* byte, which is what
///   Python's `bytes.decode("cp949", errors="replace")` does. iconv is used rather than
///   Foundation because Foundation's CP949 decoding returns nil for the whole file on a
///   single bad byte, and iconv's "EUC-KR" silently drops bytes of CP949's extra
///   syllables.
///
/// ```swift
/// let text = try CatalogTextDecoder.decode(bytes, source: "events.csv")
/// text.replacementOffsets  // where U+FFFD was inserted, for flagging records
/// ```
public enum CatalogTextDecoder {
  /// Decodes `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: The source's raw bytes.
  ///   - source: The file name, for error messages.
  /// - Returns: The text as UTF-8 with the replacement offsets.
  /// - Throws: ``TextDecodingError`` when no CP949 converter is available.
  public static func decode(_ bytes: [UInt8], source: String) throws -> DecodedText {
    try bytes.withUnsafeBytes { try decode(buffer: $0, source: source) }
  }

  /// Decodes `data`; see ``decode(_:source:)-(_,_)``.
  public static func decode(_ data: Data, source: String) throws -> DecodedText {
    try data.withUnsafeBytes { try decode(buffer: $0, source: source) }
  }

  static func decode(buffer: UnsafeRawBufferPointer, source: String) throws -> DecodedText {
    let bytes = buffer.bindMemory(to: UInt8.self)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      let rest = UnsafeBufferPointer(rebasing: bytes[3...])
      guard let invalid = firstInvalidUTF8(rest) else {
        return DecodedText(utf8: Array(rest), encoding: .utf8WithBOM)
      }
      if let mixed = MixedEncodingCheck.cp949Line(inUTF8: rest, from: invalid) {
        throw TextDecodingError.mixedEncodings(
          source: source, line: mixed.line, lineEncoding: mixed.lineEncoding,
          fileEncoding: "UTF-8 (it starts with a UTF-8 byte-order mark)")
      }
      let (utf8, offsets) = repairUTF8(rest)
      return DecodedText(utf8: utf8, encoding: .utf8WithBOM, replacementOffsets: offsets)
    }
    guard let invalid = firstInvalidUTF8(bytes) else {
      return DecodedText(utf8: Array(bytes), encoding: .utf8)
    }
    var replaced: [Int] = []
    let decoded = try decodeCP949(bytes, source: source, replacedInputOffsets: &replaced)
    if let mixed = MixedEncodingCheck.utf8Lines(inCP949: bytes, firstInvalid: invalid, replaced: replaced) {
      throw TextDecodingError.mixedEncodings(
        source: source, line: mixed.line, lineEncoding: mixed.lineEncoding,
        fileEncoding: mixed.lineEncoding == "CP949" ? "UTF-8 up to there" : "CP949")
    }
    return decoded
  }

  // MARK: - UTF-8

  /// The offset of the first byte that does not start a well-formed UTF-8 sequence.
  static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var i = 0
    let n = bytes.count
    while i < n {
      // ASCII fast path, eight bytes at a time: catalogs are mostly ASCII punctuation,
      // digits and URLs between the Hangul.
      while i + 8 <= n {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
      }
      guard i < n else { return nil }
      let length = sequenceLength(bytes, at: i)
      if length == 0 { return i }
      i += length
    }
    return nil
  }

  /// Checks the sequences of `bytes` that start in `from..<until`; returns the offset after
  /// the last one (≥ `until`), or `nil` at the first invalid one.
  static func validUTF8Prefix(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, until: Int) -> Int? {
    guard let base = bytes.baseAddress else { return from }
    var i = from
    while i < until {
      while i + 8 <= until {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
      }
      guard i < until else { break }
      let length = sequenceLength(bytes, at: i)
      if length == 0 { return nil }
      i += length
    }
    return i
  }

  /// The length of the well-formed UTF-8 sequence starting at `i`, or 0 if there is none.
  @inline(__always)
  static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let n = b.count
    let c = b[i]
    if c < 0x80 { return 1 }
    func cont(_ k: Int) -> Bool { i + k < n && b[i + k] & 0xC0 == 0x80 }
    switch c {
    case 0xC2...0xDF:
      return cont(1) ? 2 : 0
    case 0xE0:
      return i + 1 < n && (0xA0...0xBF).contains(b[i + 1]) && cont(2) ? 3 : 0
    case 0xE1...0xEC, 0xEE...0xEF:
      return cont(1) && cont(2) ? 3 : 0
    case 0xED:
      // Excludes the UTF-16 surrogates D800–DFFF.
      return i + 1 < n && (0x80...0x9F).contains(b[i + 1]) && cont(2) ? 3 : 0
    case 0xF0:
      return i + 1 < n && (0x90...0xBF).contains(b[i + 1]) && cont(2) && cont(3) ? 4 : 0
    case 0xF1...0xF3:
      return cont(1) && cont(2) && cont(3) ? 4 : 0
    case 0xF4:
      return i + 1 < n && (0x80...0x8F).contains(b[i + 1]) && cont(2) && cont(3) ? 4 : 0
    default:
      return 0
    }
  }

  /// Copies UTF-8, replacing each byte that starts no well-formed sequence with U+FFFD.
  static func repairUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> ([UInt8], [Int]) {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 16)
    var offsets: [Int] = []
    var i = 0
    while i < bytes.count {
      let length = sequenceLength(bytes, at: i)
      if length == 0 {
        offsets.append(out.count)
        out.append(contentsOf: replacementCharacter)
        i += 1
      } else {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]))
        i += length
      }
    }
    return (out, offsets)
  }

  static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

  // MARK: - CP949

  /// Decodes CP949; `replacedInputOffsets` gets the offset of every input byte replaced.
  static func decodeCP949(
    _ bytes: UnsafeBufferPointer<UInt8>, source: String, replacedInputOffsets: inout [Int]
  ) throws -> DecodedText {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      return DecodedText(utf8: [], encoding: .cp949)
    }
    let converter: iconv_t? = iconv_open("UTF-8", "CP949")
    guard let converter, converter != iconv_t(bitPattern: -1) else {
      throw TextDecodingError.converterUnavailable(source: source)
    }
    defer { iconv_close(converter) }

    // CP949 is at most 2 bytes per character and UTF-8 at most 3 for the BMP, so 1.5×
    // holds everything valid; replacements (1 byte → 3) grow the buffer on demand.
    var capacity = bytes.count + bytes.count / 2 + 16
    var output = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { output.deallocate() }
    var written = 0
    var offsets: [Int] = []

    func grow(toAtLeast needed: Int) {
      var newCapacity = capacity * 2
      while newCapacity < needed { newCapacity *= 2 }
      let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      bigger.update(from: output, count: written)
      output.deallocate()
      output = bigger
      capacity = newCapacity
    }

    let start = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
    var inPointer: UnsafeMutablePointer<CChar>? = start
    var inLeft = bytes.count
    while inLeft > 0 {
      var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(output + written)
        .assumingMemoryBound(to: CChar.self)
      var outLeft = capacity - written
      let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
      written = capacity - outLeft
      if result != -1 { break }
      let code = errno
      switch code {
      case E2BIG:
        grow(toAtLeast: capacity + 64)
      case EILSEQ, EINVAL:
        // Replace ONE byte and resume after it, as Python's errors="replace" does: a
        // stray lead byte must not swallow the ASCII character behind it.
        if written + 3 > capacity { grow(toAtLeast: written + 3) }
        offsets.append(written)
        replacedInputOffsets.append(inPointer.map { $0 - start } ?? 0)
        (output + written).update(from: replacementCharacter, count: 3)
        written += 3
        inPointer = inPointer.map { $0 + 1 }
        inLeft -= 1
        _ = iconv(converter, nil, nil, nil, nil)  // back to the initial state
      default:
        let offset = inPointer.map { $0 - start } ?? 0
        throw TextDecodingError.conversionFailed(source: source, byteOffset: offset, errno: code)
      }
    }
    let utf8 = Array(UnsafeBufferPointer(start: output, count: written))
    return DecodedText(utf8: utf8, encoding: .cp949, replacementOffsets: offsets)
  }
}

extension TextDecodingError {
  public var exitStatus: ExitStatus {
    switch self {
    case .converterUnavailable, .conversionFailed, .mixedEncodings: .failure
    }
  }
}
