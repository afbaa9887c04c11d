import Foundation
import RaonAnalytics
import RaonDocument
import TestSupport
import Testing

@testable import RaonCore

/// Reports the document tests compose: figures assembled from a few programs whose counts
/// are known by construction, in each catalog's profile (Seoul's, the national data's, and
/// a third built here), and every text a composed document holds.
enum DocumentFixtures {
  /// The report's week: Monday 2025-03-31 … Sunday 2025-04-06; the snapshot is taken on
  /// the Monday (D = 2025-03-31, so 신규 등록 counts 2025-03-25 … 03-31).
  static let week = ISOWeek(year: 2025, week: 14)!
  static let takenAt = Date(timeIntervalSince1970: 1_743_379_200)  // 2025-03-31 09:00 KST
  static func day(_ iso: String) -> CalendarDay { CalendarDay(iso: iso)! }

  /// A program running this week (2025-03-01 … 2025-04-20), in `region` and `group`.
  static func running(_ id: String, _ region: String, _ group: String, free: Bool = true) -> Program {
    Program(
      id: id, title: "행사 \(id)", category: group, district: region, place: "장소 \(id)", isFree: free,
      startDate: day("2025-03-01"), endDate: day("2025-04-20"))
  }

  /// A program that ended before the week: in the catalog, not current.
  static func ended(_ id: String, _ region: String, _ group: String) -> Program {
    Program(
      id: id, title: "지난 행사 \(id)", category: group, district: region, place: "장소", isFree: false,
      startDate: day("2024-01-01"), endDate: day("2024-01-31"))
  }

  static func snapshot(_ id: Int64, _ takenAt: Date, count: Int) -> SnapshotInfo {
    SnapshotInfo(id: id, takenAt: takenAt, source: "fixture-\(id).csv", programCount: count)
  }

  /// The figures of `programs`, compared with `previous` taken at `previousAt` when given.
  static func figures(
    _ programs: [Program], previous: [Program]? = nil, previousAt: Date? = nil
  ) throws -> ReportData {
    let compared = previous.map { (info: snapshot(1, previousAt ?? takenAt.addingTimeInterval(-7 * 86_400), count: $0.count), programs: $0) }
    return try ReportAssembler.assemble(
      snapshot: snapshot(2, takenAt, count: programs.count), programs: programs, compareTo: compared, week: week)
  }

  /// The composed weekly report of `figures` in `profile`'s words.
  static func report(
    _ figures: ReportData, _ profile: CatalogProfile, _ language: ReportLanguage = .ko, head: DocumentHead = DocumentHead(),
    workbook: Bool = false
  ) -> WeeklyReport {
    var options = DocumentOptions(language: language)
    options.profile = profile
    options.head = head
    options.workbookAccompanies = workbook
    guard case .report(let report) = ReportDocument.report(figures, options: options) else {
      preconditionFailure("a report composes a report")
    }
    return report
  }

  /// A third catalog (TestSupport's ThirdCatalog): 부산 공연 정보 with its 권역 (zones), 장르
  /// (genres) and 공연 (performances), a few fields and no English names.
  static let third = ThirdCatalog.profile

  /// Every text a document holds: title, page 1, sections, tables (headers and cells), lists,
  /// charts (titles, notes, bars) and the closing line.
  static func texts(_ document: Document) -> [String] {
    var out = [document.title, document.printTitle, document.period, document.closing]
    func inline(_ i: Inline) -> String {
      switch i {
      case .text(let s), .strong(let s), .code(let s), .link(let s, _): return s
      }
    }
    func chart(_ c: Chart) {
      out += [c.title, c.alt, c.emptyText]
      if case .bars(let bars) = c.content {
        out += [bars.subject, bars.set ?? "", bars.unit, bars.note ?? ""] + bars.bars.map(\.label)
      }
    }
    func block(_ b: Block) {
      switch b {
      case .heading(let inlines), .paragraph(let inlines), .byline(let inlines), .definitions(let inlines):
        out.append(inlines.map(inline).joined())
      case .attachments(let list):
        out.append(list.heading)
        out += list.items.flatMap { [$0.text, $0.printText ?? ""] } + [list.end ?? ""]
      case .list(let items):
        for item in items { out.append(([item.content] + item.children).map { $0.map(inline).joined() }.joined(separator: "\n")) }
      case .table(let t):
        out += t.columns.map(\.header)
        out += t.rows.flatMap { $0.map(\.text) }
      case .programs(let list):
        out += list.columns.map(\.header)
        out += list.programs.flatMap { list.cells(of: $0).map(\.text) }
      case .chart(let c): chart(c)
      }
    }
    document.front.forEach(block)
    for section in document.sections {
      out.append(section.title)
      if let note = section.printNote { out.append(note) }
      section.blocks.forEach(block)
    }
    document.charts.forEach(chart)
    return out
  }
}
