import RaonCore

/// The week's program lists — running, starting, ending, newly registered — in the order
/// a reader looks for them.
///
/// Membership follows ``WeekView``'s rules (``WeekView/isRunning(_:week:)``,
/// ``WeekView/isStarting(_:week:)``, ``WeekView/isEnding(_:week:)``,
/// ``WeekView/isRegistered(_:day:)``), so a list's length is the view's figure. Running,
/// starting and registered are in ``WeekLists/areInReportOrder(_:_:)`` order (by start
/// day); ending is by end day (``WeekLists/areInEndingOrder(_:_:)``): what ends first
/// comes first.
public struct WeekLists: Sendable, Hashable {
  public var running: [Program]
  public var starting: [Program]
  public var ending: [Program]
  public var registered: [Program]

  public init(running: [Program] = [], starting: [Program], ending: [Program], registered: [Program]) {
    self.running = running
    self.starting = starting
    self.ending = ending
    self.registered = registered
  }

  /// Collects the lists chunk by chunk, by the week's rules.
  public struct Collector: Sendable {
    let week: ISOWeek
    let day: CalendarDay
    var running: [Program] = []
    var starting: [Program] = []
    var ending: [Program] = []
    var registered: [Program] = []

    public init(week: ISOWeek, day: CalendarDay) {
      self.week = week
      self.day = day
    }

    public mutating func add(_ programs: some Sequence<Program>) {
      for p in programs {
        if WeekView.isRunning(p, week: week) { running.append(p) }
        if WeekView.isStarting(p, week: week) { starting.append(p) }
        if WeekView.isEnding(p, week: week) { ending.append(p) }
        if WeekView.isRegistered(p, day: day) { registered.append(p) }
      }
    }

    /// The lists, each in its order, handed over: sorted where they were collected, not
    /// copied (a million programs' week lists 175,000), and the collector is left empty.
    public mutating func finish() -> WeekLists {
      running.sort(by: WeekLists.areInReportOrder)
      starting.sort(by: WeekLists.areInReportOrder)
      ending.sort(by: WeekLists.areInEndingOrder)
      registered.sort(by: WeekLists.areInReportOrder)
      defer { (running, starting, ending, registered) = ([], [], [], []) }
      return WeekLists(running: running, starting: starting, ending: ending, registered: registered)
    }
  }

  /// The full, ordered lists of a catalog for a week.
  ///
  /// - Parameters:
  ///   - programs: The snapshot's programs.
  ///   - week: W, the report's ISO week.
  ///   - day: D, the snapshot's day in Korea.
  ///   - district: When given, only programs of this district are listed.
  /// - Returns: The running, starting, ending and registered lists, each in its order.
  public static func select(
    _ programs: [Program], week: ISOWeek, day: CalendarDay, district: String? = nil
  ) -> WeekLists {
    var collector = Collector(week: week, day: day)
    if let district {
      collector.add(programs.lazy.filter { $0.district == district })
    } else {
      collector.add(programs)
    }
    return collector.finish()
  }

  /// Programs in report order (see ``areInReportOrder(_:_:)``).
  ///
  /// - Parameter programs: Programs in any order.
  /// - Returns: The same programs, ordered for the report's lists.
  public static func ordered(_ programs: [Program]) -> [Program] {
    programs.sorted(by: areInReportOrder)
  }

  /// The order of the report's lists: by start day (a missing start day last), then
  /// district, then title, then id.
  ///
  /// - Parameters:
  ///   - a: A program.
  ///   - b: Another program.
  /// - Returns: `true` when `a` is listed before `b`.
  public static func areInReportOrder(_ a: Program, _ b: Program) -> Bool {
    switch (a.startDate, b.startDate) {
    case (let x?, let y?) where x != y: return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    default: break
    }
    if a.district != b.district { return a.district < b.district }
    if a.title != b.title { return a.title < b.title }
    return a.id < b.id
  }

  /// The order of the ending list: by end day, then ``areInReportOrder(_:_:)``.
  public static func areInEndingOrder(_ a: Program, _ b: Program) -> Bool {
    switch (a.endDate, b.endDate) {
    case (let x?, let y?) where x != y: return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    default: return areInReportOrder(a, b)
    }
  }

  /// Programs grouped by district in 가나다 order, `unplaced` (the catalog's unknown region:
  /// Seoul's 미상) last; each group keeps the order it was given (the city's running list:
  /// find your district, then its programs by start day).
  public static func byDistrict(_ programs: [Program], unplaced: String = District.unknown)
    -> [(district: String, programs: [Program])]
  {
    var groups: [String: [Program]] = [:]
    for p in programs { groups[p.district, default: []].append(p) }
    let order = groups.keys.sorted { a, b in
      let (ua, ub) = (a == unplaced, b == unplaced)
      return ua != ub ? ub : a < b
    }
    return order.map { ($0, groups[$0] ?? []) }
  }
}
