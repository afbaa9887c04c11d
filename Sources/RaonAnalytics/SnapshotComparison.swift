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
    var added: [Program] = []
    var removed: [Program] = []
    var changed: [ChangedProgram] = []
    old.withUnsafeBufferPointer { before in
      new.withUnsafeBufferPointer { after in
        // One dictionary holds both sides' positions, so each id is hashed once per side.
        // Ids are ASCII (`cult:…`, `h:…`), so byte equality is string equality.
        var positions: [UTF8Key: (old: Int, new: Int)] = [:]
        positions.reserveCapacity(
          max(before.count, after.count) + min(before.count, after.count) / 16)
        for i in before.indices {
          positions[UTF8Key(text: before[i].id), default: (-1, -1)].old = i
        }
        for j in after.indices {
          positions[UTF8Key(text: after[j].id), default: (-1, -1)].new = j
        }
        var matched: [(old: Int, new: Int)] = []
        matched.reserveCapacity(positions.count)
        for (i, j) in positions.values {
          switch (i >= 0, j >= 0) {
          case (true, true): matched.append((i, j))
          case (false, true): added.append(after[j])
          case (true, false): removed.append(before[i])
          case (false, false): break
          }
        }
        // Compare in the old catalog's order: the dictionary's order would jump around both
        // arrays, and comparing a million programs is bound by memory, not arithmetic.
        matched.sort { $0.old < $1.old }
        for (i, j) in matched {
          // Identical content needs no column-by-column look (the common case).
          if sameContent(before[i], after[j]) { continue }
          let fields = fieldChanges(from: before[i], to: after[j])
          if !fields.isEmpty {
            changed.append(ChangedProgram(old: before[i], new: after[j], fields: fields))
          }
        }
      }
    }
    added.sort { $0.id < $1.id }
    removed.sort { $0.id < $1.id }
    changed.sort { $0.id < $1.id }
    return SnapshotDiff(added: added, removed: removed, changed: changed)
  }

  /// Whether two programs are field-for-field identical, text compared by bytes.
  ///
  /// A fast, sufficient test for "no column differs": `String ==` on Korean text runs a
  /// normalisation pass, and a million of them dominated the diff. When this says no, the
  /// columns are compared as text (``fieldChanges(from:to:)``), which decides.
  ///
  /// Lists every stored property of `Program`; a test counts them, so a new property cannot
  /// be forgotten here.
  static func sameContent(_ a: Program, _ b: Program) -> Bool {
    a.isFree == b.isFree && a.feeMinKRW == b.feeMinKRW && a.feeMaxKRW == b.feeMaxKRW
      && a.startDate == b.startDate && a.endDate == b.endDate && a.registeredOn == b.registeredOn
      && a.latitude == b.latitude && a.longitude == b.longitude
      && a.qualityFlags == b.qualityFlags && sameUTF8(a.id, b.id) && sameUTF8(a.title, b.title)
      && sameUTF8(a.category, b.category) && sameUTF8(a.district, b.district)
      && sameUTF8(a.place, b.place) && sameUTF8(a.organizer, b.organizer)
      && sameUTF8(a.audience, b.audience) && sameUTF8(a.feeText, b.feeText)
      && sameUTF8(a.theme, b.theme) && sameUTF8(a.portalURL, b.portalURL)
      && sameUTF8(a.orgLink, b.orgLink) && sameUTF8(a.imageURL, b.imageURL)
      && sameUTF8(a.inquiry, b.inquiry) && sameUTF8(a.eventTime, b.eventTime)
  }

  /// The `programs.csv` columns (all but `id`) whose text differs, in column order.
  public static func fieldChanges(from old: Program, to new: Program) -> [FieldChange] {
    var changes: [FieldChange] = []
    for column in ProgramColumn.allCases where column != .id {
      let before = column.text(of: old), after = column.text(of: new)
      if before != after { changes.append(FieldChange(field: column.name, old: before, new: after)) }
    }
    return changes
  }
}
