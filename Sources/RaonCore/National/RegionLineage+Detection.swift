extension RegionLineage {
  /// What a lineage may learn from two snapshots it compares: renames and mergers the table
  /// and `raon.toml` do not list yet, found by RaonAnalytics' `LineageDetection`
  /// (docs/NATIONAL.md, "Lineage found in the data"). `raon.toml`'s `[national]`
  /// `detect_lineage = false` turns it off; `not_lineage` refuses single pairs.
  public struct Detection: Sendable, Equatable {
    /// Whether renames and mergers are looked for at all.
    public var enabled = true
    /// Pairs never taken as one lineage, each as written (a provider's or a 시·도's old
    /// and new name).
    public var refused: [(old: String, new: String)] = []

    public init(enabled: Bool = true, refused: [(old: String, new: String)] = []) {
      self.enabled = enabled
      self.refused = refused
    }

    /// Whether `old` → `new` is refused (names compared folded: spacing and width aside).
    public func refuses(_ old: String, _ new: String) -> Bool {
      let (o, n) = (TextKey.fold(old), TextKey.fold(new))
      return refused.contains { TextKey.fold($0.old) == o && TextKey.fold($0.new) == n }
    }

    public static func == (a: Detection, b: Detection) -> Bool {
      a.enabled == b.enabled && a.refused.map(\.old) == b.refused.map(\.old)
        && a.refused.map(\.new) == b.refused.map(\.new)
    }
  }

  /// The 시·도 id a word names (a full name or a short form), else `nil`.
  public func province(spelledAs word: String) -> String? {
    provinceBySpelling[Self.collapsed(word)]
  }
}
