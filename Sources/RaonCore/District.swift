import Foundation

/// Seoul's autonomous districts (자치구), as ``CatalogProfile/seoul`` lists them, and the
/// canonical spelling of each.
public enum District {
  /// The value used when a record's district is empty or not recognised.
  public static var unknown: String { CatalogProfile.seoul.regions.unknown }

  /// The districts in 가나다 order.
  public static var all: [String] { CatalogProfile.seoul.regions.names }

  /// Each district under its own name. Swift's `String` equality and hashing follow
  /// canonical equivalence, so a decomposed (NFD) name finds its entry too — and the entry
  /// gives back the composed (NFC) spelling, the one folder names and reports must use.
  private static let known = Dictionary(uniqueKeysWithValues: all.map { ($0, $0) })

  /// The district a user named (in any Unicode normalisation form, or by its official
  /// romanization in any letter case, with or without `-gu`: `Jongno-gu`, `jongno`), in its
  /// canonical NFC spelling; `nil` when it is not one of them.
  public static func named(_ name: String) -> String? {
    if let district = known[name] { return district }
    // Folded to letters: `Jongno-gu`, ` JONGNO GU ` → `jongnogu`, found with or without `gu`.
    let key = name.lowercased().filter(\.isLetter)
    return romanized[key] ?? (key.hasSuffix("gu") ? romanized[String(key.dropLast(2))] : nil)
  }

  /// The districts by their romanized stems (`jongno` → `종로구`), from the catalog's English names.
  private static let romanized: [String: String] = Dictionary(
    uniqueKeysWithValues: all.compactMap { district in
      CatalogProfile.seoul.words.englishNames[district].map { english in
        (String(english.lowercased().filter(\.isLetter).dropLast(2)), district)
      }
    })

  /// The canonical district for a source value, or `nil` when it is not one of them.
  ///
  /// Accepts surrounding spaces, the city's prefix (``RegionScheme/prefixes``), and the
  /// name without its `구` suffix (`강남` → `강남구`), which other sources of the same data use.
  public static func canonical(_ text: String) -> String? {
    // Fast path: the portal's own spelling, as almost every record has it.
    if let name = known[text] { return name }
    if text.isEmpty { return nil }
    var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    for prefix in prefixes where t.hasPrefix(prefix) {
      t = String(t.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
      break
    }
    t = t.replacingOccurrences(of: " ", with: "")
    if let name = known[t] { return name }
    if !t.isEmpty, !t.hasSuffix("구"), let name = known[t + "구"] { return name }
    return nil
  }

  private static let prefixes = CatalogProfile.seoul.regions.prefixes
}
