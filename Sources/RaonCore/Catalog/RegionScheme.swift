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
  }
}
