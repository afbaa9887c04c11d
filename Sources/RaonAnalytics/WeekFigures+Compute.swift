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
    let monday = week.start
    let sunday = week.end
    var active = 0
    var starting = 0
    var activeFree = 0
    var activeByCategory = KeyCounter()
    var activeByDistrict = KeyCounter()
    var startingByCategory = KeyCounter()
    var startingByDistrict = KeyCounter()
    // Field reads through the buffer borrow each program in place (no per-row copy).
    programs.withUnsafeBufferPointer { rows in
      for i in rows.indices {
        let start = rows[i].startDate
        if isActive(start: start, end: rows[i].endDate, from: monday, to: sunday) {
          active += 1
          if rows[i].isFree { activeFree += 1 }
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
    return WeekFigures(
      week: week, active: active, starting: starting, activeFree: activeFree,
      activeByCategory: activeByCategory.ranked, activeByDistrict: activeByDistrict.ranked,
      startingByCategory: startingByCategory.ranked, startingByDistrict: startingByDistrict.ranked)
  }

  /// Whether a program with these dates runs on some day of `monday...sunday`.
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
