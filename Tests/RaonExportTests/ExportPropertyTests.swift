import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// `csv/programs.csv` read back gives the programs that were written.
///
/// What round-trips, exactly:
/// - every text column (`id`, `title`, `category`, `district`, `place`, `organizer`,
///   `audience`, `fee_text`, `theme`, `portal_url`, `org_link`, `image_url`), byte for
///   byte, once the formula guard is taken off: a cell `'X` where `X` itself would need the
///   guard is read as `X`. (The one text that cannot round-trip is one that *starts* with
///   `'` followed by a guarded text, such as `'=1`: it is written as is and reads back as
///   `=1`. See ``guardIsAmbiguousOnlyForTextStartingWithAQuoteAndAFormula``.)
/// - `is_free` (`true`/`false`), `fee_min_krw`/`fee_max_krw` (any `Int`, empty = nil),
///   `start_date`/`end_date`/`registered_on` (`YYYY-MM-DD`, years 1–9999, empty = nil),
///   `latitude`/`longitude` (any finite `Double`, exactly: shortest round-trip text),
///   `quality_flags` (the named flags, in any combination);
/// - `duration_days` is derived: it equals `end - start + 1` of what was read back.
@Suite struct ExportPropertyTests {
  nonisolated(unsafe) static let textColumns: [(String, WritableKeyPath<Program, String>)] = [
    ("id", \.id), ("title", \.title), ("category", \.category), ("district", \.district),
    ("place", \.place), ("organizer", \.organizer), ("audience", \.audience),
    ("fee_text", \.feeText), ("theme", \.theme), ("portal_url", \.portalURL),
    ("org_link", \.orgLink), ("image_url", \.imageURL),
  ]

  static func needsGuard(_ s: Substring) -> Bool {
    Array(s.utf8).withUnsafeBufferPointer { CSVFileWriter.needsFormulaGuard($0) }
  }

  static func unguard(_ cell: String) -> String {
    cell.hasPrefix("'") && needsGuard(cell.dropFirst()) ? String(cell.dropFirst()) : cell
  }

  static func randomDay(_ g: inout PropertyRandom) -> CalendarDay? {
    if g.chance(0.2) { return nil }
    let year = g.chance(0.8) ? Int.random(in: 2000...2030, using: &g) : Int.random(in: 1...9999, using: &g)
    return CalendarDay(year: year, month: Int.random(in: 1...12, using: &g), day: Int.random(in: 1...28, using: &g))
  }

  static func randomCoordinate(_ g: inout PropertyRandom) -> Double? {
    switch Int.random(in: 0..<5, using: &g) {
    case 0: return nil
    case 1: return Double.random(in: 37...38, using: &g)
    case 2: return Double.random(in: 126...128, using: &g)
    case 3: return g.pick([0, -0.0, 1e-300, -1e-5, 1e300, -180, .leastNonzeroMagnitude, .greatestFiniteMagnitude])
    default: return Double(bitPattern: g.next() & 0x7FEF_FFFF_FFFF_FFFF) * (g.chance(0.5) ? 1 : -1)
    }
  }

  static func randomText(_ g: inout PropertyRandom) -> String {
    var t = g.chance(0.7) ? g.text() : g.anyScalars()
    // The one class that cannot round-trip (documented above) is tested on its own.
    if t.hasPrefix("'") && needsGuard(t.dropFirst()) { t = "x" + t }
    return t
  }

  static func randomProgram(_ g: inout PropertyRandom, index: Int) -> Program {
    var p = Program(id: g.chance(0.8) ? "cult:\(100_000 + index)" : "h:\(index)" + randomText(&g))
    for (_, path) in textColumns.dropFirst() { p[keyPath: path] = randomText(&g) }
    p.isFree = g.chance(0.5)
    if g.chance(0.8) {
      let a = g.chance(0.1) ? Int.max : Int.random(in: 0...1_000_000_000, using: &g)
      p.feeMinKRW = a
      p.feeMaxKRW = g.chance(0.1) ? Int.min : a
    }
    p.startDate = randomDay(&g)
    p.endDate = randomDay(&g)
    p.registeredOn = randomDay(&g)
    p.latitude = randomCoordinate(&g)
    p.longitude = randomCoordinate(&g)
    for (flag, _) in QualityFlags.named where g.chance(0.2) { p.qualityFlags.insert(flag) }
    return p
  }

