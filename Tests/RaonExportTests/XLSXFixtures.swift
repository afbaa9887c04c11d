import CXlsxWriter
import Foundation
@testable import RaonAnalytics
import RaonCore
import Testing

@testable import RaonDocument
@testable import RaonExport

/// Hand-built report values for the XLSX tests: a dozen programs with Korean text, the
/// awkward cases (formula-looking title, over-long cell, odd URLs) and a comparison.
enum XLSXFixtures {
  static let formulaTitle = "=HYPERLINK(\"http://x\",\"y\")"
  static let longPlace = String(repeating: "가", count: 40_000)

  static func day(_ text: String) -> CalendarDay? { CalendarDay(iso: text) }

  static var programs: [Program] {
    let rows: [(String, String, String, String, Bool, Int?, String, String)] = [
      ("cult:100001", "서울시향 정기공연 — 베토벤 교향곡 전곡", "클래식", "종로구", false, 30000, "2024-09-10", "2024-09-12"),
      ("cult:100002", "국립현대미술관 특별전: 한국 근현대 회화", "전시/미술", "종로구", true, nil, "2024-08-01", "2024-12-31"),
      ("cult:100003", "뮤지컬 〈영웅〉", "뮤지컬/오페라", "중구", false, 60000, "2024-09-01", "2024-10-20"),
      ("cult:100004", formulaTitle, "연극", "마포구", false, 20000, "2024-09-09", "2024-09-09"),
      ("cult:100005", "한강 불꽃축제", "축제-문화/예술", "영등포구", true, nil, "2024-10-05", "2024-10-05"),
      ("cult:100006", "어린이 국악 체험교실", "교육/체험", "강남구", true, nil, "2024-09-02", "2024-11-30"),
      ("cult:100007", "정동 야행", "축제-문화/예술", "중구", true, nil, "2024-09-13", "2024-09-14"),
      ("cult:100008", "서울재즈페스티벌", "콘서트", "송파구", false, 154000, "2024-09-14", "2024-09-15"),
      ("cult:100009", "궁중문화축전", "국악", "종로구", true, nil, "2024-09-09", "2024-09-15"),
      ("cult:100010", "연극 〈햄릿〉", "연극", "종로구", false, 45000, "2024-09-20", "2024-09-10"),
      ("cult:100011", "마포 책 축제", "축제-문화/예술", "마포구", true, nil, "2024-09-07", "2024-09-08"),
      ("h:0123456789abcdef", "Untitled exhibition", "전시/미술", District.unknown, false, nil, "2024-09-11", "2024-09-30"),
    ]
    return rows.enumerated().map { i, r in
      var p = Program(
        id: r.0, title: r.1, category: r.2, district: r.3, place: "세종문화회관 대극장",
        organizer: "서울특별시", audience: "누구나", feeText: r.4 ? "무료" : "R석 \(r.5 ?? 0)원",
        isFree: r.4, feeMinKRW: r.4 ? 0 : r.5, feeMaxKRW: r.4 ? 0 : r.5,
        startDate: day(r.6), endDate: day(r.7), theme: "",
        latitude: 37.5 + Double(i) / 100, longitude: 126.97 + Double(i) / 100,
        portalURL: "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(100001 + i)",
        orgLink: "https://www.sejongpac.or.kr/", imageURL: "", registeredOn: day("2024-08-20"))
      if r.0.hasPrefix("h:") { p.qualityFlags = [.idFromHash, .districtMissing] }
      if r.0 == "cult:100010" { p.qualityFlags = [.endBeforeStart] }
      // A control character, as broken sources produce: must not make the XML invalid.
      if r.0 == "cult:100011" { p.organizer = "마포구\u{1}청" }
      return p
    } + [oddProgram]
  }

  /// A thirteenth program with the values Excel limits: a 40,000-character place, an
  /// over-long URL and a `javascript:` link.
  static var oddProgram: Program {
    Program(
      id: "cult:100013", title: "아주 긴 장소", category: "기타", district: "강서구", place: longPlace,
      isFree: true, feeMinKRW: 0, feeMaxKRW: 0, startDate: day("2024-09-09"), endDate: day("2024-09-09"),
      portalURL: "https://culture.seoul.go.kr/?" + String(repeating: "a", count: 2_100),
      orgLink: "javascript:alert(1)")
  }

  static func groups(_ programs: [Program], by key: (Program) -> String) -> [GroupStats] {
    var byKey: [String: [Program]] = [:]
    for p in programs { byKey[key(p), default: []].append(p) }
    return byKey.map { k, ps in
      let free = ps.filter { $0.isFree == true }.count
      let paid = ps.filter { $0.isFree == false }
      let durations: [Int] = ps.compactMap(\.durationDays)
      let fees: [Int] = paid.compactMap(\.feeMinKRW)
      return GroupStats(
        key: k, count: ps.count, free: free, paid: paid.count, unknown: ps.count - free - paid.count,
        medianDurationDays: durations.first.map(Double.init), medianFeeMinKrw: fees.first.map(Double.init),
        share: Double(ps.count) / Double(programs.count))
    }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
  }

