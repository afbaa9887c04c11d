import Foundation
@testable import RaonAnalytics
import RaonCore
import Testing

@testable import RaonDocument
@testable import RaonExport

// Shared by the CSV, JSON, Markdown and SVG tests (the file is named CSV* only because the
// test files of this area are named after their format).

// MARK: - Fixture

/// A small, hand-built report: a dozen programs with Korean text and every awkward case
/// the writers must survive (commas, quotes, line breaks, pipes, formula-like text, an
/// emoji CP949 cannot hold, a hashed id, broken dates), compared with an older snapshot.
enum TextExportFixture {
  static func day(_ text: String) -> CalendarDay? { CalendarDay(iso: text) }

  static func url(_ code: Int) -> String {
    "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(code)&menuNo=200009"
  }

  static let programs: [Program] = [
    Program(
      id: "cult:100001", title: "서울 재즈 페스티벌 2024", category: "콘서트", district: "마포구",
      place: "난지한강공원", organizer: "마포구청", audience: "누구나", feeText: "전석 50,000원",
      isFree: false, feeMinKRW: 50000, feeMaxKRW: 50000, startDate: day("2024-09-13"),
      endDate: day("2024-09-15"), theme: "", latitude: 37.5665, longitude: 126.8784,
      portalURL: url(100001), registeredOn: day("2024-08-01")),
    Program(
      id: "cult:100002", title: "<햄릿> 셰익스피어, \"원작\" 그대로", category: "연극",
      district: "종로구", place: "대학로 예술극장", organizer: "(재)종로문화재단",
      audience: "14세 이상", feeText: "R석 70,000원, S석 50,000원", isFree: false,
      feeMinKRW: 50000, feeMaxKRW: 70000, startDate: day("2024-09-01"),
      endDate: day("2024-10-20"), latitude: 37.5822, longitude: 127.0017,
      portalURL: url(100002), registeredOn: day("2024-08-10")),
    Program(
      id: "cult:100003", title: "=HYPERLINK(\"http://x\",\"y\")", category: "전시/미술",
      district: "강남구", place: "코엑스", feeText: "무료", isFree: true, feeMinKRW: 0,
      feeMaxKRW: 0, startDate: day("2024-09-10"), endDate: day("2024-09-10"),
      latitude: 37.5126, longitude: 127.0590, portalURL: url(100003)),
    Program(
      id: "cult:100004", title: "+1 특별전", category: "전시/미술", district: "용산구",
      place: "국립중앙박물관", feeText: "무료", isFree: true, feeMinKRW: 0, feeMaxKRW: 0,
      startDate: day("2024-06-01"), endDate: day("2024-12-31"), latitude: 37.5239,
      longitude: 126.9803, portalURL: url(100004)),
    Program(
      id: "cult:100005", title: "@SUM(A1) 어린이 코딩 교실", category: "교육/체험",
      district: "노원구", place: "노원어린이도서관", audience: "초등학생", feeText: "10,000원",
      isFree: false, feeMinKRW: 10000, feeMaxKRW: 10000, startDate: day("2024-09-09"),
      endDate: day("2024-09-09"), portalURL: url(100005), qualityFlags: [.coordsMissing]),
    Program(
      id: "cult:100006", title: "-x 현대무용", category: "무용", district: "중구",
      place: "-3", feeText: "전석 30,000원", isFree: false, feeMinKRW: 30000,
      feeMaxKRW: 30000, startDate: day("2024-09-20"), endDate: day("2024-09-22"),
      latitude: 37.5636, longitude: 126.9976, portalURL: url(100006)),
    Program(
      id: "cult:100007", title: "가을 음악회\n(야외) A|B", category: "클래식",
      district: "서초구", place: "예술의전당\r\n야외무대", feeText: "무료", isFree: true,
      feeMinKRW: 0, feeMaxKRW: 0, startDate: day("2024-09-14"), endDate: day("2024-09-14"),
      latitude: 37.4786, longitude: 127.0114, portalURL: url(100007)),
    Program(
      id: "cult:100008", title: "🎵 ㈜한빛 가족 뮤지컬", category: "뮤지컬/오페라",
      district: "송파구", place: "샤롯데씨어터", feeText: "VIP석 110,000원", isFree: false,
      feeMinKRW: 110000, feeMaxKRW: 110000, startDate: day("2024-08-01"),
      endDate: day("2024-11-30"), latitude: 37.5113, longitude: 127.0980,
      portalURL: url(100008)),
    Program(
      id: "h:0123456789abcdef", title: "동네 책 축제", category: "축제-문화/예술",
      district: District.unknown, place: "동네 책방", feeText: "무료", isFree: true,
      feeMinKRW: 0, feeMaxKRW: 0, startDate: day("2024-09-11"), endDate: day("2024-09-12"),
      qualityFlags: [.districtMissing, .coordsMissing, .idFromHash]),
    Program(
      id: "cult:100010", title: "거꾸로 된 날짜 전시", category: "전시/미술", district: "마포구",
      place: "홍대 갤러리", feeText: "5,000원", isFree: false, feeMinKRW: 5000,
      feeMaxKRW: 5000, startDate: day("2024-09-20"), endDate: day("2024-09-10"),
      latitude: 37.5563, longitude: 126.9236, portalURL: url(100010),
      qualityFlags: [.endBeforeStart]),
    Program(
      id: "cult:100011", title: "요금 문의 공연", category: "콘서트", district: "마포구",
      place: "상상마당", feeText: "현장 문의", isFree: false, startDate: day("2024-09-27"),
      endDate: day("2024-09-27"), latitude: 37.5509, longitude: 126.9210,
      portalURL: url(100011)),
    Program(
      id: "cult:100012", title: "서울 365 상설 전시", category: "전시/미술", district: "용산구",
      place: "서울역사박물관 분관", feeText: "무료", isFree: true, feeMinKRW: 0, feeMaxKRW: 0,
      startDate: day("2024-01-01"), endDate: day("2024-12-31"), latitude: 37.5704,
      longitude: 126.9700, portalURL: url(100012), registeredOn: day("2023-12-15")),
  ]

