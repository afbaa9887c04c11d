import RaonCore

extension SnapshotComparison {
  /// ``diff(old:new:)`` with the old snapshot read a chunk at a time: the same result, with
  /// no more than a chunk of the old programs held (plus what differs).
  ///
  /// Both sides are in id order, so each old chunk is compared with the new programs whose
  /// ids fall in its range; the run of programs sharing the chunk's last id waits for the
  /// next chunk, so repeated ids are never split. The new programs are those of one catalog
  /// (no id twice).
  ///
  /// - Parameters:
  ///   - old: The earlier snapshot's programs, in id order (by bytes, as the store orders them).
  ///   - new: The later snapshot's programs, sorted by id (by bytes), each id once.
  ///   - seeing: Handed each chunk of `old` as it is compared (what else is wanted of the
  ///     old programs, without a second read).
  public static func diff(
    old: ProgramChunks, new: [Program], seeing: ([Program]) -> Void = { _ in }
  ) throws -> SnapshotDiff {
    var result = SnapshotDiff(added: [], removed: [], changed: [])
    var rest = new[...]
    var carried: [Program] = []
    func compare(_ olds: [Program], upTo last: String?) {
      let end = last.map { last in rest.firstIndex { !precedesOrEquals($0.id, last) } ?? rest.endIndex } ?? rest.endIndex
      let part = diff(old: olds, new: Array(rest[..<end]))
      rest = rest[end...]
      result.added += part.added
      result.removed += part.removed
      result.changed += part.changed
    }
    try old.forEach { chunk in
      seeing(chunk)
      let programs = carried + chunk
      guard let last = programs.last?.id else { return }
      // The run sharing the last id may go on in the next chunk.
      let runStart = programs.lastIndex { $0.id != last }.map { $0 + 1 } ?? 0
      carried = Array(programs[runStart...])
      guard runStart > 0 else { return }
      compare(Array(programs[..<runStart]), upTo: programs[runStart - 1].id)
    }
    compare(carried, upTo: nil)
    // Each range's lists are sorted and the ranges ascend; sorted again as diff(old:new:)
    // sorts, should an id's bytes and its `String` order ever disagree.
    result.added.sort { $0.id < $1.id }
    result.removed.sort { $0.id < $1.id }
    result.changed.sort { $0.id < $1.id }
    return result
  }

  /// `a` ≤ `b` by bytes (the store's order of ids).
  private static func precedesOrEquals(_ a: String, _ b: String) -> Bool {
    !b.utf8.lexicographicallyPrecedes(a.utf8)
  }
}
