import Foundation
import RaonCore
import TOMLKit

/// The `[national]` section of `raon.toml`: the national data's Open API address and what
/// a 시·도 culture department knows of its region's renames and mergers before Raon ships
/// them (docs/NATIONAL.md, "Region lineage").
///
/// ```toml
/// [national]
/// api_base = "http://api.data.go.kr/openapi"
/// # A provider renamed (or moved to another 시·도): its events go on under the new name.
/// renames = [
///   { old = "인천광역시 동구", new = "인천광역시 제물포구", since = 2026-07-01 },
/// ]
/// # A provider that became part of another: its events go on as the other's.
/// merges = [
///   { from = "인천광역시 중구", into = "인천광역시 영종구", on = 2026-07-01 },
/// ]
/// # Renames and mergers found in the data (on by default): one pair refused, or none looked for.
/// not_lineage = [ { old = "충청북도 음성군", new = "충북특별자치도 진천음성시" } ]
/// detect_lineage = false
/// ```
public struct NationalConfig: Sendable, Equatable {
  public var apiBase: String?
  public var renames: [Rename] = []
  public var merges: [Merge] = []
  /// Whether renames and mergers are looked for in the data (`detect_lineage`, default true).
  public var detectsLineage = true
  /// Pairs never taken as one lineage (`not_lineage`).
  public var notLineage: [NotLineage] = []

  public struct Rename: Sendable, Equatable {
    public var old: String
    public var new: String
    public var since: CalendarDay?
  }

  public struct Merge: Sendable, Equatable {
    public var from: String
    public var into: String
    public var on: CalendarDay
  }

  public struct NotLineage: Sendable, Equatable {
    public var old: String
    public var new: String
  }

  public init() {}

  /// Whether the section says anything.
  public var isEmpty: Bool {
    apiBase == nil && renames.isEmpty && merges.isEmpty && detectsLineage && notLineage.isEmpty
  }

  /// The shipped lineage with this section's renames and mergers, in the order written.
  public func lineage(over base: RegionLineage = .shipped) throws -> RegionLineage {
    var lineage = base
    for rename in renames { lineage = try lineage.renaming(rename.old, to: rename.new, since: rename.since) }
    for merge in merges { lineage = try lineage.merging(merge.from, into: merge.into, on: merge.on) }
    lineage.detection = RegionLineage.Detection(enabled: detectsLineage, refused: notLineage.map { ($0.old, $0.new) })
    return lineage
  }

  /// `base` (the national profile) with this section's lineage over its own.
  public func profile(over base: CatalogProfile = .national) throws -> CatalogProfile {
    isEmpty ? base : base.with(lineage: try lineage(over: base.regions.lineage ?? .shipped))
  }

  static let knownKeys = ["api_base", "renames", "merges", "detect_lineage", "not_lineage"]

  /// Reads the section (`nil`: none), naming the file and line of a mistake.
  static func parse(_ table: TOMLTable?, lines: ConfigLines, path: String) throws -> NationalConfig {
    var config = NationalConfig()
    guard let table else { return config }
    for (key, value) in table {
      let line = lines.line(of: key, in: "national")
      func fail(_ message: String) -> WorkflowError {
        WorkflowError.config(path: path, line: line, message: "[national] " + message)
      }
      func entries(_ example: String) throws -> [TOMLTable] {
        guard let array = value.array else { throw fail("'\(key)' must be a list like \(example)") }
        return try array.map { item in
          guard let entry = item.table else { throw fail("each of '\(key)' must be a table like \(example)") }
          return entry
        }
      }
      func text(_ entry: TOMLTable, _ name: String, _ example: String) throws -> String {
        guard let s = entry[name]?.string, !s.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw fail("each of '\(key)' needs \(name) = \"…\" (like \(example))")
        }
        return s
      }
      func day(_ entry: TOMLTable, _ name: String) throws -> CalendarDay? {
        guard let value = entry[name] else { return nil }
        if let date = value.date, let day = CalendarDay(year: date.year, month: date.month, day: date.day) {
          return day
        }
        if let s = value.string, let day = CalendarDay(iso: s) { return day }
        throw fail("\(name) must be a day like 2026-07-01")
      }
      switch key {
      case "api_base":
        guard let s = value.string, let url = URL(string: s),
          ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else { throw fail("api_base must be an http(s) URL like \"http://api.data.go.kr/openapi\"") }
        config.apiBase = s
      case "renames":
        let example = "{ old = \"강원도 춘천시\", new = \"강원특별자치도 춘천시\", since = 2023-06-11 }"
        for entry in try entries("[\(example)]") {
          config.renames.append(
            Rename(old: try text(entry, "old", example), new: try text(entry, "new", example), since: try day(entry, "since")))
        }
      case "merges":
        let example = "{ from = \"인천광역시 중구\", into = \"인천광역시 제물포구\", on = 2026-07-01 }"
        for entry in try entries("[\(example)]") {
          guard let on = try day(entry, "on") else { throw fail("each of 'merges' needs on = YYYY-MM-DD (like \(example))") }
          config.merges.append(Merge(from: try text(entry, "from", example), into: try text(entry, "into", example), on: on))
        }
      case "detect_lineage":
        guard let flag = value.bool else { throw fail("detect_lineage must be true or false") }
        config.detectsLineage = flag
      case "not_lineage":
        let example = "{ old = \"충청북도 음성군\", new = \"충북특별자치도 진천음성시\" }"
        for entry in try entries("[\(example)]") {
          config.notLineage.append(NotLineage(old: try text(entry, "old", example), new: try text(entry, "new", example)))
        }
      default:
        throw fail("unknown key '\(key)' (known: \(knownKeys.joined(separator: ", ")))")
      }
    }
    do {
      _ = try config.lineage()
    } catch {
      throw WorkflowError.config(path: path, line: lines.line(of: "national", in: nil), message: "[national] \(error)")
    }
    return config
  }
}

extension RaonConfig {
  /// The section name of ``NationalConfig`` in `raon.toml`.
  static let nationalSection = "national"

  /// The Open API address configured for a catalog: its own section's `api_base`
  /// (``CatalogProfile/configSection``), else the file's top-level one.
  public func apiBase(for profile: CatalogProfile) -> String? {
    switch profile.configSection {
    case nil: return apiBase
    case Self.nationalSection?: return national.apiBase
    default: return nil
    }
  }

  /// A catalog as this config knows it: one whose regions have a lineage takes its
  /// section's renames and mergers.
  public func configured(_ profile: CatalogProfile) throws -> CatalogProfile {
    guard profile.configSection == Self.nationalSection else { return profile }
    return try national.profile(over: profile)
  }
}
