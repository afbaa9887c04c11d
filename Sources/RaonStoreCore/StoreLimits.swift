import RaonCore
import RaonErrors

/// The most a Raon store keeps of one program, the same for SQLite and PostgreSQL, checked
/// before a snapshot's versions are written.
///
/// SQLite would take far more, but PostgreSQL's B-tree indexes hold at most about 2,700
/// bytes per entry (SQLSTATE 54000, "index row size exceeds maximum"), and the store indexes
/// `program_version(program_id)` and `field_set(names)`: a history one store accepts must copy
/// into the other (`raon store copy`). Each limit is far above any real catalog (ids are
/// `cult:` and six digits; the catalog has 22 to 27 columns, ~400 bytes of names).
public enum StoreLimits {
  /// Bytes (UTF-8) of a program id.
  public static let maxProgramIDBytes = 200
  /// Bytes of a record's field names as the store writes them (a compact JSON list).
  public static let maxFieldNamesBytes = 2_000

  /// Why a snapshot could not be recorded: one of its records passes a limit. Nothing of
  /// the snapshot is kept.
  public struct Exceeded: RaonError, CustomStringConvertible, Equatable {
    public var exitStatus: ExitStatus { .failure }
    /// `catalog.csv:5`, or the snapshot and program when the record has no location (a copy).
    public var place: String
    public var problem: String
    public var advice: String

    public var description: String {
      "\(place): \(problem) — nothing of this snapshot was recorded; \(advice)"
    }
  }

  /// Throws for the first entry of `entries` over a limit.
  ///
  /// - Parameters:
  ///   - checked: Field-name lists already checked (one per source), to skip.
  ///   - snapshot: The snapshot being recorded, named when an entry has no location.
  static func check(
    _ entries: [NewSnapshot.Entry], snapshot: Int64, checked: inout Set<ObjectIdentifier>
  ) throws {
    for entry in entries {
      let id = entry.program.id
      if id.utf8.count > maxProgramIDBytes {
        throw Exceeded(
          place: place(entry, snapshot),
          problem: "the program id '\(SafeText.excerpt(id, limit: 40))' takes \(NumberText.grouped(id.utf8.count)) bytes, "
            + "more than the \(maxProgramIDBytes) a Raon store keeps (SQLite and PostgreSQL alike)",
          advice: "fix the cultcode in the row's 문화포털상세URL")
      }
      let names = entry.raw.names
      guard checked.insert(ObjectIdentifier(names)).inserted else { continue }
      let bytes = CompactJSON.array(names.names).utf8.count
      if bytes > maxFieldNamesBytes {
        throw Exceeded(
          place: place(entry, snapshot),
          problem: "the record's \(NumberText.grouped(names.names.count)) column names take \(NumberText.grouped(bytes)) bytes as the "
            + "store keeps them, more than the \(NumberText.grouped(maxFieldNamesBytes)) a Raon store keeps (SQLite and "
            + "PostgreSQL alike)",
          advice: "remove the extra columns (values beyond the header are kept as _extra_1, _extra_2, …)")
      }
    }
  }

  private static func place(_ entry: NewSnapshot.Entry, _ snapshot: Int64) -> String {
    entry.raw.location?.description
      ?? "snapshot \(snapshot), program '\(SafeText.excerpt(entry.program.id, limit: 40))'"
  }

}
