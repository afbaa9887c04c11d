import Foundation

// Finding the page's own markup (`<h2>`, `</table>`, …) by its bytes. Foundation's
// `range(of:)` compares by composed characters through UTF-16, which on a page of Korean
// text took most of a weekly report's time (`--format md,html` at 20,000 programs,
// `perf`); markup is ASCII and matched literally, so a byte search finds the same places.

extension StringProtocol {
  /// The first place `markup` (ASCII) stands, by its bytes.
  func firstRange(ofMarkup markup: String) -> Range<String.Index>? {
    byteOffsets(of: markup, last: false)
  }

  /// The last place `markup` (ASCII) stands, by its bytes.
  func lastRange(ofMarkup markup: String) -> Range<String.Index>? {
    byteOffsets(of: markup, last: true)
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

  private func byteOffsets(of markup: String, last: Bool) -> Range<String.Index>? {
    let needle = Array(markup.utf8)
    let bytes = utf8
    // Native strings are contiguous UTF-8; anything else is searched in a copy.
    let offset =
      bytes.withContiguousStorageIfAvailable { Self.search(needle, in: $0, last: last) }
      ?? Array(bytes).withUnsafeBufferPointer { Self.search(needle, in: $0, last: last) }
    guard let offset else { return nil }
    let lower = bytes.index(bytes.startIndex, offsetBy: offset)
    return lower..<bytes.index(lower, offsetBy: needle.count)
  }

  private static func search(_ needle: [UInt8], in h: UnsafeBufferPointer<UInt8>, last: Bool) -> Int? {
    needle.withUnsafeBufferPointer { n -> Int? in
      guard let base = h.baseAddress, let key = n.baseAddress, n.count > 0, h.count >= n.count else { return nil }
      // The needle's first byte by memchr, then the rest compared.
      var from = 0
      var found: Int?
      while from <= h.count - n.count,
        let hit = memchr(base + from, Int32(key.pointee), h.count - n.count + 1 - from)
      {
        let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if memcmp(base + at, key, n.count) == 0 {
          found = at
          if !last { break }
        }
        from = at + 1
      }
      return found
    }
  }
}
