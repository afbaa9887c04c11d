import Foundation
import RaonCore
import RaonExport
import RaonStore

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

extension SnapshotListing {
  /// `raon snapshots show N`: one fact a line, then the field lists.
  public static func details(_ d: SnapshotDetails) -> String {
    let s = d.snapshot
    var lines = [
      "snapshot \(s.id)",
      "  source          \(visible(s.source))",
      "  taken at        \(s.takenAt.koreaDisplay) (\(s.takenAt.iso8601UTC))",
      "  programs        \(s.programCount) (\(d.distinctPrograms) distinct ids; source total \(s.sourceTotal.map(String.init) ?? "not given"))",
      "  versions        \(d.versionCount) (\(d.versionsFirstSeen) first seen here)",
      "  input SHA-256   \(d.inputSHA256 ?? "not recorded (Open API, or recorded before Raon stored it)")",
    ]
    if let previous = d.unchangedSince { lines.append("  content         unchanged since snapshot \(previous)") }
    for (index, set) in d.fieldSets.enumerated() {
      let label = d.fieldSets.count == 1 ? "  fields          " : "  fields (\(index + 1))      "
      lines.append("\(label)\(set.names.count): \(set.names.map(visible).joined(separator: ", ")) — \(set.programs) programs")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text from a source as a terminal may show it: control and format characters (ESC,
  /// line breaks, BOM, bidi controls) become `?`.
  static func visible(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          switch scalar.properties.generalCategory {
          case .control, .format, .lineSeparator, .paragraphSeparator: return "?"
          default: return scalar
          }
        }))
  }

  /// `raon snapshots show N --json`.
  public static func detailsJSON(_ d: SnapshotDetails) -> String {
    let s = d.snapshot
    return JSONValue.object([
      ("id", .int(Int(s.id))), ("takenAt", .string(s.takenAt.iso8601UTC)),
      ("source", .string(s.source)), ("programCount", .int(s.programCount)),
      ("sourceTotal", .int(s.sourceTotal)), ("distinctPrograms", .int(d.distinctPrograms)),
      ("versionCount", .int(d.versionCount)), ("versionsFirstSeen", .int(d.versionsFirstSeen)),
      ("inputSha256", d.inputSHA256.map { .string($0) } ?? .null),
      ("unchangedSince", d.unchangedSince.map { .int(Int($0)) } ?? .null),
      (
        "fieldSets",
        .array(
          d.fieldSets.map { set in
            .object([("names", .array(set.names.map { .string($0) })), ("programs", .int(set.programs))])
          })
      ),
    ]).pretty()
  }

  /// What `raon snapshots delete N` did or would do, on one line.
  public static func deletion(_ d: SnapshotDeletion, done: Bool) -> String {
    let s = d.snapshot
    let what =
      "snapshot \(s.id) (\(s.programCount) programs from \(visible(s.source)), taken \(s.takenAt.koreaDisplay)), "
      + "\(d.versionsRemoved) program versions no other snapshot holds, \(d.intervalsRemoved) presence rows "
      + "and \(d.fieldSetsRemoved) field lists; \(d.intervalsShortened) presence rows shortened, "
      + "\(d.intervalsJoined) joined across the gap"
    return done
      ? "deleted " + what
      : "would delete " + what + " — nothing was changed; run again with --yes to delete"
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
      lines.append("recorded snapshot \(info.id): \(info.programCount) \(outcome.countsEvents ? "rows" : "programs") from \(info.source)")
    }
    let unit = outcome.countsEvents ? "events" : "programs"
    var head = "report for \(outcome.week) on snapshot \(outcome.snapshot.id) (\(outcome.snapshot.programCount) \(unit), taken \(outcome.snapshot.takenAt.koreaDisplay))"
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
