import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// 프로그램: every program, one row each, cell by cell from the column table, written as
/// the job hands the programs over (continued on further sheets past Excel's rows).
extension XLSXReportBuilder {
  func writePrograms(_ programs: ProgramChunks) throws {
    let headers = Program.csvColumns.map(labels.fieldName)
    // The id and title columns repeat on every printed page, as the header row does.
    let stream = XLSXTableStream(
      workbook: workbook, baseName: labels.programs, headers: headers, headerFormat: formats.header,
      rowLimit: rowLimit, constantMemory: streamLargeSheets, printTitle: printTitle,
      repeatColumns: 0...1, printColumns: Self.printedProgramColumns, printHeaderOnly: true,
      widthCaps: ProgramColumn.allCases.map(Self.widthCap))
    try stream.start()
    let free = labels.xlsxFreeValue, paid = labels.xlsxPaidValue
    try programs.forEach { chunk in
      for p in chunk { try writeProgram(p, to: stream, free: free, paid: paid) }
    }
    try stream.finish()
    absorb(stream, table: labels.programs)
  }

  /// One row of the programs sheet, cell by cell from the column table.
  func writeProgram(_ p: Program, to stream: XLSXTableStream, free: String, paid: String) throws {
    let f = formats
    try stream.nextRow()
    for (index, column) in ProgramColumn.allCases.enumerated() {
      let c = index
      switch column.cell(of: p) {
      case .text(let s): try stream.text(c, s)
      case .link(let s): try stream.link(c, s, portal: column == .portalURL)
      case .freeFlag(let isFree): try stream.text(c, isFree.map { $0 ? free : paid } ?? labels.freeUnknown)
      case .integer(let v):
        if let v { try stream.number(c, Double(v), f.integer, displayWidth: Self.groupedWidth(v)) }
      case .day(let d): try stream.date(c, d, f.date)
      case .coordinate(let v):
        // Latitudes print as 37.xxxxxx (10 columns), longitudes as 127.xxxxxx (11).
        if let v { try stream.number(c, v, f.coordinate, displayWidth: column == .latitude ? 10 : 11) }
      case .flags(let flags):
        if !flags.isEmpty { try stream.text(c, flagNames(flags)) }
      }
    }
  }

  /// The programs sheet's columns on paper: ID to 기간(일), what an official reads in a list
  /// (links, coordinates, 신청일 and flags stay on screen). Fitted one page wide, the sample's
  /// 5,000 programs print on about a hundred landscape pages at a readable scale.
  static let printedProgramColumns: ClosedRange<Int> =
    0...(ProgramColumn.allCases.firstIndex(of: .durationDays) ?? ProgramColumn.allCases.count - 1)

  /// The widest a programs column may be: long text is cut at the cell's edge (the whole
  /// value is in the cell), so the printed list keeps a readable scale.
  static func widthCap(_ column: ProgramColumn) -> Int? {
    switch column {
    case .title: return 36
    case .place: return 20
    case .organizer: return 16
    case .audience: return 14
    case .feeText: return 18
    case .category, .theme: return 14
    case .portalURL, .orgLink, .imageURL, .qualityFlags: return 24
    default: return nil
    }
  }

  /// The flags' names in the report's language (`자치구 없음, 좌표 없음`); the CSV keeps the codes.
  func flagNames(_ flags: QualityFlags) -> String {
    if let cached = flagNameCache[flags.rawValue] { return cached }
    let names = labels.flagNames(flags)
    flagNameCache[flags.rawValue] = names
    return names
  }

  func absorb(_ stream: XLSXTableStream, table: String) {
    counts.truncatedCells += stream.counts.truncatedCells
    counts.linksNotLinkable += stream.counts.linksNotLinkable
    counts.linksOverSheetLimit += stream.counts.linksOverSheetLimit
    if stream.sheets.count > 1 { splitTables.append((table, stream.sheets.count)) }
  }
}
