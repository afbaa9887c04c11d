import Foundation
import RaonCore
import RaonExport

/// How `raon snapshots` prints the store's snapshots (pure).
public enum SnapshotListing {
  /// A table aligned for a terminal, Korean text counted as two columns wide.
  public static func table(_ snapshots: [SnapshotInfo]) -> String {
    guard !snapshots.isEmpty else {
      return "no snapshots yet — record one with 'raon snapshot FILE' or run 'raon report'\n"
    }
    let header = ["id", "taken at (KST)", "programs", "source"]
    let rows = snapshots.map {
      [String($0.id), $0.takenAt.koreaDisplay, String($0.programCount), SafeText.terminalLine($0.source)]
    }
    let widths = header.indices.map { c in
      ([header[c]] + rows.map { $0[c] }).map { DisplayWidth.of($0) }.max() ?? 0
    }
    let numeric: Set<Int> = [0, 2]
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { c, text in
        c == cells.count - 1
          ? text
          : numeric.contains(c)
            ? DisplayWidth.leftPadded(text, to: widths[c]) : DisplayWidth.padded(text, to: widths[c])
      }.joined(separator: "  ")
    }
    return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
  }

  /// A JSON list of `{id, takenAt, source, programCount}` (+ `sourceTotal`).
  public static func json(_ snapshots: [SnapshotInfo]) -> String {
    JSONValue.array(
      snapshots.map { s in
        .object([
          ("id", .int(Int(s.id))), ("takenAt", .string(s.takenAt.iso8601UTC)),
          ("source", .string(s.source)), ("programCount", .int(s.programCount)),
          ("sourceTotal", .int(s.sourceTotal)),
        ])
      }
    ).pretty()
  }
}

/// The lines `raon report` prints when it is done (pure).
public enum ReportSummary {
  public static func lines(_ outcome: ReportOutcome) -> [String] {
    var lines: [String] = []
    if outcome.recordedSample {
      lines.append("the store was empty: recorded the bundled sample (taken 2024-09-09) as snapshot \(outcome.snapshot.id)")
    }
    for info in outcome.recorded where !outcome.recordedSample {
      lines.append("recorded snapshot \(info.id): \(info.programCount) programs from \(info.source)")
    }
    var head = "report for \(outcome.week) on snapshot \(outcome.snapshot.id) (\(outcome.snapshot.programCount) programs, taken \(outcome.snapshot.takenAt.koreaDisplay))"
    if let compare = outcome.compareTo, let a = outcome.added, let r = outcome.removed, let c = outcome.changed {
      head += ", compared with snapshot \(compare.id): \(a) added, \(r) removed, \(c) changed"
    } else {
      head += ", no comparison"
    }
    lines.append(head)
    lines.append("written to \(outcome.directory.path)/")
    for file in outcome.files.sorted() { lines.append("  \(file)") }
    return lines
  }
}
