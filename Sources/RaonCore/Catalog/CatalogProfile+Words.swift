extension CatalogProfile {
  /// A compared field's label in a catalog whose comparison names fields by their meaning
  /// (``FileWords/labelsChangedFields``: the national data's `feeText`, `sessions`,
  /// `latitude`): the download's column name (`관람요금`, `회차 수`, `위도`), in English its
  /// English label; `nil` for a name the catalog has no field of.
  public func changedFieldLabel(_ code: String, english: Bool) -> String? {
    func named(_ field: CanonicalField) -> String? {
      guard fields.contains(where: { $0.field == field }) else { return nil }
      return english ? englishLabel(of: field) : label(of: field)
    }
    switch code {
    case "sessions": return english ? words.sessions.en : words.sessions.ko
    case "latitude": return named(.coordinateA)
    case "longitude": return named(.coordinateB)
    default: return CanonicalField(rawValue: code).flatMap(named)
    }
  }

  /// The label of a field in this catalog's downloads, or `nil` when it has no such field.
  public func fieldLabel(_ field: CanonicalField) -> String? {
    fields.first { $0.field == field }?.label
  }
}
