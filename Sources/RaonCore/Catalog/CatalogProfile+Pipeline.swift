/// What the pipeline asks a catalog, by capability rather than by name: the report, the
/// comparison, the packs, the site and the weekly run read these, so a catalog with the
/// same shape as one already known (a city's events by fixed districts, a nation's by
/// regions that merge) needs no branch of its own.
extension CatalogProfile {
  /// Whether a report's item is an event — the rows sharing the natural key, counted once
  /// and compared event by event — rather than each record (Seoul's programs).
  public var countsEvents: Bool { normalisation == .sessions }

  /// Whether regions are traced through renames and mergers: names are said as on a
  /// report's day, and a comparison first checks that its keys hold across them.
  public var tracesLineage: Bool { regions.lineage != nil }

  /// The regions a pack may be made for, when they are a fixed list known before any data
  /// is read (Seoul's 25 자치구); `nil` when they are the ones the data holds (the national
  /// data's 시·도 and providers, `--region`).
  public var fixedRegions: [String]? { tracesLineage ? nil : regions.names }

  /// The names under which rows no region takes are counted — Seoul's 미상, the national
  /// data's 기타 기관 (bodies no 시·도 holds): never a region that "emptied", listed last.
  public var unplacedRegions: Set<String> {
    tracesLineage ? [regions.unknown, RegionLineage.otherBodiesName] : [regions.unknown]
  }

  /// The catalog's own header labels and API keys, folded (``CanonicalField/fold(_:)``):
  /// a reader asked for this catalog reads a column by them where the shipped labels do
  /// not know it (a catalog Raon does not ship, with headers of its own).
  public var headerAliases: [String: CanonicalField] {
    var aliases: [String: CanonicalField] = [:]
    for field in fields {
      for name in [field.label, field.apiKey] where aliases[CanonicalField.fold(name)] == nil {
        aliases[CanonicalField.fold(name)] = field.field
      }
    }
    return aliases
  }

  /// The region a user named — in any Unicode normalisation form, or by the English name
  /// the catalog's words give it in any letter case, with or without its unit (`Jongno-gu`,
  /// `jongno`, `JUNG-GU`) — in the catalog's own spelling; `nil` when it is none of them.
  public func region(named text: String) -> String? {
    if let name = regions.exactly(text) { return name }
    let key = Self.folded(text)
    guard !key.isEmpty else { return nil }
    for name in regions.names {
      guard let english = words.englishNames[name] else { continue }
      if Self.folded(english) == key || Self.folded(Self.withoutUnit(english)) == key { return name }
    }
    return nil
  }

  /// Letters only, lower-cased: `Jongno-gu`, ` JONGNO GU ` → `jongnogu`.
  private static func folded(_ text: String) -> String { text.lowercased().filter(\.isLetter) }

  /// An English region name without its administrative unit (`Jongno-gu` → `Jongno`).
  private static func withoutUnit(_ english: String) -> String {
    guard let dash = english.lastIndex(of: "-") else { return english }
    return String(english[..<dash])
  }
}
