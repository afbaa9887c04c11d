import RaonCore

/// A rename or merger of regions that the national data shows and the lineage (the shipped
/// table and `raon.toml`) does not know yet (``LineageDetection``): the providers of the
/// older snapshot that vanished, and the name their events go on under.
public struct LineageFinding: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// A 시·도 renamed: every provider under it is named by its new name.
    case provinceRenamed
    /// A provider renamed (or a 시·군·구 moved to another 시·도).
    case renamed
    /// Providers that became part of another (a new one, or one that was there before).
    case merged
  }

  public var kind: Kind
  /// The old names as the older snapshot's rows write them: the 시·도's, the provider's, or
  /// each merged provider's.
  public var old: [String]
  /// The new name as the newer snapshot's rows write it.
  public var new: String
  /// The newer snapshot's day: the first day the data shows the new name (`since` / `on`).
  public var day: CalendarDay
  /// Events of the old provider(s) found under the new name.
  public var matched: Int
  /// Events of the old provider(s) the newer snapshot should still hold (not ended before
  /// its day) or holds: what `matched` is a share of.
  public var expected: Int
  /// Providers whose events moved with it (a 시·도: each of its providers that vanished
  /// under the old name; otherwise the old ones).
  public var providers: Int

  public init(
    kind: Kind, old: [String], new: String, day: CalendarDay, matched: Int, expected: Int, providers: Int
  ) {
    self.kind = kind
    self.old = old
    self.new = new
    self.day = day
    self.matched = matched
    self.expected = expected
    self.providers = providers
  }
}

/// What a report or comparison says of the lineage it found: the findings, the compared
/// collection's day, and the exact `raon.toml` lines that keep it or refuse it (written by
/// the workflow, which owns the config's format).
public struct LineageNote: Sendable, Equatable {
  public var findings: [LineageFinding]
  /// The days of the two snapshots the findings were made between (the compared one's and
  /// the reported one's, or an earlier pair of the store's when the new names came before
  /// the compared snapshot and `raon.toml` still lacks them).
  public var between: LineageBetween
  /// The `[national]` lines that make the findings permanent.
  public var keep: [String]
  /// The `[national]` lines that refuse them instead.
  public var undo: [String]

  public init(findings: [LineageFinding], between: LineageBetween, keep: [String], undo: [String]) {
    self.findings = findings
    self.between = between
    self.keep = keep
    self.undo = undo
  }
}

/// The days of the older and the newer snapshot a lineage was found between.
public struct LineageBetween: Sendable, Equatable {
  public var old: CalendarDay
  public var new: CalendarDay

  public init(old: CalendarDay, new: CalendarDay) {
    self.old = old
    self.new = new
  }
}