  static let snapshot = SnapshotInfo(
    id: 2, takenAt: Date(timeIntervalSince1970: 1_725_807_600),  // 2024-09-08T15:00:00Z
    source: "seoul-cultural-events-2024-09-09.cp949.csv", programCount: 12, sourceTotal: 12)

  static let previous = SnapshotInfo(
    id: 1, takenAt: Date(timeIntervalSince1970: 1_725_202_800),  // 2024-09-01T15:00:00Z
    source: "http://openapi.seoul.go.kr:8088", programCount: 11)

  static let week = ISOWeek(year: 2024, week: 37) ?? ISOWeek(containing: snapshot.koreaDay)

  static var diff: SnapshotDiff {
    let byID = Dictionary(uniqueKeysWithValues: programs.map { ($0.id, $0) })
    func program(_ id: String) -> Program { byID[id] ?? Program(id: id) }
    var oldJazz = program("cult:100001")
    oldJazz.feeText = "전석 40,000원"
    oldJazz.feeMinKRW = 40000
    oldJazz.feeMaxKRW = 40000
    var oldHamlet = program("cult:100002")
    oldHamlet.title = "햄릿"
    oldHamlet.place = ""
    return SnapshotDiff(
      added: [program("cult:100010"), program("cult:100011"), program("cult:100012")],
      removed: [
        Program(
          id: "cult:900001", title: "여름밤 | 영화제", category: "영화", district: "광진구",
          startDate: day("2024-08-01"), endDate: day("2024-08-31"), portalURL: url(900001)),
        Program(id: "cult:900002", title: "막 내린 연극", category: "연극", district: "종로구"),
      ],
      changed: [
        ChangedProgram(
          old: oldJazz, new: program("cult:100001"),
          fields: [
            FieldChange(field: "fee_text", old: "전석 40,000원", new: "전석 50,000원"),
            FieldChange(field: "fee_min_krw", old: "40000", new: "50000"),
            FieldChange(field: "fee_max_krw", old: "40000", new: "50000"),
          ]),
        ChangedProgram(
          old: oldHamlet, new: program("cult:100002"),
          fields: [
            FieldChange(field: "title", old: "햄릿", new: "<햄릿> 셰익스피어, \"원작\" 그대로"),
            FieldChange(field: "place", old: "", new: "대학로 예술극장"),
          ]),
      ])
  }

  // The tables below are computed here with deliberately simple code so the golden files
  // read coherently; the real analytics live (and are tested) in RaonAnalytics.

