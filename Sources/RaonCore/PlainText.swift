/// Whether a text can go into an output as it is, decided from its bytes.
///
/// The writers escape text (HTML entities, Markdown backslashes, a table cell's line
/// breaks). Almost every title, place and date in a catalog needs none of it, and
/// appending such a text whole is several times faster than rebuilding it (measured in
/// bench/PROFILING.md, "Round four, session 6"). So a writer asks first, and only a text
/// that fails takes the writer's own path, which then decides exactly as before.
///
/// A text is plain when it has none of the writer's `special` ASCII characters, no control
/// character (C0, DEL, C1, which covers tab, CR, LF and NEL), no line or paragraph separator
/// (U+2028, U+2029), no non-character U+FFFE or U+FFFF and, when asked, no two spaces in a
/// row.
public struct PlainText: Sendable {
  /// One bit per ASCII byte that needs the writer (bits 0–63, 64–127).
  private let low: UInt64
  private let high: UInt64
  private let spacesInARow: Bool

  /// - Parameters:
  ///   - special: The ASCII characters the writer rewrites, besides the controls.
  ///   - spacesInARow: Whether two spaces in a row need the writer (HTML collapses them).
  public init(special: String, spacesInARow: Bool = false) {
    var low: UInt64 = 0xFFFF_FFFF  // C0 controls
    var high: UInt64 = 1 << 63  // DEL
    for byte in special.utf8 {
      precondition(byte < 0x80, "special characters are ASCII")
      if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }
    self.low = low
    self.high = high
    self.spacesInARow = spacesInARow
  }

  /// Whether `text` needs nothing from the writer (see the type's description).
  public func isPlain(_ text: String) -> Bool {
    UTF8Scanning.withBytes(text) { bytes -> Bool in
      let n = bytes.count
      var i = 0
      while i < n {
        let b = bytes[i]
        if b < 0x80 {
          if b < 64 ? low & (1 << UInt64(b)) != 0 : high & (1 << UInt64(b - 64)) != 0 { return false }
          if spacesInARow, b == 0x20, i + 1 < n, bytes[i + 1] == 0x20 { return false }
        } else if Self.sequence(bytes, at: i) != nil {
          return false
        }
        i += 1
      }
      return true
    }
  }

  /// What a non-ASCII scalar is to a writer, when it is anything.
  public enum Sequence: Sendable {
    /// A C1 control (U+0080–U+009F) or a non-character (U+FFFE, U+FFFF): written as U+FFFD.
    case unsafe
    /// A line or paragraph separator (U+2028, U+2029): a line break.
    case separator
  }

  /// The scalar whose UTF-8 starts at `bytes[i]`, with its length in bytes, when it is a
  /// ``Sequence``; `nil` for any other (and for ASCII). The escaping writers read bytes,
  /// and these are the only non-ASCII scalars their rules name.
  @inline(__always)
  public static func sequence(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Sequence, length: Int)? {
    let n = bytes.count
    switch bytes[i] {
    case 0xC2 where i + 1 < n && bytes[i + 1] < 0xA0: return (.unsafe, 2)
    case 0xE2 where i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
      return (.separator, 3)
    case 0xEF where i + 2 < n && bytes[i + 1] == 0xBF && bytes[i + 2] >= 0xBE: return (.unsafe, 3)
    default: return nil
    }
  }
}
