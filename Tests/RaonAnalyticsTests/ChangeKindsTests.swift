import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonAnalytics

/// Independent geometry for the tests: points moved by an exact distance, and the distance
/// between two points by the chord of their unit vectors (not the haversine formula).
enum Geometry {
  static let radius = 6_371_008.8
  static let degree = Double.pi / 180

  /// A point `meters` due north of (lat, lon): along a meridian the arc is R·Δφ.
  static func north(of p: (Double, Double), meters: Double) -> (Double, Double) {
    (p.0 + meters / radius / degree, p.1)
  }

  /// A point `meters` due east-ish of (lat, lon) on the same parallel, at great-circle
  /// distance `meters`: chord 2·cosφ·sin(Δλ/2) = 2·sin(d/2R).
  static func east(of p: (Double, Double), meters: Double) -> (Double, Double) {
    let dLambda = 2 * asin(sin(meters / (2 * radius)) / cos(p.0 * degree))
    return (p.0, p.1 + dLambda / degree)
  }

  /// Great-circle distance through the chord between the two points' unit vectors.
  static func chordDistance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    func vector(_ p: (Double, Double)) -> (Double, Double, Double) {
      let phi = p.0 * degree
      let lambda = p.1 * degree
      return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }
    let u = vector(a)
    let v = vector(b)
    let chord = ((u.0 - v.0) * (u.0 - v.0) + (u.1 - v.1) * (u.1 - v.1) + (u.2 - v.2) * (u.2 - v.2))
      .squareRoot()
    return 2 * radius * asin(chord / 2)
  }
}

private let cityHall = (37.5665, 126.9780)

private func located(_ id: String, _ p: (Double, Double)?, title: String = "서울 광장") -> Program {
  Program(
    id: id, title: title, category: "클래식", district: "중구", latitude: p?.0, longitude: p?.1,
    imageURL: "https://culture.seoul.go.kr/a.jpg")
}

private func change(_ old: Program, _ new: Program) -> ChangedProgram {
  ChangedProgram(old: old, new: new, fields: SnapshotComparison.fieldChanges(from: old, to: new))
}

// MARK: - Removed: ended or withdrawn

@Test func removedProgramsEndBeforeDOrWereWithdrawn() {
  let d = day("2024-09-12")
  func ending(_ id: String, _ end: String?, start: String? = nil) -> Program {
    Program(id: id, startDate: start.map(day), endDate: end.map(day))
  }
  #expect(ChangeKinds.removal(of: ending("a", "2024-09-11"), day: d) == .ended)  // D−1
  #expect(ChangeKinds.removal(of: ending("a", "2024-09-12"), day: d) == .withdrawn)  // D
  #expect(ChangeKinds.removal(of: ending("a", "2024-09-13"), day: d) == .withdrawn)
  #expect(ChangeKinds.removal(of: ending("a", nil), day: d) == .withdrawn)  // missing end
  #expect(ChangeKinds.removal(of: ending("a", nil, start: "2020-01-01"), day: d) == .withdrawn)
  // End before start, both before D: ended (the end day decides).
  #expect(ChangeKinds.removal(of: ending("a", "2024-09-01", start: "2024-09-20"), day: d) == .ended)

  let removed = [
    ending("cult:9", "2024-09-11"), ending("cult:10", "2024-09-12"), ending("cult:100", nil),
    ending("cult:2", "2023-01-01"), ending("cult:30", "2025-01-01"),
  ]
  let kinds = ChangeKinds.classify(SnapshotDiff(added: [], removed: removed, changed: []), day: d)
  #expect(kinds.day == d)
  #expect(kinds.removedEnded == 2)
  #expect(kinds.removedEndedIds == ["cult:2", "cult:9"])
  #expect(kinds.removedWithdrawn == 3)
  #expect(kinds.removedWithdrawnIds == ["cult:10", "cult:100", "cult:30"])
  #expect(kinds.changedMinor == 0 && kinds.changedMaterial == 0)
}

// MARK: - Coordinates

@Test func independentGeometryAgreesWithItself() {
  // The two independent constructions measure what they were built for.
  #expect(
    abs(Geometry.chordDistance(cityHall, Geometry.north(of: cityHall, meters: 49)) - 49) < 1e-6)
  #expect(
    abs(Geometry.chordDistance(cityHall, Geometry.east(of: cityHall, meters: 51)) - 51) < 1e-6)
}