  static func tables(_ programs: [Program]) -> CatalogTables {
    let byCategory = groups(programs, by: \.category)
    let byDistrict = groups(programs, by: \.district)
    let counts = byCategory.map { c in
      byDistrict.map { d in programs.filter { $0.category == c.key && $0.district == d.key }.count }
    }
    return CatalogTables(
      total: programs.count, free: programs.filter { $0.isFree == true }.count,
      unknown: programs.filter { $0.isFree == nil }.count,
      byCategory: byCategory, byDistrict: byDistrict,
      byFee: [
        BandCount(key: "free", count: 7), BandCount(key: "1-10000", count: 0),
        BandCount(key: "10001-30000", count: 2), BandCount(key: "30001-50000", count: 1),
        BandCount(key: "50001-100000", count: 1), BandCount(key: "100001+", count: 1),
        BandCount(key: "unknown", count: 1),
      ],
      byDuration: [
        BandCount(key: "1", count: 3), BandCount(key: "2-7", count: 5), BandCount(key: "8-30", count: 1),
        BandCount(key: "31-90", count: 2), BandCount(key: "91-365", count: 1),
        BandCount(key: "366+", count: 0), BandCount(key: "invalid", count: 1),
      ],
      categoryByDistrict: CrossTable(
        rowKeys: byCategory.map(\.key), columnKeys: byDistrict.map(\.key), counts: counts),
      quality: [
        QualityCount(key: "district_missing", count: 1), QualityCount(key: "end_before_start", count: 1),
        QualityCount(key: "id_from_hash", count: 1),
      ])
  }

  static let week = ISOWeek(year: 2024, week: 37) ?? ISOWeek(containing: CalendarDay(dayNumber: 19_975))
  /// 2024-09-09 10:30:00 KST.
  static let takenAt = Date(timeIntervalSince1970: 1_725_845_400)

  static var report: TestReport {
    let now = programs
    var old = Array(now.dropFirst(2))
    old[0].title = "뮤지컬 〈영웅〉 (앙코르)"
    old[0].feeMinKRW = 50000
    old.append(Program(id: "cult:099999", title: "지난 전시", category: "전시/미술", district: "중구", isFree: true))
    let diff = SnapshotDiff(
      added: [now[0], now[1]],
      removed: [old[old.count - 1]],
      changed: [
        ChangedProgram(
          old: old[0], new: now[2],
          fields: [
            FieldChange(field: "title", old: old[0].title, new: now[2].title),
            FieldChange(field: "fee_min_krw", old: "50000", new: "60000"),
          ])
      ])
    let weekFigures = WeekFigures(
      week: week, active: 8, starting: 5, activeFree: 4, activeByCategory: [], activeByDistrict: [],
      startingByCategory: [], startingByDistrict: [])
    let compareWeek = WeekFigures(
      week: week, active: 6, starting: 4, activeFree: 3, activeByCategory: [], activeByDistrict: [],
      startingByCategory: [], startingByDistrict: [])
    let figures = ReportData(
      snapshot: SnapshotInfo(id: 12, takenAt: takenAt, source: "seoul-2024-09-09.csv", programCount: now.count),
      compareTo: SnapshotInfo(id: 11, takenAt: takenAt.addingTimeInterval(-7 * 86_400), source: "seoul-2024-09-02.csv", programCount: old.count),
      week: week, programs: now, tables: tables(now), thisWeek: weekFigures,
      compareTables: tables(old), compareWeek: compareWeek, changes: diff)
    return TestReport(figures, programs: now)
  }
}

/// Runs `Scripts/check_xlsx.py` on a workbook and returns its JSON.
struct XLSXCheck {
  let json: [String: Any]

  init(_ file: URL, maxRows: Int = 60) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/check_xlsx.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, file.path, String(maxRows)]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      throw CheckError(message: String(decoding: errData, as: UTF8.self))
    }
    json = object
  }

  struct CheckError: Error, CustomStringConvertible {
    var message: String
    var description: String { "check_xlsx.py failed: \(message)" }
  }

  var sheets: [String] { json["sheets"] as? [String] ?? [] }

  /// The cell at a zero-based row and column: `v` (value), `t` (openpyxl data type),
  /// `py` (number/str/datetime/none), `fmt` (number format).
  func cell(_ sheet: String, _ row: Int, _ col: Int) -> [String: Any] {
    let cells = (json["cells"] as? [String: Any])?[sheet] as? [[[String: Any]]] ?? []
    guard row < cells.count, col < cells[row].count else { return [:] }
    return cells[row][col]
  }

  func value(_ sheet: String, _ row: Int, _ col: Int) -> Any? { cell(sheet, row, col)["v"] }
  func text(_ sheet: String, _ row: Int, _ col: Int) -> String? { value(sheet, row, col) as? String }
  func number(_ sheet: String, _ row: Int, _ col: Int) -> Double? { (value(sheet, row, col) as? NSNumber)?.doubleValue }

  func rows(_ sheet: String) -> [[[String: Any]]] {
    (json["cells"] as? [String: Any])?[sheet] as? [[[String: Any]]] ?? []
  }

  /// The row whose first cell is `label`.
  func row(_ sheet: String, labelled label: String) -> Int? {
    rows(sheet).firstIndex { ($0.first?["v"] as? String) == label }
  }

  func map(_ key: String, _ sheet: String) -> Any? { (json[key] as? [String: Any])?[sheet] }
  var charts: [[String: Any]] { json["charts"] as? [[String: Any]] ?? [] }
  var properties: [String: Any] { json["properties"] as? [String: Any] ?? [:] }
}
