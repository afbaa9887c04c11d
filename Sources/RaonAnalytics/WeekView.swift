import RaonCore

/// One snapshot's figures for one ISO week: what is on, what starts and ends, what was
/// newly registered — the view the weekly report leads with.
///
/// W is the report's ISO week (Monday ``ISOWeek/start`` to Sunday ``ISOWeek/end``, Korea
/// time); D is the snapshot's day in Korea (``SnapshotInfo/koreaDay``). A program is
///
/// - **current** when its end day is missing, or end ≥ W's Monday (running or upcoming);
/// - **running** when both days are known, start ≤ W's Sunday and end ≥ W's Monday;
/// - **starting** / **ending** when its start / end day lies in W (Monday … Sunday);
/// - **registered** when `registeredOn` lies in D−6 … D (the seven days up to D).
///
/// Dates are taken as given: a program whose end is before its start is judged by the same
/// comparisons (so it is running only when its start ≤ Sunday and its end ≥ Monday). Each
/// program row counts once; a catalog that repeats an id counts each row.
///
/// Ranked lists (`…ByCategory`, `…ByDistrict`) hold the keys with at least one program, by
/// count descending then key; id lists are sorted by id.
public struct WeekView: Sendable, Hashable {
  /// W, the week the figures are about.
  public var isoWeek: ISOWeek
  /// D, the snapshot's day in Korea.
  public var day: CalendarDay
  public var current: Int
  public var running: Int
  public var starting: Int
  public var ending: Int
  public var registered: Int
  /// Running programs that are free.
  public var runningFree: Int
  public var runningByCategory: [BandCount]
  public var runningByDistrict: [BandCount]
  public var currentByCategory: [BandCount]
  public var currentByDistrict: [BandCount]
  public var startingIds: [String]
  public var endingIds: [String]
  public var registeredIds: [String]

  /// The week's view of a catalog.
  ///
  /// ```swift
  /// let view = WeekView.compute(programs: programs, week: ISOWeek(containing: info.koreaDay),
  ///                             day: info.koreaDay)
  /// view.running   // programs on some day of the week
  /// ```
  ///
  /// - Parameters:
  ///   - programs: The snapshot's programs.
  ///   - week: W, the report's ISO week.
  ///   - day: D, the snapshot's day in Korea.
  ///   - district: When given, only programs of this district count (a district pack).
  /// - Returns: The figures.
  public static func compute(
    programs: [Program], week: ISOWeek, day: CalendarDay, district: String? = nil
  ) -> WeekView {
    var accumulator = Accumulator(week: week, day: day, district: district)
    accumulator.add(programs)
    return accumulator.view
  }

  /// A snapshot's view of its own week and day: W is the ISO week of the snapshot's day in
  /// Korea and D that day (the previous week's figures, as that week's report gave them).
  ///
  /// - Parameters:
  ///   - programs: The snapshot's programs.
  ///   - snapshot: The snapshot.
  ///   - district: When given, only programs of this district count.
  /// - Returns: The figures.
  public static func compute(
    programs: [Program], ownWeekOf snapshot: SnapshotInfo, district: String? = nil
  ) -> WeekView {
    var accumulator = Accumulator(ownWeekOf: snapshot, district: district)
    accumulator.add(programs)
    return accumulator.view
  }

  // MARK: - Per-program rules

  /// Whether a program is current in `week`: end day missing, or end ≥ the week's Monday.
  ///
  /// - Parameters:
  ///   - program: The program.
  ///   - week: W.
  /// - Returns: `true` when running or upcoming (not ended before W).
  public static func isCurrent(_ program: Program, week: ISOWeek) -> Bool {
    isCurrent(end: program.endDate, monday: week.start)
  }

  /// Whether a program runs on some day of `week`: both days known, start ≤ Sunday and
  /// end ≥ Monday.
  ///
  /// - Parameters:
  ///   - program: The program.
  ///   - week: W.
  /// - Returns: `true` when running in W.
  public static func isRunning(_ program: Program, week: ISOWeek) -> Bool {
    isRunning(start: program.startDate, end: program.endDate, monday: week.start, sunday: week.end)
  }

  /// Whether a program's start day lies in `week` (Monday … Sunday).
  ///
  /// - Parameters:
  ///   - program: The program.
  ///   - week: W.
  /// - Returns: `true` when it starts in W.
  public static func isStarting(_ program: Program, week: ISOWeek) -> Bool {
    isWithin(program.startDate, from: week.start, to: week.end)
  }

  /// Whether a program's end day lies in `week` (Monday … Sunday).
  ///
  /// - Parameters:
  ///   - program: The program.
  ///   - week: W.
  /// - Returns: `true` when it ends in W.
  public static func isEnding(_ program: Program, week: ISOWeek) -> Bool {
    isWithin(program.endDate, from: week.start, to: week.end)
  }

