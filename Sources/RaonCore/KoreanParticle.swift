/// A Korean particle whose form depends on the word before it: 이/가, 은/는, 을/를, 과/와,
/// (으)로. The form follows how the word is read aloud — whether its last syllable ends in
/// a consonant (받침), and for (으)로 whether that consonant is ㄹ — so a name the data
/// brings takes the right one: `영등포구가`, `국립국악원은`, `제공기관이`, `서울로`.
///
/// What is read, and how:
/// - A Hangul syllable by its 받침 (`구` none, `원` ㄴ, `술` ㄹ).
/// - A parenthetical at the end is not read (`영등포구(4건)` as `영등포구`), nor closing
///   quotes, brackets, dots and other marks (`「중구」`, `31.`).
/// - A number as Korean reads it: its last digit (`1` 일, `2` 이, `3` 삼, `6` 육, `7` 칠,
///   `8` 팔, `0` 영 alone or after a decimal point), or its last unit when it ends in
///   zeros (`10` 십, `100` 백, `1,000` 천, `10000` 만, `1억` …). `%` reads 퍼센트.
/// - Latin letters as read aloud: a word in lower case by its sound (`Raon` 라온,
///   `Seoul` 서울: a final `m`, `n`, `ng` has a 받침, `l` has ㄹ), a capital or an
///   abbreviation by the letters' names (`L` 엘 and `R` 알 end in ㄹ, `M` 엠 and `N` 엔
///   in a 받침, the others in a vowel: `KOPIS` 코피스, `PDF` 피디에프).
/// - Anything else (an empty text, Chinese characters) is taken as ending in a vowel.
///
/// ```swift
/// KoreanParticle.topic.attached(to: "영등포구(4건)")   // "영등포구(4건)는"
/// KoreanParticle.subject.after("제공기관")             // "이"
/// ```
public enum KoreanParticle: Sendable, CaseIterable, Hashable {
  /// 이 / 가.
  case subject
  /// 은 / 는.
  case topic
  /// 을 / 를.
  case object
  /// 과 / 와.
  case and
  /// 으로 / 로 (로 also after ㄹ).
  case toward

  /// How a word's reading ends.
  public enum Ending: Sendable, Hashable {
    /// No final consonant (`구`, `도`, `2` 이).
    case vowel
    /// The final consonant ㄹ (`술`, `1` 일, `Seoul`).
    case rieul
    /// Any other final consonant (`원`, `3` 삼, `Raon`).
    case consonant
  }

  /// The two forms: after a final consonant, and after a vowel.
  public var forms: (consonant: String, vowel: String) {
    switch self {
    case .subject: return ("이", "가")
    case .topic: return ("은", "는")
    case .object: return ("을", "를")
    case .and: return ("과", "와")
    case .toward: return ("으로", "로")
    }
  }

  /// The form that follows `word`.
  public func after(_ word: String) -> String {
    form(for: Self.ending(of: word))
  }

  /// The form that follows a word whose reading ends so.
  public func form(for ending: Ending) -> String {
    switch ending {
    case .vowel: return forms.vowel
    case .rieul: return self == .toward ? forms.vowel : forms.consonant
    case .consonant: return forms.consonant
    }
  }

  /// `word` followed by the particle's form.
  public func attached(to word: String) -> String { word + after(word) }

  // MARK: - Reading a word's end

  /// How `word` ends when read aloud (the rules above).
  public static func ending(of word: String) -> Ending {
    var scalars = Array(word.unicodeScalars)
    // What is not read: white space, a final parenthetical, closing marks.
    while let last = scalars.last {
      if last.properties.isWhitespace {
        scalars.removeLast()
      } else if last == ")" || last == "）" {
        guard let open = matchingOpen(scalars) else {
          scalars.removeLast()
          continue
        }
        // A text that is all parenthesis ("(월)") is read inside.
        if open == 0 {
          scalars = Array(scalars[1..<(scalars.count - 1)])
        } else {
          scalars.removeSubrange(open...)
        }
      } else if last == "%" {
        return .vowel  // 퍼센트
      } else if isSyllable(last) || isDigit(last) || isLatin(last) || isJamo(last) {
        break
      } else if isMark(last) {
        scalars.removeLast()
      } else {
        break
      }
    }
    guard let last = scalars.last else { return .vowel }
    if isSyllable(last) { return syllableEnding(last) }
    if isJamo(last) { return jamoEnding(last) }
    if isDigit(last) { return numberEnding(scalars) }
    if isLatin(last) { return latinEnding(scalars) }
    return .vowel
  }

