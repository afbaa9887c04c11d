extension CatalogProfile {
  /// This profile with another region lineage (the national data's, extended by
  /// `raon.toml`).
  public func with(lineage: RegionLineage) -> CatalogProfile {
    CatalogProfile(
      name: name, title: title, englishTitle: englishTitle, fields: fields, required: required,
      expected: expected,
      regions: RegionScheme(
        primaryLabel: regions.primaryLabel, primaryEnglishLabel: regions.primaryEnglishLabel,
        secondaryLabel: regions.secondaryLabel, secondaryEnglishLabel: regions.secondaryEnglishLabel,
        unknown: regions.unknown, names: lineage.provinceIDs, prefixes: regions.prefixes, lineage: lineage),
      identity: identity, normalisation: normalisation, coordinates: coordinates, api: api,
      sourceLine: sourceLine, licence: licence, words: words, extras: extras, configSection: configSection,
      bundledSample: bundledSample)
  }
}
