/// A small deterministic random generator (SplitMix64) for property tests: a failing
/// case is reproduced by its seed, printed in the failure message.
public struct PropertyRandom: RandomNumberGenerator, Sendable {
  private var generator: SplitMix64

  public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  public mutating func next() -> UInt64 { generator.next() }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  /// One of `items`.
  public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }

  /// A string of up to `maxLength` scalars drawn from pieces that stress text handling:
  /// Hangul, CJK, emoji, quotes, commas, separators, controls, formula starters, digits.
  public mutating func text(maxLength: Int = 24) -> String {
    let pieces: [String] = [
      "가", "힣", "서울", "무료", "원", "만", "천", "~", "-", "–", ",", ".", "\"", "'", "=", "+", "@",
      "\t", "\r", "\n", "\r\n", " ", "\u{3000}", "\u{00A0}", "\u{FEFF}", "\u{FFFD}", "0", "1", "9",
      "2024", "-12-", "20,000", "1만5천", "🎵", "👩‍👩‍👧", "é", "e\u{301}", "\u{0}", "\u{1F}", "\u{7F}",
      "|", ";", "<b>", "&amp;", "\\", "/", "?", "%", "cultcode=", "₩", "￦", "KRW", "a", "Z",
    ]
    let count = Int.random(in: 0...maxLength, using: &self)
    var out = ""
    for _ in 0..<count { out += pick(pieces) }
    return out
  }

  /// Any Unicode scalar string (no surrogates), up to `maxLength` scalars.
  public mutating func anyScalars(maxLength: Int = 16) -> String {
    var out = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...maxLength, using: &self) {
      let v = UInt32.random(in: 0...0x10FFFF, using: &self)
      out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
    }
    return String(out)
  }
}