@Test func coordinateMovesUnderFiftyMetresAreMinor() {
  for (move, minor) in [(49.0, true), (51.0, false), (10.0, true), (0.5, true), (5_000.0, false)] {
    let north = change(
      located("a", cityHall), located("a", Geometry.north(of: cityHall, meters: move)))
    #expect(north.fields.map(\.field) == ["latitude"], "north \(move)")
    #expect(ChangeKinds.isMinor(north) == minor, "north \(move) m")
    let east = change(
      located("a", cityHall), located("a", Geometry.east(of: cityHall, meters: move)))
    #expect(east.fields.map(\.field) == ["longitude"], "east \(move)")
    #expect(ChangeKinds.isMinor(east) == minor, "east \(move) m")
  }
  // Both coordinates move: 34 m north and 34 m east is about 48 m (minor); 40 m and 40 m is
  // about 57 m (material) although each part alone is under 50 m.
  let near = Geometry.east(of: Geometry.north(of: cityHall, meters: 34), meters: 34)
  let far = Geometry.east(of: Geometry.north(of: cityHall, meters: 40), meters: 40)
  #expect(Geometry.chordDistance(cityHall, near) < 49)
  #expect(Geometry.chordDistance(cityHall, far) > 56)
  let nearChange = change(located("a", cityHall), located("a", near))
  #expect(nearChange.fields.map(\.field) == ["latitude", "longitude"])
  #expect(ChangeKinds.isMinor(nearChange))
  #expect(!ChangeKinds.isMinor(change(located("a", cityHall), located("a", far))))
  #expect(ChangeKinds.kind(of: nearChange) == .minor)
}

@Test func coordinateChangesWithAMissingSideAreMaterial() {
  #expect(!ChangeKinds.isMinor(change(located("a", nil), located("a", cityHall))))
  #expect(!ChangeKinds.isMinor(change(located("a", cityHall), located("a", nil))))
  // Only the longitude is known on both sides and it moves by ~1 m: still material.
  var old = located("a", cityHall)
  old.latitude = nil
  var new = old
  new.longitude = cityHall.1 + 0.00001
  let c = change(old, new)
  #expect(c.fields.map(\.field) == ["longitude"])
  #expect(!ChangeKinds.isMinor(c))
  #expect(
    !ChangeKinds.isMinor(
      field: "latitude", old: "", new: "37.5", oldProgram: located("a", nil),
      newProgram: located("a", cityHall)))
}

@Test func haversineDistanceMatchesTheChordConstruction() {
  var g = PropertyRandom(seed: 7)
  for _ in 0..<200 {
    let a = (Double.random(in: 33...39, using: &g), Double.random(in: 124...131, using: &g))
    let b = (
      a.0 + Double.random(in: -0.002...0.002, using: &g),
      a.1 + Double.random(in: -0.002...0.002, using: &g)
    )
    let expected = Geometry.chordDistance(a, b)
    let got = ChangeKinds.distanceMeters(from: a, to: b)
    #expect(abs(got - expected) < 1e-4, "\(a) → \(b)")
  }
  // One degree of latitude on this sphere: R·π/180.
  #expect(abs(ChangeKinds.distanceMeters(from: (0, 0), to: (1, 0)) - 111_195.08) < 0.01)
}

// MARK: - Text, image_url, quality_flags

@Test func whitespaceOnlyTextChangesAreMinor() {
  let base = "서울 광장 음악회"
  let minorVariants = [
    "서울  광장 음악회", " 서울 광장 음악회", "서울 광장 음악회\n", "서울\u{00A0}광장 음악회",
    "서울\u{3000}광장\t음악회", "서울\r\n광장 \n 음악회", "\n\t 서울 광장   음악회 \u{00A0}",
    "서울\u{2028}광장\u{0085}음악회", "서울\u{202F}광장\u{2003}음악회",
  ]
  for variant in minorVariants {
    let c = change(located("a", cityHall, title: base), located("a", cityHall, title: variant))
    #expect(c.fields.map(\.field) == ["title"], "\(variant.debugDescription)")
    #expect(ChangeKinds.isMinor(c), "\(variant.debugDescription)")
  }
  let materialVariants = [
    "서울광장 음악회",  // a space removed, not collapsed
    "서울 광장 음악회.", "서울 광장 음악회 2", "서울\u{200B}광장 음악회",  // zero-width space is not whitespace
    "서울\u{FEFF}광장 음악회", "SEOUL", "",
  ]
  for variant in materialVariants {
    let c = change(located("a", cityHall, title: base), located("a", cityHall, title: variant))
    #expect(!ChangeKinds.isMinor(c), "\(variant.debugDescription)")
  }
  #expect(ChangeKinds.collapsingWhitespace(" 서울\u{00A0}\n 광장 ") == "서울 광장")
  #expect(ChangeKinds.collapsingWhitespace("\u{3000}\t\r\n ") == "")
  #expect(ChangeKinds.collapsingWhitespace("a\u{200B}b") == "a\u{200B}b")
}

