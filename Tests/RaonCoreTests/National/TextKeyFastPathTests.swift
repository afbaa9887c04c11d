import TestSupport
import Testing

@testable import RaonCore

/// `TextKey.fold` skips Foundation's NFKC for text of ASCII and Hangul syllables alone;
/// on any text it must equal the fold by NFKC and Unicode properties.
@Suite("Text key fast path")
struct TextKeyFastPathTests {
  /// Scalars that NFKC leaves, drops or changes: ASCII (letters, digits, controls, space),
  /// Hangul syllables, conjoining jamo (which compose with a syllable), full-width letters,
  /// ideographic space, zero-width space, a BOM, NBSP, a circled digit, a middle dot.
  static let alphabet: [Unicode.Scalar] = [
    "A", "z", "Q", "0", "7", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{01}", "\u{1F}", "\u{7F}",
    "<", ">", "(", "~", "가", "힣", "각", "나", "\u{1100}", "\u{1161}", "\u{11A8}", "Ａ", "ｚ",
    "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{00A0}", "①", "·", "\u{0085}", "é", "e", "\u{0301}",
  ]

  @Test func theFastPathFoldsAsNFKCDoes() {
    var generator = SplitMix64(seed: 0x5EED)
    var plain = 0
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...12, using: &generator)
      var text = String.UnicodeScalarView()
      // Half the texts from the fast path's alphabet alone, so both paths are taken.
      let onlyPlain = Bool.random(using: &generator)
      let letters = onlyPlain ? Self.alphabet.filter { $0.value < 0x80 || (0xAC00...0xD7A3).contains($0.value) } : Self.alphabet
      for _ in 0..<length { text.append(letters.randomElement(using: &generator)!) }
      let string = String(text)
      if TextKey.foldedPlainly(string) != nil { plain += 1 }
      #expect(TextKey.fold(string) == TextKey.foldedByNFKC(string), "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
    }
    #expect(plain > 5_000)
  }

  @Test func aSyllableFollowedByAJamoIsNotFoldedPlainly() {
    // 가 + ᆨ composes to 각 under NFKC: the fast path must not see it.
    #expect(TextKey.foldedPlainly("가\u{11A8}") == nil)
    #expect(TextKey.fold("가\u{11A8}") == "각")
  }
}
