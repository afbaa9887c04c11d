import Foundation
import RaonCore

extension WeeklyTrend {
  /// ``WeeklyTrend/points(_:)`` fed with what changes between consecutive points rather
  /// than with every point's whole catalog: a store that keeps membership as intervals
  /// can give a year of snapshots as the versions entering and leaving (a few hundred a
  /// week) instead of 52 catalogs.
  ///
  /// The builder keeps the present programs (each under a key the caller chooses, e.g. a
  /// stored version's id, with its number of copies). When a point closes, its figures
  /// are counted over them in memory by ``WeekView``'s rules for the point's own week and
  /// day, each entry counting `copies` times, exactly as ``Builder`` counts rows; `added`
  /// and `removed` compare distinct program ids with the point before, looking only at
  /// the ids whose entries changed. The result equals ``points(_:)`` over each point's
  /// whole catalog.
  ///
  /// ```swift
  /// var builder = WeeklyTrend.IncrementalBuilder()
  /// for step in steps {
  ///   builder.startPoint(step.info)
  ///   for gone in step.leaving { builder.leave(key: gone.key) }
  ///   for new in step.entering { builder.enter(new.program, copies: new.copies, key: new.key) }
  /// }
  /// let trend = builder.points
  /// ```
  public struct IncrementalBuilder: Sendable {
    private var finished: [WeeklyTrendPoint] = []
    private var open: SnapshotInfo?

    // The present entries, as parallel arrays (removal swaps the last one in).
    private var keys: [Int64] = []
    private var starts: [CalendarDay?] = []
    private var ends: [CalendarDay?] = []
    private var registrations: [CalendarDay?] = []
    private var copies: [Int] = []
    private var idSlots: [Int] = []
    private var indexByKey: [Int64: Int] = [:]
    private var programCount = 0

    // Program ids, interned: how many present entries hold each, whether the previous
    // point held it, and which changed since that point.
    private var slotByID: [String: Int] = [:]
    private var entriesPerSlot: [Int] = []
    private var heldAtLastPoint: [Bool] = []
    private var touched: [Int] = []
    private var isTouched: [Bool] = []
    private var hasPreviousPoint = false

    /// An empty series.
    public init() {}

    /// Ends the point being built (if any) and starts one for `info`; the present
    /// programs carry over, to be changed with ``enter(_:copies:key:)`` and
    /// ``leave(key:)``.
    ///
    /// - Parameter info: The next chosen snapshot, oldest first.
    public mutating func startPoint(_ info: SnapshotInfo) {
      close()
      open = info
    }

    /// Adds a program held `copies` times, under `key` (unique among present entries).
    ///
    /// - Parameters:
    ///   - program: The program's trend columns.
    ///   - copies: How many rows of the catalog it is (≥ 1).
    ///   - key: The handle ``leave(key:)`` takes; an entry already under `key` is replaced.
    public mutating func enter(_ program: TrendProgram, copies count: Int = 1, key: Int64) {
      if indexByKey[key] != nil { leave(key: key) }
      let slot: Int
      if let known = slotByID[program.id] {
        slot = known
      } else {
        slot = entriesPerSlot.count
        slotByID[program.id] = slot
        entriesPerSlot.append(0)
        heldAtLastPoint.append(false)
        isTouched.append(false)
      }
      indexByKey[key] = keys.count
      keys.append(key)
      starts.append(program.startDate)
      ends.append(program.endDate)
      registrations.append(program.registeredOn)
      copies.append(max(0, count))
      idSlots.append(slot)
      programCount += max(0, count)
      entriesPerSlot[slot] += 1
      touch(slot)
    }

    /// Removes the entry added under `key`; nothing when there is none.
    ///
    /// - Parameter key: The key given to ``enter(_:copies:key:)``.
    public mutating func leave(key: Int64) {
      guard let index = indexByKey.removeValue(forKey: key) else { return }
      let slot = idSlots[index]
      programCount -= copies[index]
      entriesPerSlot[slot] -= 1
      touch(slot)
      let lastIndex = keys.count - 1
      if index != lastIndex {
        keys[index] = keys[lastIndex]
        starts[index] = starts[lastIndex]
        ends[index] = ends[lastIndex]
        registrations[index] = registrations[lastIndex]
        copies[index] = copies[lastIndex]
        idSlots[index] = idSlots[lastIndex]
        indexByKey[keys[index]] = index
      }
      keys.removeLast()
      starts.removeLast()
      ends.removeLast()
      registrations.removeLast()
      copies.removeLast()
      idSlots.removeLast()
    }

    /// Every point so far, the current one included, oldest first.
    public var points: [WeeklyTrendPoint] {
      var copy = self
      copy.close()
      return copy.finished
    }

    private mutating func touch(_ slot: Int) {
      if !isTouched[slot] {
        isTouched[slot] = true
        touched.append(slot)
      }
    }

    private mutating func close() {
      guard let info = open else { return }
      open = nil
      let day = info.koreaDay
      let week = ISOWeek(containing: day)
      let monday = week.start
      let sunday = week.end
      let registeredFrom = day.adding(days: -6)
      var current = 0
      var running = 0
      var starting = 0
      var registered = 0
      for i in keys.indices {
        let n = copies[i]
        if WeekView.isCurrent(end: ends[i], monday: monday) { current += n }
        if WeekView.isRunning(start: starts[i], end: ends[i], monday: monday, sunday: sunday) {
          running += n
        }
        if WeekView.isWithin(starts[i], from: monday, to: sunday) { starting += n }
        if WeekView.isWithin(registrations[i], from: registeredFrom, to: day) { registered += n }
      }
      var added = 0
      var removed = 0
      for slot in touched {
        let held = entriesPerSlot[slot] > 0
        if held && !heldAtLastPoint[slot] { added += 1 }
        if !held && heldAtLastPoint[slot] { removed += 1 }
        heldAtLastPoint[slot] = held
        isTouched[slot] = false
      }
      touched.removeAll(keepingCapacity: true)
      finished.append(
        WeeklyTrendPoint(
          isoWeek: week, snapshotId: info.id, takenAt: info.takenAt, programCount: programCount,
          current: current, running: running, starting: starting, registered: registered,
          added: hasPreviousPoint ? added : nil, removed: hasPreviousPoint ? removed : nil))
      hasPreviousPoint = true
    }
  }
}