@Test func imageURLChangesAreMinorAndQualityFlagsFollowTheTextRule() {
  var new = located("a", cityHall)
  new.imageURL = "https://culture.seoul.go.kr/other.png"
  let image = change(located("a", cityHall), new)
  #expect(image.fields.map(\.field) == ["image_url"])
  #expect(ChangeKinds.isMinor(image))
  new.imageURL = ""
  #expect(ChangeKinds.isMinor(change(located("a", cityHall), new)))

  // A flag that appears or disappears is material, even when it follows a coordinate move.
  #expect(
    !ChangeKinds.isMinor(
      field: "quality_flags", old: "coords_missing", new: "", oldProgram: located("a", nil),
      newProgram: located("a", cityHall)))
  #expect(
    ChangeKinds.isMinor(
      field: "quality_flags", old: "coords_missing ", new: "coords_missing",
      oldProgram: located("a", nil), newProgram: located("a", nil)))
  // Other fields are material whatever they are.
  #expect(
    !ChangeKinds.isMinor(
      field: "fee_text", old: "무료", new: "10,000원", oldProgram: located("a", nil),
      newProgram: located("a", nil)))
  #expect(
    !ChangeKinds.isMinor(
      field: "end_date", old: "2024-09-01", new: "2024-09-02", oldProgram: located("a", nil),
      newProgram: located("a", nil)))
}

@Test func aChangedProgramIsMinorOnlyWhenEveryFieldIsMinor() {
  let old = located("cult:5", cityHall, title: "서울 광장")
  var minorEdit = old
  minorEdit.title = " 서울  광장 "
  minorEdit.imageURL = "https://x/y.jpg"
  (minorEdit.latitude, minorEdit.longitude) = Geometry.north(of: cityHall, meters: 12)
  var materialEdit = minorEdit
  materialEdit.feeText = "무료"
  var farEdit = old
  (farEdit.latitude, farEdit.longitude) = Geometry.north(of: cityHall, meters: 120)
  farEdit.imageURL = "https://x/z.jpg"

  #expect(ChangeKinds.isMinor(change(old, minorEdit)))
  #expect(!ChangeKinds.isMinor(change(old, materialEdit)))
  #expect(!ChangeKinds.isMinor(change(old, farEdit)))
  #expect(ChangeKinds.kind(of: change(old, materialEdit)) == .material)
  // Per field, for the `minor` column of changes.csv.
  let material = change(old, materialEdit)
  #expect(material.fields.map(\.field) == ["title", "fee_text", "latitude", "image_url"])
  #expect(
    material.fields.map { ChangeKinds.isMinor($0, of: material) } == [true, false, true, true])

  func with(_ p: Program, id: String) -> Program {
    var q = p
    q.id = id
    return q
  }
  let before = [
    with(old, id: "cult:5"), with(old, id: "cult:40"), with(old, id: "cult:300"),
    with(old, id: "cult:1000"), with(old, id: "cult:7"),
  ]
  let after = [
    with(minorEdit, id: "cult:5"), with(materialEdit, id: "cult:40"), with(farEdit, id: "cult:300"),
    with(minorEdit, id: "cult:1000"), with(old, id: "cult:7"),  // unchanged
  ]
  let diff = SnapshotComparison.diff(old: before, new: after)
  let kinds = ChangeKinds.classify(diff, day: day("2024-09-12"))
  #expect(kinds.changedMinor == 2)
  #expect(kinds.changedMinorIds == ["cult:1000", "cult:5"])
  #expect(kinds.changedMaterial == 2)
  #expect(kinds.changedMaterialIds == ["cult:300", "cult:40"])
  #expect(kinds.removedEnded == 0 && kinds.removedWithdrawn == 0)
}

// MARK: - Property test against an independent implementation

