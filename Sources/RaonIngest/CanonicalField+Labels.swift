import RaonCore

extension CanonicalField {
  /// The column's label in the CSV download of the first catalog that has the field
  /// (``CatalogProfile/all``: Seoul's, then the national data's), for messages to people
  /// who look at that file (e.g. "the file lacks 분류, 자치구"). A message about one
  /// catalog asks its profile instead (``CatalogProfile/label(of:)``).
  public var koreanLabel: String {
    CatalogProfile.all.lazy.compactMap { profile in profile.fields.first { $0.field == self }?.label }
      .first ?? rawValue
  }

  /// The Open API's key for this field, in the first catalog that has it.
  public var apiKey: String {
    CatalogProfile.all.lazy.compactMap { profile in profile.fields.first { $0.field == self }?.apiKey }
      .first ?? rawValue
  }
}
