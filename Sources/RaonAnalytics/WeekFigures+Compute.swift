import RaonCore

extension WeekFigures {
  /// The headline figures of a week over a catalog.
  ///
  /// - A program is *active* when it runs on some day of the week: start ≤ Sunday and
  ///   end ≥ Monday. A program with only one known date is active when that date lies in the
  ///   week (nothing says how long it runs, so only the day it names counts); a program with
  ///   no date is never active. Dates are taken as given: a program whose end is before its
  ///   start is active only when both dates lie in the week.
  /// - A program is *starting* when its start date lies in the week (Monday to Sunday).
  ///
  /// The per-category and per-district lists hold the keys with at least one program,
  /// ranked by count descending then key.
  ///
  /// - Parameters:
  ///   - programs: The snapshot's programs.
  ///   - week: The ISO week.
  /// - Returns: The week's figures.
  public static func compute(programs: [Program], week: ISOWeek) -> WeekFigures {
    var figures = Accumulator(week: week)
    figures.add(programs)
    return figures.figures
  }

  /// ``compute(programs:week:)`` fed a chunk at a time (``ProgramChunks``).
  public struct Accumulator: Sendable {
    public let week: ISOWeek
    private let monday: CalendarDay
    private let sunday: CalendarDay
    private var active = 0
    private var starting = 0
    private var activeFree = 0
    private var activeByCategory = KeyCounter()
    private var activeByDistrict = KeyCounter()
    private var startingByCategory = KeyCounter()
    private var startingByDistrict = KeyCounter()

    public init(week: ISOWeek) {
      self.week = week
      self.monday = week.start
      self.sunday = week.end
    }

    /// Counts `programs` in.
    public mutating func add(_ programs: [Program]) {
      // Field reads through the buffer borrow each program in place (no per-row copy).
      programs.withUnsafeBufferPointer { rows in
        for i in rows.indices {
          let start = rows[i].startDate
          if WeekFigures.isActive(start: start, end: rows[i].endDate, from: monday, to: sunday) {
            active += 1
            if rows[i].isFree == true { activeFree += 1 }
            activeByCategory.add(rows[i].category)
            activeByDistrict.add(rows[i].district)
          }
          if let start, start >= monday, start <= sunday {
            starting += 1
            startingByCategory.add(rows[i].category)
            startingByDistrict.add(rows[i].district)
          }
        }
      }
    }

    /// The figures of every program added so far.
    public var figures: WeekFigures {
      WeekFigures(
        week: week, active: active, starting: starting, activeFree: activeFree,
        activeByCategory: activeByCategory.ranked, activeByDistrict: activeByDistrict.ranked,
        startingByCategory: startingByCategory.ranked, startingByDistrict: startingByDistrict.ranked)
    }
  }

  static func isActive(
    start: CalendarDay?, end: CalendarDay?, from monday: CalendarDay, to sunday: CalendarDay
  ) -> Bool {
    switch (start, end) {
    case let (s?, e?): return s <= sunday && e >= monday
    case let (s?, nil): return s >= monday && s <= sunday
    case let (nil, e?): return e >= monday && e <= sunday
    case (nil, nil): return false
    }
  }
}
