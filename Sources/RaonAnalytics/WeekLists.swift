import RaonCore

/// The week's program lists — starting, ending, newly registered — in report order.
///
/// Membership follows ``WeekView``'s rules (``WeekView/isStarting(_:week:)``,
/// ``WeekView/isEnding(_:week:)``, ``WeekView/isRegistered(_:day:)``), so a list's length is
/// the view's figure. Every list is in ``WeekLists/areInReportOrder(_:_:)`` order.
public struct WeekLists: Sendable, Hashable {
  public var starting: [Program]
  public var ending: [Program]
  public var registered: [Program]

  public init(starting: [Program], ending: [Program], registered: [Program]) {
    self.starting = starting
    self.ending = ending
    self.registered = registered
  }

  /// The full, ordered lists of a catalog for a week.
  ///
  /// - Parameters:
  ///   - programs: The snapshot's programs.
  ///   - week: W, the report's ISO week.
  ///   - day: D, the snapshot's day in Korea.
  ///   - district: When given, only programs of this district are listed.
  /// - Returns: The starting, ending and registered lists, each in report order.
  public static func select(
    _ programs: [Program], week: ISOWeek, day: CalendarDay, district: String? = nil
  ) -> WeekLists {
    var starting: [Program] = []
    var ending: [Program] = []
    var registered: [Program] = []
    for program in programs {
      if let district, program.district != district { continue }
      if WeekView.isStarting(program, week: week) { starting.append(program) }
      if WeekView.isEnding(program, week: week) { ending.append(program) }
      if WeekView.isRegistered(program, day: day) { registered.append(program) }
    }
    return WeekLists(
      starting: ordered(starting), ending: ordered(ending), registered: ordered(registered))
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
}