  static func median(_ values: [Int]) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    let m = s.count / 2
    return s.count % 2 == 1 ? Double(s[m]) : Double(s[m - 1] + s[m]) / 2
  }

  static func groups(_ key: (Program) -> String) -> [GroupStats] {
    let total = programs.count
    return Dictionary(grouping: programs, by: key).map { k, ps in
      let free = ps.filter { $0.isFree == true }.count
      let paid = ps.filter { $0.isFree == false }
      let durations: [Int] = ps.compactMap(\.durationDays)
      let fees: [Int] = paid.compactMap(\.feeMinKRW)
      return GroupStats(
        key: k, count: ps.count, free: free, paid: paid.count, unknown: ps.count - free - paid.count,
        medianDurationDays: median(durations), medianFeeMinKrw: median(fees),
        share: Double(ps.count) / Double(total))
    }.sorted { ($0.count, $1.key) > ($1.count, $0.key) }
  }

  static var tables: CatalogTables {
    let categories = groups(\.category)
    let districts = groups(\.district)
    let counts = categories.map { c in
      districts.map { d in programs.filter { $0.category == c.key && $0.district == d.key }.count }
    }
    var quality: [QualityCount] = QualityFlags.named.compactMap { flag, name in
      let n = programs.filter { $0.qualityFlags.contains(flag) }.count
      return n > 0 ? QualityCount(key: name, count: n) : nil
    }
    quality.sort { ($0.count, $1.key) > ($1.count, $0.key) }
    return CatalogTables(
      total: programs.count, free: programs.filter { $0.isFree == true }.count,
      unknown: programs.filter { $0.isFree == nil }.count,
      byCategory: categories, byDistrict: districts,
      byFee: [
        BandCount(key: "free", count: 5), BandCount(key: "1-10000", count: 2),
        BandCount(key: "10001-30000", count: 1), BandCount(key: "30001-50000", count: 2),
        BandCount(key: "50001-100000", count: 0), BandCount(key: "100001+", count: 1),
        BandCount(key: "unknown", count: 1),
      ],
      byDuration: [
        BandCount(key: "1", count: 4), BandCount(key: "2-7", count: 3),
        BandCount(key: "8-30", count: 0), BandCount(key: "31-90", count: 1),
        BandCount(key: "91-365", count: 2), BandCount(key: "366+", count: 1),
        BandCount(key: "invalid", count: 1),
      ],
      categoryByDistrict: CrossTable(
        rowKeys: categories.map(\.key), columnKeys: districts.map(\.key), counts: counts),
      quality: quality)
  }

  static var thisWeek: WeekFigures {
    let (s, e) = (week.start, week.end)
    let active = programs.filter { p in
      guard let a = p.startDate, let b = p.endDate else { return false }
      return a <= e && b >= s
    }
    let starting = programs.filter { p in p.startDate.map { $0 >= s && $0 <= e } ?? false }
    func counts(_ ps: [Program], _ key: (Program) -> String) -> [BandCount] {
      Dictionary(grouping: ps, by: key).map { BandCount(key: $0.key, count: $0.value.count) }
        .sorted { ($0.count, $1.key) > ($1.count, $0.key) }
    }
    return WeekFigures(
      week: week, active: active.count, starting: starting.count,
      activeFree: active.filter { $0.isFree == true }.count,
      activeByCategory: counts(active, \.category), activeByDistrict: counts(active, \.district),
      startingByCategory: counts(starting, \.category),
      startingByDistrict: counts(starting, \.district))
  }

  static var compareTables: CatalogTables {
    var t = tables
    t.total = 11
    t.free = 3
    return t
  }

  static var compareWeek: WeekFigures {
    WeekFigures(
      week: week, active: 7, starting: 5, activeFree: 3, activeByCategory: [],
      activeByDistrict: [], startingByCategory: [], startingByDistrict: [])
  }

  /// The full report, with the comparison.
  static var report: TestReport {
    TestReport(
      ReportData(
        snapshot: snapshot, compareTo: previous, week: week, programs: programs, tables: tables,
        thisWeek: thisWeek, compareTables: compareTables, compareWeek: compareWeek, changes: diff),
      programs: programs)
  }

  /// The same report without a comparison.
  static var reportWithoutComparison: TestReport {
    var r = report
    r.compareTo = nil
    r.compareTables = nil
    r.compareWeek = nil
    r.changes = nil
    return r
  }
}

