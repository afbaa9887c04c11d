/// The natural key of an event of the national data, which has no ids (docs/NATIONAL.md,
/// "The key of an event").
///
/// An event is its provider's lineage (``RegionLineage/keyLineage(of:)``), its title and
/// place folded (``TextKey/fold(_:)``) and its start day. Rows with the same key are the
/// sessions of one event: on the real download, 238 of the 240 groups of rows sharing
/// provider, title, start day and place differ only in their start and end times (a
/// 14:00 and a 19:00 performance of one run), so the time of day is a session's, not the
/// event's, and an edited start time is a change, not a removal and an addition.
///
/// The id is `n:` and the first 16 hex digits of SHA-256 over
/// `national-v1 ␟ lineage ␟ title ␟ start ␟ place` (␟ = U+001F; start as `YYYY-MM-DD`, or
/// the folded text of 행사시작일자 when it is not a date).
public enum NationalKey {
  /// The text the id hashes.
  public static func text(lineage: String, title: String, start: String, place: String) -> String {
    ["national-v1", lineage, TextKey.fold(title), start, TextKey.fold(place)].joined(separator: "\u{1F}")
  }

  /// `n:` + 16 hex digits of the SHA-256 of ``text(lineage:title:start:place:)``.
  public static func id(lineage: String, title: String, start: String, place: String) -> String {
    "n:" + SHA256.hex(text(lineage: lineage, title: title, start: start, place: place)).prefix(16)
  }

  /// The start as the key writes it: the day, or the folded text when it is not a date.
  public static func start(_ day: CalendarDay?, text: String) -> String {
    day?.description ?? TextKey.fold(text)
  }

  /// An event apart from its provider: title and place folded and the start, as the key
  /// writes them (what RaonAnalytics' `LineageDetection` matches across providers).
  public static func event(title: String, start: String, place: String) -> String {
    [TextKey.fold(title), start, TextKey.fold(place)].joined(separator: "\u{1F}")
  }

  /// The id of the event a row is a session of, under `lineage` (what
  /// ``NationalNormalizer`` gives the row's program).
  public static func id(of record: RawRecord, lineage: RegionLineage) -> String {
    let provider = lineage.provider(name: record[.provider] ?? "", code: record[.providerCode] ?? "")
    let startText = record[.startDate] ?? ""
    return id(
      lineage: lineage.keyLineage(of: provider.id), title: record[.title] ?? "",
      start: start(CatalogDateParser.day(from: startText), text: startText), place: record[.place] ?? "")
  }
}
