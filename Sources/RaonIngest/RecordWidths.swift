import RaonCore

/// Fits records to their header's width, for every reader of rows (CSV, HTML tables,
/// workbooks): a short record is padded with empty values; a long one keeps its extra
/// values under `_extra_1`, `_extra_2`, … (``CSVCatalogReader/extraFieldPrefix``), so a
/// shifted row is visible rather than lost. The wider names are made once per width.
struct RecordWidths {
  private var widened: [Int: FieldNames] = [:]

  /// Pads `values` to the width of `header` and returns the names to read them by.
  ///
  /// - Parameter header: The reader's header; the same one on every call.
  mutating func fit(_ values: inout [String?], to header: FieldNames) -> FieldNames {
    let width = header.names.count
    if values.count < width {
      values.append(contentsOf: repeatElement("", count: width - values.count))
      return header
    }
    guard values.count > width else { return header }
    if let cached = widened[values.count] { return cached }
    let extra = (1...(values.count - width)).map { "\(CSVCatalogReader.extraFieldPrefix)\($0)" }
    let names = FieldNames(header.names + extra, aliases: header.aliases)
    widened[values.count] = names
    return names
  }
}
