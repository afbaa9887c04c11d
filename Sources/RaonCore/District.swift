import Foundation

/// Seoul's autonomous districts (자치구), as ``CatalogProfile/seoul`` lists them, and the
/// canonical spelling of each.
public enum District {
  /// The value used when a record's district is empty or not recognised.
  public static var unknown: String { CatalogProfile.seoul.regions.unknown }

  /// The districts in 가나다 order.
  public static var all: [String] { CatalogProfile.seoul.regions.names }

  /// The district a user named (in any Unicode normalisation form, or by its official
  /// romanization in any letter case, with or without `-gu`: `Jongno-gu`, `jongno`), in its
  /// canonical NFC spelling; `nil` when it is not one of them.
  public static func named(_ name: String) -> String? {
    CatalogProfile.seoul.region(named: name)
  }

  /// The canonical district for a source value, or `nil` when it is not one of them.
  ///
  /// Accepts surrounding spaces, the city's prefix (``RegionScheme/prefixes``), and the
  /// name without its `구` suffix (`강남` → `강남구`), which other sources of the same data use.
  public static func canonical(_ text: String) -> String? {
    CatalogProfile.seoul.regions.canonical(text)
  }
}