  /// Whether a program was registered in the seven days up to `day` (D−6 … D).
  ///
  /// - Parameters:
  ///   - program: The program.
  ///   - day: D, the snapshot's day in Korea.
  /// - Returns: `true` when `registeredOn` is known and lies in D−6 … D.
  public static func isRegistered(_ program: Program, day: CalendarDay) -> Bool {
    isWithin(program.registeredOn, from: day.adding(days: -6), to: day)
  }

  // Day-level forms, shared with ``TrendProgram``.

  static func isCurrent(end: CalendarDay?, monday: CalendarDay) -> Bool {
    guard let end else { return true }
    return end >= monday
  }

  static func isRunning(
    start: CalendarDay?, end: CalendarDay?, monday: CalendarDay, sunday: CalendarDay
  ) -> Bool {
    guard let start, let end else { return false }
    return start <= sunday && end >= monday
  }

  static func isWithin(_ value: CalendarDay?, from first: CalendarDay, to last: CalendarDay) -> Bool
  {
    guard let value else { return false }
    return value >= first && value <= last
  }

  // MARK: - Chunk-fed computation

  /// ``compute(programs:week:day:district:)`` fed a chunk at a time (``ProgramChunks``).
  ///
  /// Adding the chunks of a catalog in any split gives the same view as one
  /// ``compute(programs:week:day:district:)`` over the whole catalog.
  public struct Accumulator: Sendable {
    public let week: ISOWeek
    public let day: CalendarDay
    /// When set, only programs of this district count.
    public let district: String?
    private let monday: CalendarDay
    private let sunday: CalendarDay
    private let registeredFrom: CalendarDay
    private var current = 0
    private var running = 0
    private var runningFree = 0
    private var runningByCategory = KeyCounter()
    private var runningByDistrict = KeyCounter()
    private var currentByCategory = KeyCounter()
    private var currentByDistrict = KeyCounter()
    private var startingIds: [String] = []
    private var endingIds: [String] = []
    private var registeredIds: [String] = []

    /// An empty accumulator.
    ///
    /// - Parameters:
    ///   - week: W, the report's ISO week.
    ///   - day: D, the snapshot's day in Korea.
    ///   - district: When given, only programs of this district count.
    public init(week: ISOWeek, day: CalendarDay, district: String? = nil) {
      self.week = week
      self.day = day
      self.district = district
      self.monday = week.start
      self.sunday = week.end
      self.registeredFrom = day.adding(days: -6)
    }

    /// An empty accumulator for a snapshot's own week and day (see
    /// ``WeekView/compute(programs:ownWeekOf:district:)``).
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot.
    ///   - district: When given, only programs of this district count.
    public init(ownWeekOf snapshot: SnapshotInfo, district: String? = nil) {
      let day = snapshot.koreaDay
      self.init(week: ISOWeek(containing: day), day: day, district: district)
    }

    /// Counts `programs` in.
    ///
    /// - Parameter programs: The next chunk of the catalog.
    public mutating func add(_ programs: [Program]) {
      programs.withUnsafeBufferPointer { rows in
        for i in rows.indices {
          if let district, !(sameUTF8(rows[i].district, district) || rows[i].district == district) {
            continue
          }
          let start = rows[i].startDate
          let end = rows[i].endDate
          if WeekView.isCurrent(end: end, monday: monday) {
            current += 1
            currentByCategory.add(rows[i].category)
            currentByDistrict.add(rows[i].district)
          }
          if WeekView.isRunning(start: start, end: end, monday: monday, sunday: sunday) {
            running += 1
            if rows[i].isFree == true { runningFree += 1 }
            runningByCategory.add(rows[i].category)
            runningByDistrict.add(rows[i].district)
          }
          if WeekView.isWithin(start, from: monday, to: sunday) { startingIds.append(rows[i].id) }
          if WeekView.isWithin(end, from: monday, to: sunday) { endingIds.append(rows[i].id) }
          if WeekView.isWithin(rows[i].registeredOn, from: registeredFrom, to: day) {
            registeredIds.append(rows[i].id)
          }
        }
      }
    }

    /// The view of every program added so far.
    public var view: WeekView {
      WeekView(
        isoWeek: week, day: day, current: current, running: running,
        starting: startingIds.count, ending: endingIds.count, registered: registeredIds.count,
        runningFree: runningFree, runningByCategory: runningByCategory.ranked,
        runningByDistrict: runningByDistrict.ranked, currentByCategory: currentByCategory.ranked,
        currentByDistrict: currentByDistrict.ranked, startingIds: startingIds.sorted(),
        endingIds: endingIds.sorted(), registeredIds: registeredIds.sorted())
    }
  }
}
