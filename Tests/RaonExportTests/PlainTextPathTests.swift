import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// The writers append a plain text whole (``PlainText``) and rewrite any other scalar by
/// scalar; on any text the result is what the scalar-by-scalar rule alone gives. Each
/// reference below is that rule written out plainly.
@Suite("Plain text paths of the writers")
struct PlainTextPathTests {
  static let alphabet: [Unicode.Scalar] = [
    "a", "Z", "0", " ", " ", "&", "<", ">", "\"", "'", "|", "\\", "*", "_", "`", "[", "]", "(", ")", "#", ";",
    "\t", "\n", "\r", "\u{0B}", "\u{01}", "\u{7F}", "가", "힣", "\u{0085}", "\u{009B}", "\u{00A0}", "é",
    "\u{0301}", "\u{2028}", "\u{2029}", "\u{FFFE}", "\u{FFFF}", "😀", "\u{3000}", "\u{1100}",
  ]

  /// Random texts, half of them from letters that need no escaping, so both paths run.
  static func texts(seed: UInt64, count: Int = 10_000) -> [String] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let length = Int.random(in: 0...14, using: &generator)
      let letters: [Unicode.Scalar] = Bool.random(using: &generator) ? ["a", "Z", " ", "가", "힣", "é", "😀", "0"] : alphabet
      return String(String.UnicodeScalarView((0..<length).map { _ in letters.randomElement(using: &generator)! }))
    }
  }

  static func codes(_ text: String) -> String { text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }

  static func htmlReference(_ text: String) -> String {
    var out = ""
    var previousWasSpace = false
    for s in text.unicodeScalars {
      switch s {
      case "\r", "\n", "\u{2028}", "\u{2029}", "\t", " ":
        if !previousWasSpace { out += " " }
        previousWasSpace = true
        continue
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case _ where SafeText.isUnsafe(s): out += "\u{FFFD}"
      default: out.unicodeScalars.append(s)
      }
      previousWasSpace = false
    }
    return out
  }

  @Test func htmlTextIsTheScalarRule() {
    for text in Self.texts(seed: 0x41) {
      #expect(HTMLText.escape(text) == Self.htmlReference(text), "\(Self.codes(text))")
    }
  }

  /// The Markdown rule scalar by scalar, as `MarkdownText.inline` wrote it before it read bytes.
  static func markdownReference(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    func startsReference(at i: Int) -> Bool {
      var j = i + 1
      var numeric = false
      if j < scalars.count, scalars[j] == "#" {
        numeric = true
        j += 1
        if j < scalars.count, scalars[j] == "x" || scalars[j] == "X" { j += 1 }
      }
      let start = j
      while j < scalars.count, j - start < 32, scalars[j].isASCII,
        numeric ? scalars[j].properties.isASCIIHexDigit : (scalars[j].properties.isAlphabetic || ("0"..."9").contains(scalars[j]))
      {
        j += 1
      }
      return j > start && j < scalars.count && scalars[j] == ";"
    }
    var out = ""
    var previousWasBreak = false
    for (i, s) in scalars.enumerated() {
      switch s {
      case "\r", "\n", "\u{2028}", "\u{2029}":
        if !previousWasBreak { out += " " }
        previousWasBreak = true
        continue
      case "\\", "|", "*", "_", "`", "[", "]": out += "\\" + String(s)
      case "<":
        let next = i + 1 < scalars.count ? scalars[i + 1] : " "
        if ("a"..."z").contains(next) || ("A"..."Z").contains(next) || next == "/" || next == "!" || next == "?" { out += "\\" }
        out.unicodeScalars.append(s)
      case "&":
        if startsReference(at: i) { out += "\\" }
        out.unicodeScalars.append(s)
      case "\t": out += " "
      case _ where SafeText.isUnsafe(s): out += "\u{FFFD}"
      default: out.unicodeScalars.append(s)
      }
      previousWasBreak = false
    }
    return out
  }

  @Test func markdownInlineTextIsTheScalarRuleWrittenOut() {
    let references = ["&lt;", "&#60;", "&#x3C;", "&#xZZ;", "&a1;", "&;", "&#;", "& lt;", "<a", "</", "<!", "<?", "< a", "<가", "<"]
    var generator = SplitMix64(seed: 0x47)
    for text in Self.texts(seed: 0x47) + references.map({ "x" + $0 + "y" }) + references {
      // Each random text also with a reference or a tag opening put in at random.
      let extra = references.randomElement(using: &generator)!
      for candidate in [text, text + extra, extra + text] {
        #expect(MarkdownText.inline(candidate) == Self.markdownReference(candidate), "\(Self.codes(candidate))")
      }
    }
  }

  @Test func jsonStringsAreTheScalarRule() {
    for text in Self.texts(seed: 0x48) {
      var expected = "\""
      for s in text.unicodeScalars {
        switch s {
        case "\"": expected += "\\\""
        case "\\": expected += "\\\\"
        case "\n": expected += "\\n"
        case "\r": expected += "\\r"
        case "\t": expected += "\\t"
        case "\u{08}": expected += "\\b"
        case "\u{0C}": expected += "\\f"
        case _ where s.value < 0x20 || s.value == 0x2028 || s.value == 0x2029:
          let hex = String(s.value, radix: 16)
          expected += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: expected.unicodeScalars.append(s)
        }
      }
      var out = ""
      JSONValue.writeString(text, to: &out)
      #expect(out == expected + "\"", "\(Self.codes(text))")
    }
  }

  @Test func markdownInlineTextIsTheScalarRule() {
    // Plain texts come back as they are; the others are escaped: every plain text is
    // checked to hold nothing the Markdown rule rewrites, the rest against known outputs.
    var plain = 0
    for text in Self.texts(seed: 0x42) where text.unicodeScalars.allSatisfy({ !"\\|*_`[]<&\t\r\n".unicodeScalars.contains($0) && !SafeText.isUnsafe($0) && $0 != "\u{2028}" && $0 != "\u{2029}" }) {
      #expect(MarkdownText.inline(text) == text, "\(Self.codes(text))")
      plain += 1
    }
    #expect(plain > 3_000)
    #expect(MarkdownText.inline("<햄릿> R&B *a* [b]\n c") == "<햄릿> R&B \\*a\\* \\[b\\]  c")
    #expect(MarkdownText.inline("<a> &lt; \u{85}|") == "\\<a> \\&lt; \u{FFFD}\\|")
    // Each character the rule rewrites, alone in an otherwise plain text.
    #expect(MarkdownText.inline("<b>굵게</b>") == "\\<b>굵게\\</b>")
    #expect(MarkdownText.inline("&amp;") == "\\&amp;")
    for (text, expected) in [("a|b", "a\\|b"), ("*a", "\\*a"), ("_a", "\\_a"), ("`a", "\\`a"), ("[a]", "\\[a\\]"), ("a\\b", "a\\\\b"), ("a\tb", "a b"), ("a\r\nb", "a b")] {
      #expect(MarkdownText.inline(text) == expected, "\(text)")
    }
  }

  @Test func linkTargetsAreTheScalarRule() {
    for text in Self.texts(seed: 0x43) {
      var expected = ""
      for s in text.unicodeScalars {
        switch s {
        case " ": expected += "%20"
        case "(": expected += "%28"
        case ")": expected += "%29"
        case "<": expected += "%3C"
        case ">": expected += "%3E"
        case "\r", "\n", "\t": break
        case _ where SafeText.isUnsafe(s): break
        default: expected.unicodeScalars.append(s)
        }
      }
      #expect(MarkdownText.linkTarget(text) == expected, "\(Self.codes(text))")
    }
  }

  @Test func wrappedLinesCountAsASplitOnLineFeeds() {
    for text in Self.texts(seed: 0x44) {
      for width in [4.0, 9.0, 30.0] {
        let room = max(Int(width * 0.9) - 1, 1)
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { sum, line in
          sum + max(1, (DisplayWidth.of(String(line)) + room - 1) / room)
        }
        #expect(XLSXFormats.lines(text, width: width) == expected, "\(Self.codes(text)) \(width)")
      }
    }
    #expect(XLSXFormats.lines("a\r\nb", width: 30) == 1)  // CRLF is one character, not a split
    #expect(XLSXFormats.lines("a\nb\n", width: 30) == 3)
  }

  @Test func shortenedTextIsOneLineOfTheText() {
    for text in Self.texts(seed: 0x45) {
      let expected = DisplayWidth.truncate(text.split(whereSeparator: \.isNewline).joined(separator: " "), to: 160)
      #expect(ProgramTable.shortened(text) == expected, "\(Self.codes(text))")
    }
  }

  @Test func aFeeIsTheTrimmedTextOrFreeWhenEmpty() {
    var edges = 0
    for text in Self.texts(seed: 0x46) + ["  1만원 ", "\u{3000}무료\u{00A0}", "\n", "5,000원\u{2028}"] {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if trimmed != text { edges += 1 }
      for isFree in [true, false] {
        let expected = trimmed.isEmpty && isFree ? "무료" : trimmed
        #expect(ProgramTable.feeText(Program(id: "x", feeText: text, isFree: isFree), ReportLabels(.ko)) == expected, "\(Self.codes(text))")
      }
    }
    #expect(edges > 1_000)
  }
}
