/// Turns raw records into programs: pure and total — it never fails and never drops a record.
///
/// What could not be read is left empty and named in ``Program/qualityFlags``.
public enum ProgramNormalizer {
  /// The normalised program of one raw record.
  public static func normalize(_ record: RawRecord) -> Program {
    // TODO(foundation helper): implement per DESIGN.md Part 1.
    Program(id: "h:0000000000000000", title: record[.title] ?? "")
  }
}
