import RaonCore
import Testing

/// Text bound for XML (and terminals) is cleaned once, in normalisation.
@Suite struct SafeTextTests {
  static let names = FieldNames(["분류", "공연/행사명", "장소", "기관명", "유무료", "문화포털상세URL"])

  static func record(category: String, title: String, place: String = "미술관") -> RawRecord {
    RawRecord(
      names: names,
      values: [category, title, place, "기관", "유료", "https://culture.seoul.go.kr/view.do?cultcode=123456"])
  }

  @Test func controlsAndNonCharactersAreReplacedAndFlagged() {
    let program = ProgramNormalizer.normalize(
      Self.record(category: "전시\u{0B}미술", title: "제목\u{FFFE}\u{FFFF} \u{1B}[31m", place: "장소\u{07}\u{85}끝"))
    #expect(program.category == "전시\u{FFFD}미술")
    #expect(program.title == "제목\u{FFFD}\u{FFFD} \u{FFFD}[31m")
    #expect(program.place == "장소\u{FFFD}\u{FFFD}끝")
    #expect(program.qualityFlags.contains(.invalidCharactersReplaced))
    #expect(program.qualityFlags.names.contains("invalid_characters_replaced"))
  }

  @Test func cleanTextIsLeftAloneAndUnflagged() {
    let program = ProgramNormalizer.normalize(Self.record(category: "전시/미술", title: "탭\t줄\n바꿈 ～ 〈영웅〉"))
    #expect(program.title == "탭\t줄\n바꿈 ～ 〈영웅〉")
    #expect(!program.qualityFlags.contains(.invalidCharactersReplaced))
  }

  /// The byte scan and the scalar rule agree on every scalar.
  @Test func theByteScanAgreesWithTheScalarRule() {
    var disagreements: [UInt32] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "a" + String(scalar) + "b"
      if SafeText.isSafe(text) == SafeText.isUnsafe(scalar) { disagreements.append(value) }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
  }

  @Test func terminalLinesEscapeControls() {
    #expect(SafeText.terminalLine("a\nb\u{1B}[2J\u{7}\tc\u{9B}") == "a\\nb\\u{1B}[2J\\u{7}\\tc\\u{9B}")
  }
}
