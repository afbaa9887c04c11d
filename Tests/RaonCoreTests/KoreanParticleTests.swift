import Foundation
import RaonCore
import Testing

/// The particle after a word, by how the word is read aloud. The table is checked by hand
/// (the reading of each word is written beside it); the properties hold for any word.
struct KoreanParticleTests {
  /// word, its reading's end, and the five particles as a Korean writes them after it.
  static let table: [(word: String, reading: String, subject: String, topic: String, object: String, and: String, toward: String)] = [
    ("영등포구", "구", "가", "는", "를", "와", "로"),
    ("영등포구(4건)", "영등포구 — the count is not read", "가", "는", "를", "와", "로"),
    ("제공기관", "관 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("국립국악원", "원 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("서울", "울 (ㄹ)", "이", "은", "을", "과", "로"),
    ("전시/미술", "술 (ㄹ)", "이", "은", "을", "과", "로"),
    ("콘서트", "트", "가", "는", "를", "와", "로"),
    ("시·도", "도", "가", "는", "를", "와", "로"),
    ("분류", "류", "가", "는", "를", "와", "로"),
    ("「중구」", "구", "가", "는", "를", "와", "로"),
    ("종로구 ", "구", "가", "는", "를", "와", "로"),
    ("한국문화예술위원회(아르코)", "회", "가", "는", "를", "와", "로"),
    ("X(a(b))", "엑스", "가", "는", "를", "와", "로"),
    ("1", "일 (ㄹ)", "이", "은", "을", "과", "로"),
    ("2", "이", "가", "는", "를", "와", "로"),
    ("3", "삼 (ㅁ)", "이", "은", "을", "과", "으로"),
    ("4", "사", "가", "는", "를", "와", "로"),
    ("5", "오", "가", "는", "를", "와", "로"),
    ("6", "육 (ㄱ)", "이", "은", "을", "과", "으로"),
    ("7", "칠 (ㄹ)", "이", "은", "을", "과", "로"),
    ("8", "팔 (ㄹ)", "이", "은", "을", "과", "로"),
    ("9", "구", "가", "는", "를", "와", "로"),
    ("0", "영 (ㅇ)", "이", "은", "을", "과", "으로"),
    ("10", "십 (ㅂ)", "이", "은", "을", "과", "으로"),
    ("20", "이십 (ㅂ)", "이", "은", "을", "과", "으로"),
    ("100", "백 (ㄱ)", "이", "은", "을", "과", "으로"),
    ("1,000", "천 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("10000", "만 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("300000000", "삼억 (ㄱ)", "이", "은", "을", "과", "으로"),
    ("1000000000000", "일조", "가", "는", "를", "와", "로"),
    ("31", "삼십일 (ㄹ)", "이", "은", "을", "과", "로"),
    ("2.5", "이 점 오", "가", "는", "를", "와", "로"),
    ("2.0", "이 점 영 (ㅇ)", "이", "은", "을", "과", "으로"),
    ("306건", "건 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("12.3%", "퍼센트", "가", "는", "를", "와", "로"),
    ("2025. 3. 31.(월)", "삼십일 (ㄹ): the weekday in parentheses is not read", "이", "은", "을", "과", "로"),
    ("비교 시점 2025. 3. 31.(월)", "삼십일 (ㄹ)", "이", "은", "을", "과", "로"),
    ("Raon", "라온 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("Seoul", "서울 (ㄹ)", "이", "은", "을", "과", "로"),
    ("Excel", "엑셀 (ㄹ)", "이", "은", "을", "과", "로"),
    ("Program", "프로그램 (ㅁ)", "이", "은", "을", "과", "으로"),
    ("Blog", "블로그", "가", "는", "를", "와", "로"),
    ("Ring", "링 (ㅇ)", "이", "은", "을", "과", "으로"),
    ("KOPIS", "코피스 — capitals read as letters: 에스", "가", "는", "를", "와", "로"),
    ("PDF", "에프", "가", "는", "를", "와", "로"),
    ("URL", "엘 (ㄹ)", "이", "은", "을", "과", "로"),
    ("CM", "엠 (ㅁ)", "이", "은", "을", "과", "으로"),
    ("KTN", "엔 (ㄴ)", "이", "은", "을", "과", "으로"),
    ("CAR", "알 (ㄹ)", "이", "은", "을", "과", "로"),
    ("ㄱ", "기역 (ㄱ)", "이", "은", "을", "과", "으로"),
    ("ㄹ", "리을 (ㄹ)", "이", "은", "을", "과", "로"),
    ("ㅏ", "아", "가", "는", "를", "와", "로"),
    ("", "nothing: a vowel is assumed", "가", "는", "를", "와", "로"),
  ]

  @Test func everyParticleOfTheHandCheckedTable() {
    for row in Self.table {
      let got = [KoreanParticle.subject, .topic, .object, .and, .toward].map { $0.after(row.word) }
      #expect(got == [row.subject, row.topic, row.object, row.and, row.toward], "\(row.word) (\(row.reading))")
    }
    #expect(KoreanParticle.topic.attached(to: "영등포구(4건)") == "영등포구(4건)는")
    #expect(KoreanParticle.subject.attached(to: "제공기관") == "제공기관이")
  }

  /// Words made of random syllables, digits, letters and marks (a fixed seed: the same
  /// words every run).
  static func words(_ count: Int) -> [String] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pieces: [() -> String] = [
      { String(UnicodeScalar(0xAC00 + UInt32(next(11_172)))!) },
      { String(next(10)) },
      { ["a", "n", "L", "r", "M", "k", "g", "ng"][next(8)] },
      { ["(1건)", ".", " ", "·", "」", "(월)"][next(6)] },
    ]
    return (0..<count).map { _ in (0..<(1 + next(6))).map { _ in pieces[next(4)]() }.joined() }
  }

  /// For any word: each particle gives exactly one of its two forms; 이, 은, 을 and 과 are
  /// chosen together (all after a final consonant or none); (으)로 differs from them only
  /// after ㄹ.
  @Test func exactlyOneFormOfEachPairAndTheFormsAgree() {
    for word in Self.words(3_000) {
      let consonant = [KoreanParticle.subject, .topic, .object, .and].map { $0.after(word) == $0.forms.consonant }
      for particle in KoreanParticle.allCases {
        let form = particle.after(word)
        #expect((form == particle.forms.consonant) != (form == particle.forms.vowel), "\(word)")
        #expect(particle.attached(to: word) == word + form)
      }
      #expect(Set(consonant).count == 1, "\(word): \(consonant)")
      let rieul = KoreanParticle.ending(of: word) == .rieul
      let toward = KoreanParticle.toward.after(word)
      #expect((toward == "으로") == (consonant[0] && !rieul), "\(word)")
    }
  }

  /// A Hangul syllable's 받침, read independently: by its canonical decomposition (a final
  /// jamo U+11A8…U+11C2 is a 받침, U+11AF is ㄹ) rather than by the syllable's arithmetic;
  /// and a parenthetical or a closing mark after it changes nothing.
  @Test func theSyllablesFinalAsItsDecompositionSaysAndWhatIsNotReadIsSkipped() {
    for value in stride(from: 0xAC00, through: 0xD7A3, by: 7) {
      let syllable = String(UnicodeScalar(UInt32(value))!)
      let jamo = syllable.decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
      let final = jamo.count == 3 ? jamo[2] : nil
      let expected: KoreanParticle.Ending = final == nil ? .vowel : final == 0x11AF ? .rieul : .consonant
      for word in [syllable, "서울 " + syllable, syllable + "(3건)", syllable + ".", "「" + syllable + "」", syllable + " "] {
        #expect(KoreanParticle.ending(of: word) == expected, "\(word)")
      }
    }
  }
}
