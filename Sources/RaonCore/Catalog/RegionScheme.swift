/// A catalog's regions: what a program is grouped by, first and second, what those groups
/// are called, and the value of a program whose region cannot be told.
///
/// Seoul groups by 자치구 (the 25 districts) and 분류; the national data by 시·도 and the
/// providing body (시·군·구 or another body), both through ``RegionLineage`` so that a
/// renamed or merged region stays one region.
public struct RegionScheme: Sendable {
  /// What `Program.district` holds in this catalog ("자치구", "시·도").
  public let primaryLabel: String
  public let primaryEnglishLabel: String
  /// What `Program.category` holds in this catalog ("분류", "제공기관").
  public let secondaryLabel: String
  public let secondaryEnglishLabel: String
  /// The value a program gets when its region cannot be told.
  public let unknown: String
  /// The regions, in 가나다 (or the catalog's own) order.
  public let names: [String]
  /// Prefixes a source may put before a region's name (`서울특별시 강남구`).
  public let prefixes: [String]
  /// The national data's lineage of 시·도 and 시·군·구; `nil` for Seoul.
  public let lineage: RegionLineage?
  /// Each region under its own name. Swift's `String` equality and hashing follow canonical
  /// equivalence, so a decomposed (NFD) name finds its entry too — and the entry gives back
  /// the composed (NFC) spelling, the one folder names and reports must use.
  private let index: [String: String]

  public init(
    primaryLabel: String, primaryEnglishLabel: String, secondaryLabel: String,
    secondaryEnglishLabel: String, unknown: String, names: [String], prefixes: [String],
    lineage: RegionLineage?
  ) {
    self.primaryLabel = primaryLabel
    self.primaryEnglishLabel = primaryEnglishLabel
    self.secondaryLabel = secondaryLabel
    self.secondaryEnglishLabel = secondaryEnglishLabel
    self.unknown = unknown
    self.names = names
    self.prefixes = prefixes
    self.lineage = lineage
    self.index = Dictionary(names.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The region `text` is exactly (in any Unicode normalisation form), in its NFC spelling.
  public func exactly(_ text: String) -> String? { index[text] }

  /// The region a source value names, or `nil` when it is none of ``names``.
  ///
  /// Accepts surrounding spaces, a prefix of ``prefixes`` (`서울특별시 강남구`), and a name
  /// without its one-syllable unit (`강남` → `강남구`), which other sources of the same
  /// data use.
  public func canonical(_ text: String) -> String? {
    // Fast path: the portal's own spelling, as almost every record has it.
    if let name = exactly(text) { return name }
    if text.isEmpty { return nil }
    var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    for prefix in prefixes where t.hasPrefix(prefix) {
      t = String(t.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
      break
    }
    t = t.replacingOccurrences(of: " ", with: "")
    if let name = index[t] { return name }
    guard !t.isEmpty else { return nil }
    let unitless = names.filter { $0.count == t.count + 1 && $0.hasPrefix(t) }
    return unitless.count == 1 ? unitless[0] : nil
  }
}