// MARK: - Golden files

/// Byte-for-byte comparison with the files in `Tests/RaonExportTests/Golden/`.
///
/// To re-record after an intended change, run the tests with `RECORD_GOLDEN=1`:
/// `RECORD_GOLDEN=1 swift test --filter RaonExportTests`; the files are rewritten instead of
/// compared. Review the diff by eye before committing — these are what a Korean official
/// reads.
enum Golden {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden", isDirectory: true)

  static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

  /// Compares (or records) `actual` with `Golden/<name>`.
  static func check(
    _ actual: Data, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let url = directory.appendingPathComponent(name)
    if isRecording {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url)
      return
    }
    guard let expected = FileManager.default.contents(atPath: url.path) else {
      Issue.record(
        "Missing golden file \(name); run with RECORD_GOLDEN=1 to create it.",
        sourceLocation: sourceLocation)
      return
    }
    if expected != actual {
      // "\r\n" is one Character in Swift, so split on newline characters, not on "\n".
      let a = String(decoding: actual, as: UTF8.self)
        .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      let e = String(decoding: expected, as: UTF8.self)
        .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      let line = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(a.count, e.count)
      let got = line < a.count ? a[line] : "<end>"
      let want = line < e.count ? e[line] : "<end>"
      Issue.record(
        "\(name) differs from its golden file at line \(line + 1):\n  got:  \(got)\n  want: \(want)\n(RECORD_GOLDEN=1 re-records)",
        sourceLocation: sourceLocation)
    }
  }

  /// Compares a file the writer wrote under `out` with the golden file of the same path.
  static func checkFile(
    _ relativePath: String, in out: URL, as name: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let data = try Data(contentsOf: out.appendingPathComponent(relativePath))
    try check(data, name ?? relativePath, sourceLocation: sourceLocation)
  }
}

// MARK: - An independent CSV reader

/// A small RFC 4180 reader written apart from the writer, so a test does not check the
/// writer against itself.
enum CSVTestReader {
  /// Rows of fields; accepts CRLF and LF row ends and quoted fields with `""`.
  static func parse(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var inQuotes = false
    var chars = Array(text.unicodeScalars)[...]
    while let c = chars.popFirst() {
      if inQuotes {
        if c == "\"" {
          if chars.first == "\"" {
            field.unicodeScalars.append("\"")
            chars.removeFirst()
          } else {
            inQuotes = false
          }
        } else {
          field.unicodeScalars.append(c)
        }
        continue
      }
      switch c {
      case "\"": inQuotes = true
      case ",":
        row.append(field)
        field = ""
      case "\r":
        if chars.first == "\n" { chars.removeFirst() }
        fallthrough
      case "\n":
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      default: field.unicodeScalars.append(c)
      }
    }
    if !field.isEmpty || !row.isEmpty {
      row.append(field)
      rows.append(row)
    }
    return rows
  }

  /// Reads a UTF-8 file written with a BOM; fails the test when the BOM is missing.
  static func readBOMFile(_ url: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    -> [[String]]
  {
    let data = try Data(contentsOf: url)
    #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF], sourceLocation: sourceLocation)
    return parse(String(decoding: data.dropFirst(3), as: UTF8.self))
  }
}

// MARK: - Python, when present

enum Python {
  /// Runs `python3 -c script args…` and returns its standard output, or `nil` when no
  /// python3 is installed (the tests that need it then only check what Swift can).
  static func run(_ script: String, _ arguments: [String]) throws -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    do { try process.run() } catch { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if process.terminationStatus == 127 { return nil }
    guard process.terminationStatus == 0 else {
      Issue.record("python3 failed: \(String(decoding: errors, as: UTF8.self))")
      return Data()
    }
    return data
  }

  /// Reads a CSV file with Python's `csv` module in `encoding`; rows as arrays of strings.
  static func readCSV(_ url: URL, encoding: String) throws -> [[String]]? {
    let script = """
      import csv, json, sys
      with open(sys.argv[1], newline='', encoding=sys.argv[2]) as f:
          json.dump(list(csv.reader(f)), sys.stdout, ensure_ascii=False)
      """
    guard let data = try run(script, [url.path, encoding]), !data.isEmpty else { return nil }
    return try JSONSerialization.jsonObject(with: data) as? [[String]]
  }
}
