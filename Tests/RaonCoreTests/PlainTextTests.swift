import TestSupport
import Testing

@testable import RaonCore

/// ``PlainText`` answers from bytes what a scalar-by-scalar look would: a text is plain
/// when it has none of the special ASCII characters, no control (C0, DEL, C1), no U+2028
/// or U+2029, no U+FFFE or U+FFFF and, when asked, no two spaces in a row.
@Suite("Plain text")
struct PlainTextTests {
  static let alphabet: [Unicode.Scalar] = [
    "a", "Z", "0", " ", "&", "<", ">", "\"", "|", "\\", "\t", "\n", "\r", "\u{01}", "\u{7F}",
    "가", "힣", "\u{0085}", "\u{009B}", "\u{00A0}", "é", "\u{0301}", "\u{2028}", "\u{2029}",
    "\u{2027}", "\u{202A}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{FFBE}", "😀", "\u{3000}",
  ]

  /// The scalar-level reading of the rule, written independently of the byte scan.
  static func isPlainByScalars(_ text: String, special: Set<Unicode.Scalar>, spacesInARow: Bool) -> Bool {
    var previous: Unicode.Scalar? = nil
    for s in text.unicodeScalars {
      if special.contains(s) { return false }
      switch s.value {
      case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF: return false
      default: break
      }
      if spacesInARow, s == " ", previous == " " { return false }
      previous = s
    }
    return true
  }

  @Test func theByteScanAgreesWithTheScalarRule() {
    var generator = SplitMix64(seed: 0x9A1)
    let cases: [(String, Bool)] = [("&<>\"", true), ("\\|*_`[]<&", false), ("", false)]
    var plain = 0
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...10, using: &generator)
      // Half the texts from letters alone, so plain texts are common enough to count.
      let letters = Bool.random(using: &generator) ? ["a", "Z", "0", " ", "가", "힣", "é", "😀"] : Self.alphabet
      let text = String(String.UnicodeScalarView((0..<length).map { _ in letters.randomElement(using: &generator)! }))
      for (special, spaces) in cases {
        let scan = PlainText(special: special, spacesInARow: spaces)
        let expected = Self.isPlainByScalars(text, special: Set(special.unicodeScalars), spacesInARow: spaces)
        #expect(scan.isPlain(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) }) \(special)")
        if expected { plain += 1 }
      }
    }
    #expect(plain > 10_000)
  }

  @Test func eachKindOfScalarThatNeedsTheWriter() {
    let html = PlainText(special: "&<>\"", spacesInARow: true)
    #expect(html.isPlain("서울시립미술관 A-1 (무료) 😀 \u{00A0}"))
    for text in ["R&B", "<햄릿>", "a\"b", "a  b", "a\tb", "a\nb", "\u{1B}[31m", "\u{7F}", "a\u{85}b", "a\u{2028}b", "\u{FFFE}"] {
      #expect(!html.isPlain(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
    #expect(PlainText(special: "").isPlain("a  b"))
    #expect(PlainText(special: "").isPlain("R&B <햄릿>"))
  }
}
