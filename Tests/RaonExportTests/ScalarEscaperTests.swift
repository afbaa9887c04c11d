import Testing

@testable import RaonDocument
@testable import RaonExport

/// The escaper's table (made once for ASCII) and its rule (asked for the rest) give what
/// the rule alone gives, for every scalar up to U+0300 and the special ones beyond.
@Suite struct ScalarEscaperTests {
  static let scalars: [Unicode.Scalar] =
    (0..<0x300).compactMap(Unicode.Scalar.init) + ["가", "\u{2028}", "\u{202E}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "😀"]

  /// Escapes one scalar the slow, obvious way: the table first, then the rule.
  static func reference(
    _ scalar: Unicode.Scalar, _ table: [Unicode.Scalar: String], _ rule: (Unicode.Scalar) -> String?
  ) -> String {
    table[scalar] ?? rule(scalar) ?? String(scalar)
  }

  @Test func everyScalarBecomesWhatTheTableOrTheRuleSays() {
    let table: [Unicode.Scalar: String] = ["&": "&amp;", "(": "%28", "\n": ""]
    let rule: @Sendable (Unicode.Scalar) -> String? = { $0.value == 0xFFFE ? "?" : $0.value == 0x2028 ? "" : nil }
    let escaper = ScalarEscaper(table, otherwise: rule)
    for scalar in Self.scalars {
      #expect(escaper(String(scalar)) == Self.reference(scalar, table, rule), "U+\(String(scalar.value, radix: 16))")
    }
    let text = String(String.UnicodeScalarView(Self.scalars))
    #expect(escaper(text) == Self.scalars.map { Self.reference($0, table, rule) }.joined())
  }

  @Test func xmlTextAndLinkTargetsKeepTheirRules() {
    #expect(SVGBarChart.escape("a<b & \"c\" 'd'>\u{1}\u{FFFF}한") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;  한")
    #expect(
      MarkdownText.link("공연", url: "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=1 (2)<x>\u{85}")
        == "[공연](https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=1%20%282%29%3Cx%3E)")
  }
}
