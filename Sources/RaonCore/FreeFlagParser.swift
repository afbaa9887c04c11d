/// Reads the free/paid flag (유무료 / IS_FREE).
public enum FreeFlagParser {
  /// `true` for free, `false` for paid, `nil` when the value is empty or unrecognised.
  ///
  /// The portal writes `무료`/`유료`; other exports of the same data use `free`/`paid`,
  /// `Y`/`N` (answering "is it free?") and `true`/`false`. Case and surrounding white space
  /// are ignored.
  public static func parse(_ text: String) -> Bool? {
    switch text {
    // The portal's own values first: no trimming or case folding needed for them.
    case "무료": return true
    case "유료": return false
    default: break
    }
    let folded = CatalogText.trimmed(text).lowercased()
    switch folded {
    case "무료", "free", "y", "yes", "true": return true
    case "유료", "paid", "n", "no", "false": return false
    default: return nil
    }
  }

  /// The free flag a fee text implies when the source has none (catalogs before 2024), read
  /// only when the text is unambiguous: it says `무료` and quotes no amount above zero
  /// (`무료`, `전석 무료`) → free; it quotes an amount above zero and does not say `무료`
  /// (`전석 20,000원`) → paid; anything else (`전석 초대`, `홈페이지 참고`, both, empty) →
  /// unknown.
  ///
  /// ```swift
  /// FreeFlagParser.fromFeeText(saysFree: true, highestAmount: nil)      // true
  /// FreeFlagParser.fromFeeText(saysFree: false, highestAmount: 20_000)  // false
  /// FreeFlagParser.fromFeeText(saysFree: true, highestAmount: 10_000)   // nil
  /// ```
  public static func fromFeeText(saysFree: Bool, highestAmount: Int?) -> Bool? {
    let quotesAmount = (highestAmount ?? 0) > 0
    switch (saysFree, quotesAmount) {
    case (true, false): return true
    case (false, true): return false
    default: return nil
    }
  }
}
