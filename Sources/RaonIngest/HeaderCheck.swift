import RaonCore

/// Checks a tabular file's header (CSV, XLSX, HTML table) for known columns that no label
/// matched, so a column is never lost without a word.
///
/// Labels are matched after folding (``CanonicalField/fold(_:)``). A known field that no
/// label carries is named in a warning together with the labels Raon did not recognise
/// (their values stay in the raw records, but the field is empty in every program). A
/// leading row-number column (`번호`) is expected and ignored.
public enum HeaderCheck {
  /// One warning line, or `nil` when every known field was matched.
  ///
  /// - Parameters:
  ///   - names: The header's labels, in order (padding names like `_extra_1` are skipped).
  ///   - source: The file name, for the message.
  ///   - profile: The catalog the file is (its ``CatalogProfile/expected`` fields).
  public static func warning(for names: [String], source: String, profile: CatalogProfile) -> String? {
    let header = names.filter { !$0.hasPrefix(CSVCatalogReader.extraFieldPrefix) }
    let fields = Set(header.compactMap(CanonicalField.init(sourceName:)))
    let missing = profile.expected.filter { !fields.contains($0) }
    guard !missing.isEmpty else { return nil }
    let unmatched = header.enumerated().filter { index, label in
      CanonicalField(sourceName: label) == nil
        && !(index == 0 && CanonicalField.isRowNumberLabel(label))
    }.map { MessageText.printable($0.element) }
    let missingText = missing.map(profile.label(of:)).joined(separator: ", ")
    let unmatchedText =
      unmatched.isEmpty
      ? "no other column either"
      : "columns not recognised: " + unmatched.prefix(8).joined(separator: ", ")
        + (unmatched.count > 8 ? ", …" : "") + " (kept in the raw records)"
    return "\(source):1: no column matched \(missingText), so \(missing.count == 1 ? "it stays" : "they stay") "
      + "empty in every program; \(unmatchedText) — rename the header to the portal's labels "
      + "if a column is there under another name"
  }
}

/// Text from a source made safe to quote in a one-line message: control characters and
/// other invisible scalars become `?`, and long text is cut.
enum MessageText {
  static func printable(_ text: String, limit: Int = 60) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if out.unicodeScalars.count >= limit {
        out += "…"
        break
      }
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
        .unassigned:
        out += "?"
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
