import ArgumentParser
import RaonCore
import RaonStore
import RaonWorkflow

/// `--catalog NAME` (``CatalogProfile/all``): which catalog a command works on. A store holds one
/// catalog; without the option a command works on the store's (Seoul's for a new store).
struct CatalogOption: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp("The catalog: \(Self.choices). Default: the one the store holds.", valueName: "name"))
  var catalog: String?

  /// Every catalog this Raon knows, as `--help` lists them: `seoul (서울시 문화행사, the
  /// default) or national (전국 공연·행사)`.
  static var choices: String {
    let named = CatalogProfile.all.enumerated().map { n, profile in
      "\(profile.name.rawValue) (\(profile.words.catalog.ko)\(n == 0 ? ", the default" : ""))"
    }
    return named.count < 2 ? named.joined() : named.dropLast().joined(separator: ", ") + " or " + named[named.count - 1]
  }

  func validate() throws {
    if let catalog, CatalogProfile.named(catalog) == nil {
      throw ValidationError(CatalogError.unknown(catalog).description)
    }
  }

  /// The catalog to work on, checked against the store's (without a store yet, the one
  /// named, else Seoul's), as the config knows it (the national one with `[national]`'s lineage).
  func profile(for store: (any SnapshotStoring)?, config: RaonConfig) throws -> CatalogProfile {
    let chosen = try store.map { try CatalogProfile.choose(catalog, store: $0) }
      ?? catalog.flatMap(CatalogProfile.named) ?? .seoul
    return try config.configured(chosen)
  }
}
