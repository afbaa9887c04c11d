import RaonCore

/// Compares two snapshots' programs by id.
public enum SnapshotComparison {
  /// What was added, removed and changed from `old` to `new`.
  ///
  /// - Programs are matched by `id`. When an id occurs more than once on one side, the last
  ///   occurrence wins (as when a later row of a file overrides an earlier one); the others
  ///   are ignored.
  /// - A program is *changed* when the text of some `programs.csv` column other than `id`
  ///   differs (``Program/csvValues``); its ``FieldChange``s follow the column order. Changes
  ///   the contract columns cannot show (unnamed flag bits) do not count.
  /// - Every list is sorted by id. `diff(a, a)` is empty, and `diff(b, a)` mirrors
  ///   `diff(a, b)`: added and removed swap, as do each change's old and new.
  ///
  /// ```swift
  /// let changes = SnapshotComparison.diff(old: lastWeek, new: thisWeek)
  /// changes.addedIds   // ["cult:150001", …]
  /// ```
  ///
  /// - Parameters:
  ///   - old: The earlier snapshot's programs.
  ///   - new: The later snapshot's programs.
  /// - Returns: The differences.
  public static func diff(old: [Program], new: [Program]) -> SnapshotDiff {
    // One dictionary holds both sides' positions, so each id is hashed once per side.
    var positions: [String: (old: Int, new: Int)] = [:]
    positions.reserveCapacity(max(old.count, new.count) + max(old.count, new.count) / 8)
    for (i, program) in old.enumerated() {
      positions[program.id, default: (-1, -1)].old = i
    }
    for (j, program) in new.enumerated() {
      positions[program.id, default: (-1, -1)].new = j
    }
    var added: [Program] = []
    var removed: [Program] = []
    var changed: [ChangedProgram] = []
    for (i, j) in positions.values {
      switch (i >= 0, j >= 0) {
      case (true, true):
        let before = old[i]
        let after = new[j]
        // Equal values need no column-by-column look (the common case).
        if before == after { continue }
        let fields = fieldChanges(from: before, to: after)
        if !fields.isEmpty { changed.append(ChangedProgram(old: before, new: after, fields: fields)) }
      case (false, true): added.append(new[j])
      case (true, false): removed.append(old[i])
      case (false, false): break
      }
    }
    added.sort { $0.id < $1.id }
    removed.sort { $0.id < $1.id }
    changed.sort { $0.id < $1.id }
    return SnapshotDiff(added: added, removed: removed, changed: changed)
  }

  /// The `programs.csv` columns (all but `id`) whose text differs, in column order.
  public static func fieldChanges(from old: Program, to new: Program) -> [FieldChange] {
    let before = old.csvValues
    let after = new.csvValues
    var changes: [FieldChange] = []
    for (column, name) in Program.csvColumns.enumerated() where name != "id" {
      if before[column] != after[column] {
        changes.append(FieldChange(field: name, old: before[column], new: after[column]))
      }
    }
    return changes
  }
}
