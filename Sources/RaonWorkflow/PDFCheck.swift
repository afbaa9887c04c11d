import Foundation

/// Whether a PDF Chromium gave is whole: a Chromium that wrote only the first 20,000 bytes
/// of a real PDF and exited 0 had it published (issue 27).
///
/// Whole means: the `%PDF-` header; within the last kilobyte a `startxref` whose offset
/// lies inside the file and points at a cross-reference table or stream, followed by the
/// `%%EOF` marker; and a page tree (`/Type /Pages`) whose `/Count` is above zero.
enum PDFCheck {
  static func isWhole(_ pdf: Data) -> Bool {
    let bytes = [UInt8](pdf)
    guard bytes.starts(with: Array("%PDF-".utf8)) else { return false }
    let tail = Array(bytes.suffix(1024))
    guard let eof = lastRange(of: "%%EOF", in: tail), let startxref = lastRange(of: "startxref", in: tail),
      startxref.upperBound <= eof.lowerBound
    else { return false }
    // The offset between `startxref` and `%%EOF`.
    let digits = tail[startxref.upperBound..<eof.lowerBound].filter { $0 >= 0x30 && $0 <= 0x39 }
    guard !digits.isEmpty, digits.count <= 15, let offset = Int(String(decoding: digits, as: UTF8.self)),
      offset < bytes.count
    else { return false }
    let target = bytes[offset...].prefix(4)
    guard target.elementsEqual("xref".utf8) || target.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true else {
      return false
    }
    return pageCount(bytes) > 0
  }

  /// The `/Count` of the first page tree node (`/Type /Pages`), or 0.
  static func pageCount(_ bytes: [UInt8]) -> Int {
    guard let pages = firstRange(of: "/Type /Pages", in: bytes) ?? firstRange(of: "/Type/Pages", in: bytes),
      let count = firstRange(of: "/Count", in: bytes, from: pages.upperBound),
      count.lowerBound - pages.upperBound < 4096
    else { return 0 }
    var i = count.upperBound
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    var n = 0
    while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, n < 1_000_000 {
      n = n * 10 + Int(bytes[i] - 0x30)
      i += 1
    }
    return n
  }

  private static func firstRange(of text: String, in bytes: [UInt8], from start: Int = 0) -> Range<Int>? {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
    for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] {
      if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
    }
    return nil
  }

  private static func lastRange(of text: String, in bytes: [UInt8]) -> Range<Int>? {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return nil }
    for i in stride(from: bytes.count - needle.count, through: 0, by: -1) where bytes[i] == needle[0] {
      if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
    }
    return nil
  }
}