  /// The index of the `(` that opens the parenthesis closing the text, or `nil`.
  private static func matchingOpen(_ scalars: [Unicode.Scalar]) -> Int? {
    var depth = 0
    for i in scalars.indices.reversed() {
      switch scalars[i] {
      case ")", "）": depth += 1
      case "(", "（":
        depth -= 1
        if depth == 0 { return i }
      default: continue
      }
    }
    return nil
  }

  private static func isSyllable(_ s: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(s.value) }
  /// Compatibility jamo (`ㄱ`…`ㅣ`).
  private static func isJamo(_ s: Unicode.Scalar) -> Bool { (0x3131...0x3163).contains(s.value) }
  private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
  private static func isLatin(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
  /// Punctuation and symbols that are not read (`.`, `」`, `”`, `·`, `!`).
  private static func isMark(_ s: Unicode.Scalar) -> Bool {
    s.properties.generalCategory.isPunctuationOrSymbol
  }

  private static func syllableEnding(_ s: Unicode.Scalar) -> Ending {
    switch (s.value - 0xAC00) % 28 {
    case 0: return .vowel
    case 8: return .rieul
    default: return .consonant
    }
  }

  /// A consonant letter is read by its name (기역, 니은, 리을 …), a vowel letter as itself.
  private static func jamoEnding(_ s: Unicode.Scalar) -> Ending {
    if s.value >= 0x314F { return .vowel }
    return s == "ㄹ" ? .rieul : .consonant
  }

  /// 영 일 이 삼 사 오 육 칠 팔 구.
  private static let digitEndings: [Ending] = [
    .consonant, .rieul, .vowel, .consonant, .vowel, .vowel, .consonant, .rieul, .rieul, .vowel,
  ]

  /// A number by its last digit, or by its last unit when it ends in zeros: 십 (ㅂ), 백 (ㄱ),
  /// 천 (ㄴ), 만 (ㄴ), 억 (ㄱ), 조 (none). Commas group digits; after a decimal point each
  /// digit is read alone.
  private static func numberEnding(_ scalars: [Unicode.Scalar]) -> Ending {
    var digits: [Int] = []
    var decimal = false
    for s in scalars.reversed() {
      if isDigit(s) {
        digits.append(Int(s.value - 48))
      } else if s == "," && !digits.isEmpty {
        continue
      } else if s == "." && !digits.isEmpty && !decimal {
        decimal = true
      } else {
        break
      }
    }
    // `digits` is the run read backwards: digits[0] is the last digit.
    guard let last = digits.first else { return .vowel }
    if last != 0 || decimal || digits.count == 1 { return digitEndings[last] }
    // Only the digits before a decimal point count here; there is none.
    let zeros = digits.prefix { $0 == 0 }.count
    if zeros == digits.count { return digitEndings[0] }  // 00 → 영
    switch zeros {
    case 1: return .consonant  // 십
    case 2: return .consonant  // 백
    case 3: return .consonant  // 천
    case 4...7: return .consonant  // 만
    case 8...11: return .consonant  // 억
    default: return .vowel  // 조
    }
  }

  /// Latin letters: a lower-case word by its sound, capitals and single letters by their
  /// names.
  private static func latinEnding(_ scalars: [Unicode.Scalar]) -> Ending {
    let word = scalars.reversed().prefix { isLatin($0) }.reversed()
    guard let last = word.last else { return .vowel }
    let isWord = word.count > 1 && ("a"..."z").contains(last)
    if isWord {
      switch last {
      case "l": return .rieul
      case "m", "n": return .consonant
      case "g": return word.dropLast().last == "n" ? .consonant : .vowel
      default: return .vowel
      }
    }
    switch last {
    case "L", "R", "l", "r": return .rieul
    case "M", "N", "m", "n": return .consonant
    default: return .vowel
    }
  }
}

extension Unicode.GeneralCategory {
  fileprivate var isPunctuationOrSymbol: Bool {
    switch self {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
      return true
    default: return false
    }
  }
}