  static func readBack(_ row: [String]) -> Program? {
    guard row.count == Program.csvColumns.count else { return nil }
    var cells: [String: String] = [:]
    for (name, cell) in zip(Program.csvColumns, row) { cells[name] = cell }
    func text(_ name: String) -> String { unguard(cells[name] ?? "") }
    func int(_ name: String) -> Int? { Int(text(name)) }
    func day(_ name: String) -> CalendarDay? { CalendarDay(iso: text(name)) }
    func double(_ name: String) -> Double? { Double(text(name)) }
    var p = Program(id: text("id"))
    for (name, path) in textColumns.dropFirst() { p[keyPath: path] = text(name) }
    p.isFree = text("is_free") == "true"
    p.feeMinKRW = int("fee_min_krw")
    p.feeMaxKRW = int("fee_max_krw")
    p.startDate = day("start_date")
    p.endDate = day("end_date")
    p.registeredOn = day("registered_on")
    p.latitude = double("latitude")
    p.longitude = double("longitude")
    p.qualityFlags = QualityFlags(joinedNames: text("quality_flags"))
    #expect(text("duration_days") == (p.durationDays.map(String.init) ?? ""))
    return p
  }

  @Test(arguments: [CSVEncoding.utf8BOM, .utf8], [UInt64(1), 2, 3, 4])
  func programsCSVReadsBackAsTheProgramsWritten(encoding: CSVEncoding, seed: UInt64) throws {
    var g = PropertyRandom(seed: seed)
    let programs = (0..<300).map { Self.randomProgram(&g, index: $0) }
    let snapshot = SnapshotInfo(
      id: 1, takenAt: Date(timeIntervalSince1970: 1_725_845_400), source: "property",
      programCount: programs.count)
    let week = ISOWeek(containing: snapshot.koreaDay)
    let report = TestReport(
      try ReportAssembler.assemble(snapshot: snapshot, programs: programs, compareTo: nil, week: week), programs: programs)
    let out = try Fixtures.temporaryDirectory("raon-roundtrip")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = try CSVReportWriter().write(report, into: out, options: ExportOptions(csvEncoding: encoding))
    var data = try Data(contentsOf: out.appendingPathComponent("csv/programs.csv"))
    if encoding == .utf8BOM {
      #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF])
      data = data.dropFirst(3)
    }
    let rows = CSVTestReader.parse(String(decoding: data, as: UTF8.self))
    #expect(rows.first == Program.csvColumns)
    #expect(rows.count == programs.count + 1, "seed \(seed)")
    for (row, written) in zip(rows.dropFirst(), try report.programs.collect()) {
      let read = Self.readBack(row)
      #expect(read == written, "seed \(seed): \(written.id.debugDescription)")
      // String == is canonical equivalence; the bytes must be the same too.
      for (name, path) in Self.textColumns {
        #expect(read.map { Array($0[keyPath: path].utf8) } == Array(written[keyPath: path].utf8), "\(name)")
      }
    }
    // No cell starts a formula (real numbers such as `-1e-05` are numbers, not formulas).
    for row in rows.dropFirst() {
      for cell in row where Double(cell) == nil {
        #expect(!Self.needsGuard(Substring(cell)), "unguarded formula \(cell.debugDescription)")
      }
    }
  }

  @Test func guardIsAmbiguousOnlyForTextStartingWithAQuoteAndAFormula() throws {
    // Documented limit: `'=1` and `=1` are both written `'=1`.
    let programs = [Program(id: "cult:1", title: "'=1"), Program(id: "cult:2", title: "=1")]
    let snapshot = SnapshotInfo(id: 1, takenAt: Date(timeIntervalSince1970: 0), source: "s", programCount: 2)
    let report = TestReport(
      try ReportAssembler.assemble(
        snapshot: snapshot, programs: programs, compareTo: nil, week: ISOWeek(containing: snapshot.koreaDay)),
      programs: programs)
    let out = try Fixtures.temporaryDirectory("raon-guard")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = try CSVReportWriter().write(report, into: out, options: ExportOptions(csvEncoding: .utf8))
    let rows = try CSVTestReader.parse(String(contentsOf: out.appendingPathComponent("csv/programs.csv"), encoding: .utf8))
    #expect(rows[1][1] == "'=1" && rows[2][1] == "'=1")
  }
}
