import RaonCore

/// One program's story across the weeks of a history: when it was first seen, each change
/// with before → after, when it left and how (ended or withdrawn), and whether it is in
/// the latest week.
///
/// Built week by week from the differences between consecutive weeks
/// (``ProgramHistory/Builder``), so the cost follows the churn, not weeks × catalog size.
public struct ProgramHistory: Sendable, Hashable {
  /// What happened to the program in one week.
  public enum Event: Sendable, Hashable {
    /// First seen (or seen again after leaving) in the week.
    case appeared(week: Int)
    /// Some `programs.csv` columns differ from the week before.
    case changed(week: Int, fields: [FieldChange])
    /// Gone from the week's snapshot: ended or withdrawn (``ChangeKinds/removal(of:day:)``).
    case left(week: Int, removal: ChangeKinds.Removal)

    /// The index of the week, in the builder's order.
    public var week: Int {
      switch self {
      case .appeared(let w), .changed(let w, _), .left(let w, _): return w
      }
    }
  }

  /// Where a program stands in the latest week.
  public enum State: String, Sendable, Hashable, CaseIterable {
    case running, upcoming, ended, withdrawn
  }

  public var id: String
  /// Its last version seen (the current one when it is still in the catalog).
  public var latest: Program
  public var events: [Event]
  /// The weeks (indices) it was in the catalog, as closed ranges, oldest first.
  public var presence: [ClosedRange<Int>]

  /// The first week it was seen.
  public var firstWeek: Int { presence.first?.lowerBound ?? 0 }

  /// Its state on `day`, the latest week's snapshot day, when the latest week is `lastWeek`.
  public func state(lastWeek: Int, day: CalendarDay) -> State {
    if isListed(lastWeek: lastWeek) { return Self.state(of: latest, on: day) }
    if case .left(_, let removal) = events.last { return removal == .ended ? .ended : .withdrawn }
    return .ended
  }

  /// Whether it is in the catalog of the latest week (`lastWeek`); when not, ``latest`` is
  /// the last version seen before it left.
  public func isListed(lastWeek: Int) -> Bool { presence.last?.upperBound == lastWeek }

  /// The state on `day` of a program that is in the catalog: upcoming before its start
  /// day, ended after its end day, else running.
  public static func state(of program: Program, on day: CalendarDay) -> State {
    if let start = program.startDate, start > day { return .upcoming }
    if let end = program.endDate, end < day { return .ended }
    return .running
  }

  /// Accumulates the histories of every program, one week after the other.
  public struct Builder: Sendable {
    public private(set) var histories: [String: ProgramHistory] = [:]
    /// Programs in the catalog now, with the week their current presence began.
    private var openSince: [String: Int] = [:]
    private var week = -1

    public init() {}

    /// The first week: every program appears.
    public mutating func start(_ programs: [Program]) {
      week = 0
      for p in programs { appear(p) }
    }

    /// The next week, from its differences with the week before; `day` is the week's
    /// snapshot day (D of ``ChangeKinds``).
    public mutating func step(_ diff: SnapshotDiff, day: CalendarDay) {
      week += 1
      for p in diff.added { appear(p) }
      for c in diff.changed {
        histories[c.new.id]?.latest = c.new
        histories[c.new.id]?.events.append(.changed(week: week, fields: c.fields))
      }
      for p in diff.removed {
        guard let since = openSince.removeValue(forKey: p.id) else { continue }
        histories[p.id]?.presence.append(since...(week - 1))
        histories[p.id]?.events.append(.left(week: week, removal: ChangeKinds.removal(of: p, day: day)))
      }
    }

    /// The histories, each program's presence closed at the last week.
    public func finish() -> [String: ProgramHistory] {
      var out = histories
      for (id, since) in openSince { out[id]?.presence.append(since...week) }
      return out
    }

    private mutating func appear(_ p: Program) {
      openSince[p.id] = week
      if histories[p.id] == nil {
        histories[p.id] = ProgramHistory(id: p.id, latest: p, events: [], presence: [])
      } else {
        histories[p.id]?.latest = p
      }
      histories[p.id]?.events.append(.appeared(week: week))
    }
  }
}
