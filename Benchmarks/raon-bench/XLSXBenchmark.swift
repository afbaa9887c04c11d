import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
@_spi(Benchmarks) import RaonExport

/// `raon-bench xlsx MODE ROWS`: time and peak memory of the XLSX programs sheet.
///
/// MODE is `constant` (Raon's writer as shipped: programs sheet in constant-memory mode),
/// `default` (the same writer with every sheet in libxlsxwriter's in-memory mode) or
/// `floor` (a bare libxlsxwriter loop writing the same cells, constant memory, addresses
/// as worksheet hyperlinks), `floor-formula` (the same loop, addresses as `HYPERLINK`
/// formulas: what Raon ships, the cost it cannot go below) or `floor-text` (addresses as
/// plain text). Run one mode per process: peak RSS (VmHWM) only grows.
///
/// ```
/// swift run -c release raon-bench xlsx constant 1000000
/// ```
///
/// Prints one line: `mode rows seconds peakMB baselineMB fileMB`, where `baselineMB` is the
/// peak after the synthetic programs were built, before any XLSX work.
enum XLSXBenchmark {
  static func run(_ arguments: [String]) throws {
    guard arguments.count >= 2, let rows = Int(arguments[1]),
      ["constant", "default", "floor", "floor-formula", "floor-text"].contains(arguments[0])
    else {
      print("usage: raon-bench xlsx constant|default|floor|floor-formula|floor-text ROWS")
      return
    }
    let mode = arguments[0]
    let programs = syntheticPrograms(rows)
    let baseline = peakMegabytes()
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("raon-xlsx-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file: URL
    let start = DispatchTime.now().uptimeNanoseconds
    if mode.hasPrefix("floor") {
      file = dir.appendingPathComponent("floor.xlsx")
      try bareLoop(programs, file: file, links: mode == "floor" ? .hyperlink : mode == "floor-formula" ? .formula : .text)
    } else {
      let writer = XLSXReportWriter(streamLargeSheets: mode == "constant")
      guard case .report(let report) = ReportDocument.report(report(programs), options: DocumentOptions()) else { return }
      _ = try writer.write(report, programs: ProgramChunks(programs), into: dir, options: ExportOptions())
      file = dir.appendingPathComponent(XLSXReportWriter.fileName)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    print(
      String(
        format: "%@ %d %.2f %.0f %.0f %.1f", mode, rows, seconds, peakMegabytes(), baseline,
        Double(size) / 1_048_576))
  }

  /// Programs with realistic Korean text, distinct per row.
  static func syntheticPrograms(_ n: Int) -> [Program] {
    let categories = ["클래식", "전시/미술", "뮤지컬/오페라", "연극", "축제-문화/예술", "교육/체험", "국악", "콘서트"]
    let districts = ["종로구", "중구", "마포구", "강남구", "송파구", "영등포구", "서초구", "용산구"]
    var out: [Program] = []
    out.reserveCapacity(n)
    for i in 0..<n {
      let start = CalendarDay(dayNumber: 19_900 + i % 300)
      out.append(
        Program(
          id: "cult:\(100_000 + i)", title: "서울 문화행사 \(i) — 가을 특별 공연",
          category: categories[i % categories.count], district: districts[i % districts.count],
          place: "세종문화회관 대극장 \(i % 40)", organizer: "서울특별시", audience: "누구나",
          feeText: i % 3 == 0 ? "무료" : "R석 \(i % 9 + 1)0,000원", isFree: i % 3 == 0,
          feeMinKRW: i % 3 == 0 ? 0 : (i % 9 + 1) * 10_000, feeMaxKRW: i % 3 == 0 ? 0 : (i % 9 + 1) * 10_000,
          startDate: start, endDate: start.adding(days: i % 30), theme: "",
          latitude: 37.5 + Double(i % 1000) / 10_000, longitude: 127.0 + Double(i % 1000) / 10_000,
          portalURL: "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(100_000 + i)",
          orgLink: "https://www.sejongpac.or.kr/", imageURL: "https://culture.seoul.go.kr/img/\(i).jpg",
          registeredOn: start.adding(days: -10)))
    }
    return out
  }

  static func report(_ programs: [Program]) -> ReportData {
    let week = ISOWeek(containing: CalendarDay(dayNumber: 19_975))
    // The tables of no program (only the total set): the timing is the programs sheet's,
    // not the statistics'.
    var tables = CatalogStatistics.tables(for: [])
    tables.total = programs.count
    return ReportData(
      snapshot: SnapshotInfo(id: 1, takenAt: Date(timeIntervalSince1970: 1_725_845_400), source: "bench", programCount: programs.count),
      compareTo: nil, week: week, programs: programs, tables: tables,
      thisWeek: WeekFigures.compute(programs: [], week: week),
      compareTables: nil, compareWeek: nil, changes: nil)
  }

  /// The same cells through raw libxlsxwriter calls, no checks beyond the return codes.
  enum LinkStyle { case hyperlink, formula, text }

  static func bareLoop(_ programs: [Program], file: URL, links style: LinkStyle = .hyperlink) throws {
    var options = lxw_workbook_options(constant_memory: 1, tmpdir: nil, use_zip64: programs.count > 200_000 ? 1 : 0)
    guard let wb = file.path.withCString({ workbook_new_opt($0, &options) }),
      let ws = workbook_add_worksheet(wb, "프로그램"), let fmt = workbook_add_format(wb)
    else { throw BenchError.failed }
    format_set_num_format(fmt, "yyyy-mm-dd")
    var failures = 0
    func s(_ r: UInt32, _ c: UInt16, _ v: String) {
      if !v.isEmpty, v.withCString({ worksheet_write_string(ws, r, c, $0, nil) }) != LXW_NO_ERROR { failures += 1 }
    }
    func n(_ r: UInt32, _ c: UInt16, _ v: Double, _ f: UnsafeMutablePointer<lxw_format>? = nil) {
      if worksheet_write_number(ws, r, c, v, f) != LXW_NO_ERROR { failures += 1 }
    }
    var links = 0
    func u(_ r: UInt32, _ c: UInt16, _ v: String) {
      if style == .text { return s(r, c, v) }
      if style == .formula {
        let f = "=HYPERLINK(\"" + v + "\")"
        if f.withCString({ ff in v.withCString { worksheet_write_formula_str(ws, r, c, ff, nil, $0) } }) != LXW_NO_ERROR { failures += 1 }
        return
      }
      if links < 65_530 {
        links += 1
        if v.withCString({ worksheet_write_url(ws, r, c, $0, nil) }) != LXW_NO_ERROR { failures += 1 }
      } else {
        s(r, c, v)
      }
    }
    for (i, h) in Program.csvColumns.enumerated() { s(0, UInt16(i), h) }
    for (i, p) in programs.enumerated() {
      let r = UInt32(i + 1)
      s(r, 0, p.id); s(r, 1, p.title); s(r, 2, p.category); s(r, 3, p.district); s(r, 4, p.place)
      s(r, 5, p.organizer); s(r, 6, p.audience); s(r, 7, p.feeText); s(r, 8, p.isFree == true ? "무료" : "유료")
      if let v = p.feeMinKRW { n(r, 9, Double(v)) }
      if let v = p.feeMaxKRW { n(r, 10, Double(v)) }
      if let d = p.startDate { n(r, 11, Double(d.dayNumber + 25_569), fmt) }
      if let d = p.endDate { n(r, 12, Double(d.dayNumber + 25_569), fmt) }
      if let v = p.durationDays { n(r, 13, Double(v)) }
      s(r, 14, p.theme)
      if let v = p.latitude { n(r, 15, v) }
      if let v = p.longitude { n(r, 16, v) }
      u(r, 17, p.portalURL); u(r, 18, p.orgLink); u(r, 19, p.imageURL)
      if let d = p.registeredOn { n(r, 20, Double(d.dayNumber + 25_569), fmt) }
    }
    guard failures == 0, workbook_close(wb) == LXW_NO_ERROR else { throw BenchError.failed }
  }

  enum BenchError: Error { case failed }

  /// Peak resident set size of this process so far (VmHWM), in MB.
  static func peakMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kb = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return 0 }
    return kb / 1024
  }
}
