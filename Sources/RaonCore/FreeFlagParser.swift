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
}
