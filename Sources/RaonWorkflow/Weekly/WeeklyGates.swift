import Foundation
import RaonCore
import RaonDocument
import RaonStore

/// `[weekly.gates]`: what a run checks before it sends a week — the catalog against the one
/// the report compares it with. A download cut short, a source that lost a district, an
/// export whose every row changed format, a file of another shape: each would reach every
/// office as "news" unless someone looks first.
///
/// ```toml
/// [weekly.gates]
/// size_change = "20%"     # the catalog's size moving by more than this share (either way)
/// emptied = 5             # a district (시·도) that had at least this many programs having none
/// changed_share = "50%"   # more than this share of the programs changed or gone at once
/// columns = true          # columns appearing or disappearing
/// ```
public struct WeeklyGateSettings: Sendable, Equatable {
  /// `nil`: not checked.
  public var sizeChange: Double? = 0.20
  public var emptiedFrom: Int? = 5
  public var changedShare: Double? = 0.50
  public var columns = true

  public init() {}

  public static let knownKeys = ["size_change", "emptied", "changed_share", "columns"]
}

/// The figures of two snapshots the gates compare: the one the report compares with
/// (`old`) and the one about to be sent (`new`).
struct GateFigures: Equatable {
  struct Side: Equatable {
    /// The snapshot's id, `nil` for a catalog not recorded yet (a dry run).
    var id: Int64?
    var takenAt: Date
    var programs: Int
    /// Distinct program ids.
    var distinctPrograms: Int
    var byRegion: [String: Int]
    /// The source's column names, every record's together.
    var columns: Set<String>
  }

  var old: Side
  var new: Side
  /// Programs in both whose content changed.
  var changed: Int
  /// Programs of `old` that `new` does not hold.
  var gone: Int

  /// The programs changed or gone from the programs that differ on each side: an id on
  /// both sides changed, one only on the old side is gone (or, with copies, still there
  /// unchanged — counted gone: a rare catalog with duplicate rows errs on the safe side).
  static func changes(oldDiffering: Set<String>, newDiffering: Set<String>) -> (changed: Int, gone: Int) {
    let changed = oldDiffering.intersection(newDiffering).count
    return (changed, oldDiffering.count - changed)
  }
}

/// One gate's verdict, as the ledger keeps it (`weekly_run.gates`, JSON) and `raon runs
/// --json` shows it.
struct WeeklyGate: Codable, Equatable, Sendable {
  enum Name: String, Codable, Sendable {
    case sizeChange = "size_change"
    case emptied
    case changedShare = "changed_share"
    case columns
  }

  var gate: Name
  var tripped: Bool
  /// The figure in numbers: the share (size, changed), the count of regions or columns.
  var value: Double
  /// The setting it was held against (`nil` for `columns`).
  var limit: Double?
  /// What it found, in the run's language: `4,998 → 2,101 (−58.0%)`.
  var figure: String
  /// The gate and its limit, in the run's language: `전체 행사 수 변동 (기준 ±20%)`.
  var label: String
}

enum WeeklyGates {
  /// Every gate that `settings` checks, on `figures`, worded in `language`; `region` is
  /// what the store's catalog calls a region (`자치구`, `시·도`: ``CatalogWords/region``).
  static func check(
    _ figures: GateFigures, settings: WeeklyGateSettings, language: ReportLanguage, region: CatalogWords.Noun,
    unplaced: Set<String> = [District.unknown]
  ) -> [WeeklyGate] {
    let ko = language == .ko
    var gates: [WeeklyGate] = []
    let old = figures.old
    let new = figures.new
    if let limit = settings.sizeChange {
      let change = old.programs > 0 ? Double(new.programs - old.programs) / Double(old.programs) : (new.programs > 0 ? 1 : 0)
      gates.append(
        WeeklyGate(
          gate: .sizeChange, tripped: abs(change) > limit, value: change, limit: limit,
          figure: "\(old.programs.formatted()) → \(new.programs.formatted()) (\(signedPercent(change)))",
          label: ko ? "전체 행사 수 변동 (기준 ±\(percent(limit)))" : "catalog size change (limit ±\(percent(limit)))"))
    }
    if let least = settings.emptiedFrom {
      let emptied = old.byRegion.filter { region, count in
        !unplaced.contains(region) && count >= least && (new.byRegion[region] ?? 0) == 0
      }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
      let word = ko ? region.ko : region.enPlural
      let listed = emptied.map { "\($0.key) \($0.value.formatted()) → 0" }.joined(separator: ", ")
      gates.append(
        WeeklyGate(
          gate: .emptied, tripped: !emptied.isEmpty, value: Double(emptied.count), limit: Double(least),
          figure: emptied.isEmpty ? (ko ? "없음" : "none") : listed,
          label: ko
            ? "행사가 모두 사라진 \(word) (기준: 지난번 \(least.formatted())건 이상)"
            : "\(word) left with no programs (of those with \(least.formatted()) or more)"))
    }
    if let limit = settings.changedShare {
      let moved = figures.changed + figures.gone
      let share = old.distinctPrograms > 0 ? Double(moved) / Double(old.distinctPrograms) : 0
      gates.append(
        WeeklyGate(
          gate: .changedShare, tripped: share > limit, value: share, limit: limit,
          figure: ko
            ? "\(old.distinctPrograms.formatted())건 중 \(moved.formatted())건 (\(percent(share))): 변경 \(figures.changed.formatted())건, 빠짐 \(figures.gone.formatted())건"
            : "\(moved.formatted()) of \(old.distinctPrograms.formatted()) (\(percent(share))): \(figures.changed.formatted()) changed, \(figures.gone.formatted()) gone",
          label: ko ? "한꺼번에 바뀌거나 빠진 행사 (기준 \(percent(limit)) 이하)" : "programs changed or gone at once (limit \(percent(limit)))"))
    }
    if settings.columns {
      let added = new.columns.subtracting(old.columns).sorted()
      let removed = old.columns.subtracting(new.columns).sorted()
      var parts: [String] = []
      if !added.isEmpty { parts.append((ko ? "추가 " : "added ") + added.joined(separator: ", ")) }
      if !removed.isEmpty { parts.append((ko ? "삭제 " : "gone ") + removed.joined(separator: ", ")) }
      gates.append(
        WeeklyGate(
          gate: .columns, tripped: !parts.isEmpty, value: Double(added.count + removed.count), limit: nil,
          figure: parts.isEmpty ? (ko ? "변화 없음" : "none") : parts.joined(separator: "; "),
          label: ko ? "원자료 열 변화 (기준: 없어야 함)" : "columns added or gone (limit: none)"))
    }
    return gates
  }

  /// `20%`, `12.5%`.
  static func percent(_ share: Double) -> String {
    let tenths = (share * 1000).rounded()
    let text = tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(format: "%.1f", tenths / 10)
    return text + "%"
  }

  /// `+3.2%`, `−58.0%`, `0.0%`.
  static func signedPercent(_ share: Double) -> String {
    let text = String(format: "%.1f%%", abs(share) * 100)
    return share > 0.0005 ? "+" + text : share < -0.0005 ? "−" + text : text
  }
}
