import Foundation

// Finding a report page's markup (`<main>`, `<section id="s1"`, `</style>`) by its bytes,
// where the site puts its navigation into a week's pages and takes page 1 for its home.
// Foundation's `range(of:)` compares by composed characters through UTF-16, slow on a page
// of Korean text; markup is ASCII and matched literally, so a byte search finds the same
// places.

extension StringProtocol {
  /// The first place `markup` (ASCII) stands, by its bytes.
  func firstRange(ofMarkup markup: String) -> Range<String.Index>? {
    byteOffsets(of: markup)
  }

  /// The text between the places `markup` stands (as `components(separatedBy:)`).
  func components(separatedByMarkup markup: String) -> [Substring] {
    var parts: [Substring] = []
    var rest = self[...]
    while let found = rest.firstRange(ofMarkup: markup) {
      parts.append(Substring(rest[..<found.lowerBound]))
      rest = rest[found.upperBound...]
    }
    parts.append(Substring(rest))
    return parts
  }

  /// The text with every `markup` replaced by `replacement`.
  func replacing(markup: String, with replacement: String) -> String {
    components(separatedByMarkup: markup).joined(separator: replacement)
  }

  private func byteOffsets(of markup: String) -> Range<String.Index>? {
    let needle = Array(markup.utf8)
    let bytes = utf8
    // Native strings are contiguous UTF-8; anything else is searched in a copy.
    let offset =
      bytes.withContiguousStorageIfAvailable { Self.search(needle, in: $0) }
      ?? Array(bytes).withUnsafeBufferPointer { Self.search(needle, in: $0) }
    guard let offset else { return nil }
    let lower = bytes.index(bytes.startIndex, offsetBy: offset)
    return lower..<bytes.index(lower, offsetBy: needle.count)
  }

  private static func search(_ needle: [UInt8], in h: UnsafeBufferPointer<UInt8>) -> Int? {
    needle.withUnsafeBufferPointer { n -> Int? in
      guard let base = h.baseAddress, let key = n.baseAddress, n.count > 0, h.count >= n.count else { return nil }
      // The needle's first byte by memchr, then the rest compared.
      var from = 0
      while from <= h.count - n.count,
        let hit = memchr(base + from, Int32(key.pointee), h.count - n.count + 1 - from)
      {
        let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if memcmp(base + at, key, n.count) == 0 { return at }
        from = at + 1
      }
      return nil
    }
  }
}
