import RaonCore

/// A catalog's regions and groups by their English names (``CatalogWords/englishNames``:
/// Seoul's districts by their official romanization, `종로구` → `Jongno-gu`, and its
/// categories). The composers name every region and group through ``named(_:)`` as they
/// write it — sentences, tables, headings, charts — so an English document reads them
/// everywhere; nothing is renamed after the text is written. A name the table does not
/// know stays as the catalog gives it; CSV and JSON keep the catalog's values.
extension ReportLabels {
  /// A region's or group's name in this report's language: in English from the catalog's
  /// table (unknown names stay as they are), else as the catalog has it.
  public func named(_ name: String) -> String {
    language == .en ? profile.words.englishNames[name] ?? name : name
  }
}
