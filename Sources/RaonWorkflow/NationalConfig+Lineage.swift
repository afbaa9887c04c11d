import RaonAnalytics
import RaonCore

/// The `raon.toml` lines of renames and mergers found in the data: those that make them
/// permanent (`renames`/`merges`, exactly what the report applied) and those that refuse
/// them (`not_lineage`), as a report's 자료 정보 and `raon report`/`raon diff`'s warnings
/// give them (docs/NATIONAL.md, "Lineage found in the data").
extension NationalConfig {
  /// `[national]` and the `renames` and `merges` that apply `findings` as the report did
  /// (a 시·도 renamed and providers renamed are renames, in the order found; mergers after).
  public static func keepLines(_ findings: [LineageFinding]) -> [String] {
    var renames: [String] = []
    var merges: [String] = []
    for finding in findings {
      switch finding.kind {
      case .provinceRenamed, .renamed:
        renames.append(
          "{ old = \(toml(finding.old.first ?? "")), new = \(toml(finding.new)), since = \(finding.day) }")
      case .merged:
        for old in finding.old {
          merges.append("{ from = \(toml(old)), into = \(toml(finding.new)), on = \(finding.day) }")
        }
      }
    }
    var lines = ["[national]"]
    if !renames.isEmpty { lines.append("renames = [\(renames.joined(separator: ", "))]") }
    if !merges.isEmpty { lines.append("merges = [\(merges.joined(separator: ", "))]") }
    return lines
  }

  /// `[national]` and the `not_lineage` pairs that refuse `findings`.
  public static func undoLines(_ findings: [LineageFinding]) -> [String] {
    let pairs = findings.flatMap { finding in
      finding.old.map { "{ old = \(toml($0)), new = \(toml(finding.new)) }" }
    }
    return ["[national]", "not_lineage = [\(pairs.joined(separator: ", "))]"]
  }

  /// The note a report and its warnings give of `findings`.
  public static func note(_ findings: [LineageFinding], between: LineageBetween) -> LineageNote {
    LineageNote(findings: findings, between: between, keep: keepLines(findings), undo: undoLines(findings))
  }

  /// A TOML basic string: `"` and `\` escaped, control characters (and DEL) as `\uXXXX`,
  /// so a name read from the data is one line of valid TOML whatever it holds.
  static func toml(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\u{0}"..."\u{1F}", "\u{7F}":
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

extension LineageNote {
  /// What `raon report`/`raon diff` say on standard error, a line each (the TOML lines as
  /// they are, to copy into `raon.toml`).
  public var warnings: [String] {
    let said = findings.map { finding -> String in
      let olds = finding.old.joined(separator: " + ")
      let kind: String
      switch finding.kind {
      case .provinceRenamed: kind = "시·도 renamed, \(finding.providers) providers"
      case .renamed: kind = "renamed"
      case .merged: kind = "merged"
      }
      return "\(olds) → \(finding.new) (\(kind); \(finding.matched) of \(finding.expected) events found under the new name)"
    }
    return [
      "regions renamed or merged that Raon's lineage does not know, found in the data between \(between.old) and \(between.new)"
        + " and counted as the same regions: " + said.joined(separator: "; "),
      "to keep this, add to raon.toml (into [national]'s renames and merges if it has them):",
    ] + keep.map { "  " + $0 } + [
      "or to refuse it:"
    ] + undo.map { "  " + $0 } + [
      "(detect_lineage = false in [national] looks for none)"
    ]
  }
}