/// Naive minor rule: Foundation's character sets for whitespace, the chord distance.
private func naiveIsMinor(_ c: ChangedProgram) -> Bool {
  func squeeze(_ s: String) -> String {
    s.components(separatedBy: .whitespacesAndNewlines).filter { !$0.isEmpty }.joined(separator: " ")
  }
  for f in c.fields {
    switch f.field {
    case "image_url": continue
    case "latitude", "longitude":
      guard let a = c.old.latitude, let b = c.old.longitude, let x = c.new.latitude,
        let y = c.new.longitude, Geometry.chordDistance((a, b), (x, y)) < 50
      else { return false }
    default:
      if squeeze(f.old) != squeeze(f.new) { return false }
    }
  }
  return true
}

@Test func changeKindsMatchANaiveImplementationOnRandomEdits() {
  for seed in UInt64(500)...540 {
    var g = PropertyRandom(seed: seed)
    let d = day("2024-09-12")
    var before: [Program] = []
    var after: [Program] = []
    for n in 0..<120 {
      let id = "cult:\(n * 7 % 131)"
      let p0: (Double, Double)? =
        g.chance(0.15)
        ? nil
        : (
          37.5 + Double.random(in: 0...0.1, using: &g),
          126.9 + Double.random(in: 0...0.1, using: &g)
        )
      var old = Program(
        id: id, title: g.text(maxLength: 8), feeText: g.pick(["무료", "1만원", ""]),
        endDate: g.chance(0.2) ? nil : d.adding(days: Int.random(in: -5...5, using: &g)),
        latitude: p0?.0, longitude: p0?.1, imageURL: "https://x/\(n).jpg")
      if g.chance(0.2) { old.qualityFlags = [.coordsMissing] }
      var new = old
      // A few random edits.
      for _ in 0..<Int.random(in: 0...3, using: &g) {
        switch Int.random(in: 0..<7, using: &g) {
        case 0:
          new.title =
            g.pick([" ", "\u{00A0}", "\n", "\u{3000}", "\t "]) + new.title
            + g.pick(["", " ", "\r\n"])
        case 1:
          new.title = new.title.replacingOccurrences(
            of: " ", with: g.pick(["  ", "\u{00A0}", "\t"]))
        case 2: new.title += g.text(maxLength: 3)
        case 3: new.imageURL = g.pick(["", "https://x/new.jpg"])
        case 4:
          if let lat = new.latitude, let lon = new.longitude {
            let meters = Double.random(in: 0...100, using: &g)
            let p =
              g.chance(0.5)
              ? Geometry.north(of: (lat, lon), meters: meters)
              : Geometry.east(of: (lat, lon), meters: meters)
            (new.latitude, new.longitude) = p
          }
        case 5:
          (new.latitude, new.longitude) = g.chance(0.5) ? (nil, nil) : (37.55, 126.99)
        default: new.feeText = g.pick(["무료", "무료 ", "1만원", "2만원"])
        }
      }
      if g.chance(0.1) { new.qualityFlags = new.qualityFlags.isEmpty ? [.coordsMissing] : [] }
      if g.chance(0.85) { before.append(old) }
      if g.chance(0.85) { after.append(new) }
    }
    let diff = SnapshotComparison.diff(old: before, new: after)
    let kinds = ChangeKinds.classify(diff, day: d)
    let naiveMinor = diff.changed.filter(naiveIsMinor).map(\.id).sorted()
    let naiveMaterial = diff.changed.filter { !naiveIsMinor($0) }.map(\.id).sorted()
    let naiveEnded = diff.removed.filter { ($0.endDate?.dayNumber ?? Int.max) < d.dayNumber }.map(
      \.id
    )
    .sorted()
    let naiveWithdrawn = diff.removed.filter { ($0.endDate?.dayNumber ?? Int.max) >= d.dayNumber }
      .map(\.id).sorted()
    #expect(kinds.changedMinorIds == naiveMinor, "seed \(seed)")
    #expect(kinds.changedMaterialIds == naiveMaterial, "seed \(seed)")
    #expect(kinds.changedMinor == naiveMinor.count, "seed \(seed)")
    #expect(kinds.changedMaterial == naiveMaterial.count, "seed \(seed)")
    #expect(kinds.removedEndedIds == naiveEnded, "seed \(seed)")
    #expect(kinds.removedWithdrawnIds == naiveWithdrawn, "seed \(seed)")
    #expect(kinds.removedEnded + kinds.removedWithdrawn == diff.removed.count, "seed \(seed)")
    for c in diff.changed {
      #expect(ChangeKinds.isMinor(c) == naiveIsMinor(c), "seed \(seed) \(c.id) \(c.fields)")
    }
  }
}
