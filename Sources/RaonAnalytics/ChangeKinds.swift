import Foundation
import RaonCore

/// What kind each difference between two snapshots is: removed programs that *ended* or
/// were *withdrawn*, changed programs whose changes are *minor* or *material*.
///
/// D is the reported (newer) snapshot's day in Korea.
///
/// - A removed program **ended** when its end day is known and before D; every other
///   removed program (end day D or later, or missing) was **withdrawn**: it vanished while
///   still current.
/// - A changed program is **minor** when every one of its field changes is minor
///   (``isMinor(field:old:new:oldProgram:newProgram:)``), else **material**.
///
/// Id lists are sorted by id.
public struct ChangeKinds: Sendable, Hashable {
  /// How a removed program left the catalog (`kind` in `changes.csv`).
  public enum Removal: String, Sendable, Hashable, CaseIterable {
    /// Its end day is before D.
    case ended
    /// Every other removed program.
    case withdrawn
  }

  /// How much a changed program changed.
  public enum Change: String, Sendable, Hashable, CaseIterable {
    case material
    case minor
  }

  /// D, the reported snapshot's day.
  public var day: CalendarDay
  public var removedEnded: Int { removedEndedIds.count }
  public var removedWithdrawn: Int { removedWithdrawnIds.count }
  public var changedMaterial: Int { changedMaterialIds.count }
  public var changedMinor: Int { changedMinorIds.count }
  public var removedEndedIds: [String]
  public var removedWithdrawnIds: [String]
  public var changedMaterialIds: [String]
  public var changedMinorIds: [String]

  /// Classifies every removed and changed program of a comparison.
  ///
  /// - Parameters:
  ///   - diff: The comparison of the compared (older) snapshot with the reported one.
  ///   - day: D, the reported snapshot's day in Korea.
  /// - Returns: The counts and id lists of each kind.
  public static func classify(_ diff: SnapshotDiff, day: CalendarDay) -> ChangeKinds {
    var ended: [String] = []
    var withdrawn: [String] = []
    for program in diff.removed {
      switch removal(of: program, day: day) {
      case .ended: ended.append(program.id)
      case .withdrawn: withdrawn.append(program.id)
      }
    }
    var material: [String] = []
    var minor: [String] = []
    for change in diff.changed {
      if isMinor(change) { minor.append(change.id) } else { material.append(change.id) }
    }
    return ChangeKinds(
      day: day, removedEndedIds: ended.sorted(), removedWithdrawnIds: withdrawn.sorted(),
      changedMaterialIds: material.sorted(), changedMinorIds: minor.sorted())
  }

  /// Whether a removed program ended or was withdrawn.
  ///
  /// - Parameters:
  ///   - program: The program as the compared snapshot held it.
  ///   - day: D, the reported snapshot's day in Korea.
  /// - Returns: ``Removal/ended`` when its end day is known and before D, else
  ///   ``Removal/withdrawn``.
  public static func removal(of program: Program, day: CalendarDay) -> Removal {
    if let end = program.endDate, end < day { return .ended }
    return .withdrawn
  }

  /// Whether a changed program's change is minor or material.
  ///
  /// - Parameter change: A changed program.
  /// - Returns: ``Change/minor`` when ``isMinor(_:)``, else ``Change/material``.
  public static func kind(of change: ChangedProgram) -> Change {
    isMinor(change) ? .minor : .material
  }

  /// Whether every field change of a changed program is minor.
  ///
  /// A change with no field changes (which ``SnapshotComparison`` never produces) is minor.
  ///
  /// - Parameter change: A changed program.
  /// - Returns: `true` when minor, `false` when material.
  public static func isMinor(_ change: ChangedProgram) -> Bool {
    change.fields.allSatisfy {
      isMinor(
        field: $0.field, old: $0.old, new: $0.new, oldProgram: change.old, newProgram: change.new)
    }
  }

  /// Whether one field change of a changed program is minor (the `minor` column of a
  /// `changes.csv` row).
  ///
  /// - Parameters:
  ///   - field: One of `change.fields`.
  ///   - change: The changed program.
  /// - Returns: ``isMinor(field:old:new:oldProgram:newProgram:)`` for that field.
  public static func isMinor(_ field: FieldChange, of change: ChangedProgram) -> Bool {
    isMinor(
      field: field.field, old: field.old, new: field.new, oldProgram: change.old,
      newProgram: change.new)
  }

  /// Whether one field change is minor.
  ///
  /// - `latitude` / `longitude`: minor when the program's old and new coordinates are all
  ///   known and less than ``minorMoveMeters`` apart (``distanceMeters(from:to:)``); a change
  ///   where either side lacks a coordinate is material. The texts are not consulted.
  /// - `image_url`: always minor.
  /// - Any other field (text, numbers, dates, `quality_flags`): minor only when `old` and
  ///   `new` are equal once whitespace is normalised (``collapsingWhitespace(_:)``). So a
  ///   `quality_flags` change that follows a coordinate move (say `coords_missing`
  ///   disappearing) is material.
  ///
  /// - Parameters:
  ///   - field: The `programs.csv` column name.
  ///   - old: The old text of the column.
  ///   - new: The new text of the column.
  ///   - oldProgram: The program as the compared snapshot held it.
  ///   - newProgram: The program as the reported snapshot holds it.
  /// - Returns: `true` when the change is minor.
  public static func isMinor(
    field: String, old: String, new: String, oldProgram: Program, newProgram: Program
  ) -> Bool {
    switch field {
    case "latitude", "longitude":
      guard let lat1 = oldProgram.latitude, let lon1 = oldProgram.longitude,
        let lat2 = newProgram.latitude, let lon2 = newProgram.longitude
      else { return false }
      return distanceMeters(from: (lat1, lon1), to: (lat2, lon2)) < minorMoveMeters
    case "image_url":
      return true
    default:
      return collapsingWhitespace(old) == collapsingWhitespace(new)
    }
  }

  /// A coordinate move shorter than this (in metres) is minor.
  public static let minorMoveMeters = 50.0

  /// The mean earth radius used for distances (IUGG), in metres.
  public static let earthRadiusMeters = 6_371_008.8

  /// The great-circle distance between two points, by the haversine formula.
  ///
  /// - Parameters:
  ///   - a: Latitude and longitude in degrees.
  ///   - b: Latitude and longitude in degrees.
  /// - Returns: The distance in metres (on a sphere of ``earthRadiusMeters``).
  public static func distanceMeters(
    from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)
  ) -> Double {
    let radians = Double.pi / 180
    let phi1 = a.latitude * radians
    let phi2 = b.latitude * radians
    let dPhi = (b.latitude - a.latitude) * radians
    let dLambda = (b.longitude - a.longitude) * radians
    let h =
      sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * earthRadiusMeters * asin(min(1, h.squareRoot()))
  }

  /// Text with every run of whitespace (any Unicode `White_Space` scalar: spaces, tabs,
  /// newlines, U+00A0, U+3000, …) made one space, and leading and trailing whitespace
  /// removed.
  ///
  /// ```swift
  /// ChangeKinds.collapsingWhitespace(" 서울\u{00A0}\n 광장 ")   // "서울 광장"
  /// ```
  ///
  /// - Parameter text: Any text.
  /// - Returns: The normalised text.
  public static func collapsingWhitespace(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace {
        pendingSpace = !out.isEmpty
      } else {
        if pendingSpace { out.append(" ") }
        pendingSpace = false
        out.append(scalar)
      }
    }
    return String(out)
  }
}
