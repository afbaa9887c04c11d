import Foundation

/// What the trend needs of a program: its id, dates, category, district and fee kind.
///
/// Lighter than ``Program``, so a store can read a year of snapshots' trend columns only.
public struct TrendProgram: Sendable, Hashable {
  public var id: String
  public var category: String
  public var district: String
  /// `nil` when unknown.
  public var isFree: Bool?
  public var startDate: CalendarDay?
  public var endDate: CalendarDay?
  public var registeredOn: CalendarDay?

  public init(
    id: String, category: String = "", district: String = District.unknown, isFree: Bool? = false,
    startDate: CalendarDay? = nil, endDate: CalendarDay? = nil, registeredOn: CalendarDay? = nil
  ) {
    self.id = id
    self.category = category
    self.district = district
    self.isFree = isFree
    self.startDate = startDate
    self.endDate = endDate
    self.registeredOn = registeredOn
  }

  /// The trend columns of a program.
  ///
  /// - Parameter program: A program.
  public init(_ program: Program) {
    self.init(
      id: program.id, category: program.category, district: program.district,
      isFree: program.isFree, startDate: program.startDate, endDate: program.endDate,
      registeredOn: program.registeredOn)
  }
}
