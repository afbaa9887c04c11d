/// A program's identity across snapshots.
///
/// The portal URL's `cultcode=NNNNNN` is the only stable identity the catalog has; when it
/// is absent, the id is `h:` + the first 16 hex digits of SHA-256 over title, place and
/// start date (joined with U+001F, the start date as `YYYY-MM-DD` or empty).
public enum ProgramID {
  /// `cult:NNNNNN` when a `cultcode=` with digits appears in the text.
  public static func fromPortalURL(_ url: String) -> String? {
    // Scanned on bytes: this runs once per record of up to a million.
    let key = cultcodeKey
    return UTF8Scanning.withBytes(url) { bytes -> String? in
      guard bytes.count > key.count else { return nil }
      var i = 0
      search: while i + key.count <= bytes.count {
        for k in 0..<key.count where bytes[i + k] != key[k] {
          i += 1
          continue search
        }
        // Only the first `cultcode=` counts, as before.
        var j = i + key.count
        while j < bytes.count, UTF8Scanning.isDigit(bytes[j]) { j += 1 }
        guard j > i + key.count else { return nil }
        let digits = UnsafeBufferPointer(rebasing: bytes[(i + key.count)..<j])
        return "cult:" + String(decoding: digits, as: UTF8.self)
      }
      return nil
    }
  }

  private static let cultcodeKey: [UInt8] = Array("cultcode=".utf8)

  /// The hashed fallback id.
  public static func hashed(title: String, place: String, startDate: CalendarDay?) -> String {
    let text = title + "\u{1F}" + place + "\u{1F}" + (startDate?.description ?? "")
    return "h:" + SHA256.hex(text).prefix(16)
  }
}
