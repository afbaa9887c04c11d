import RaonCore

/// A program carrying quality flags, as listed in the data-quality section of a report.
public struct FlaggedProgram: Sendable, Hashable {
  public var id: String
  public var title: String
  /// Every flag the program carries (not only the one asked for).
  public var flags: QualityFlags

  /// The contract names of ``flags``, in output order.
  public var flagNames: [String] { flags.names }
}

/// What normalisation found wrong or repaired, counted and listed.
public enum DataQuality {
  /// How many programs carry each flag: flags with at least one program, by count
  /// descending, then in `QualityFlags.named` order.
  public static func counts(for programs: [Program]) -> [QualityCount] {
    var quality = QualityAccumulator()
    programs.withUnsafeBufferPointer { rows in
      for i in rows.indices { quality.add(rows[i].qualityFlags) }
    }
    return quality.ranked
  }

  /// The programs carrying a flag, sorted by id.
  ///
  /// ```swift
  /// DataQuality.flagged(programs, with: .districtMissing)
  /// ```
  ///
  /// - Parameters:
  ///   - programs: The programs.
  ///   - flag: The flag (or flags) to look for; a program is listed when it carries any of them.
  /// - Returns: The flagged programs, sorted by id.
  public static func flagged(_ programs: [Program], with flag: QualityFlags) -> [FlaggedProgram] {
    programs
      .filter { !$0.qualityFlags.isDisjoint(with: flag) }
      .map { FlaggedProgram(id: $0.id, title: $0.title, flags: $0.qualityFlags) }
      .sorted { $0.id < $1.id }
  }

  /// The programs carrying the flag with a contract name (`district_missing`, …).
  ///
  /// - Returns: The flagged programs sorted by id, or `nil` when no flag has that name.
  public static func flagged(_ programs: [Program], named name: String) -> [FlaggedProgram]? {
    guard let flag = QualityFlags.named.first(where: { $0.name == name })?.flag else { return nil }
    return flagged(programs, with: flag)
  }
}
