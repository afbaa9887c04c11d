import Foundation
import RaonCore

/// Programs listed one per row: title (linked to the portal's page), category, district
/// (in a list of several districts), place, dates and fee. The rows are made as they are
/// rendered (``cells(of:)``), so a list of a hundred thousand programs costs the document
/// no more than the programs it already holds.
public struct ProgramTable: Sendable {
  public var programs: [Program]
  /// Whether the list has a district column (not in one district's list).
  public var showsDistrict: Bool
  public var language: ReportLanguage
  /// The catalog listed (its column titles: ``ReportLabels/catalog``).
  public var catalog: CatalogProfile.Name = .seoul

  public init(_ programs: [Program], showsDistrict: Bool, language: ReportLanguage) {
    self.programs = programs
    self.showsDistrict = showsDistrict
    self.language = language
  }

  /// The columns: text, all left-aligned.
  public var columns: [Table.Column] {
    let L = ReportLabels(language, catalog: catalog)
    var headers = [L.title, L.category]
    if showsDistrict { headers.append(L.district) }
    headers += [L.place, L.period, L.fee]
    return headers.map { Table.Column($0, .left) }
  }

  /// One program's row.
  public func cells(of p: Program) -> [Cell] {
    var cells: [Cell] = [.portalLink(p.title, url: p.portalURL), .text(p.category)]
    if showsDistrict { cells.append(.text(p.district)) }
    cells += [
      .text(Self.shortened(p.place)), .text(Self.period(p, language)),
      .text(Self.shortened(Self.feeText(p, free: ReportLabels(language).free))),
    ]
    return cells
  }

  /// The fee as the catalog states it; 무료 when the program is free and says nothing more.
  public static func feeText(_ p: Program, free: String) -> String {
    let text = p.feeText.trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty && p.isFree == true ? free : text
  }

  /// A program's dates as a list shows them (``OfficialDates/programDates(_:_:_:)``).
  public static func period(_ p: Program, _ language: ReportLanguage) -> String {
    OfficialDates.programDates(p.startDate, p.endDate, language)
  }

  /// Text on one line, cut at 40 display columns.
  static func shortened(_ text: String) -> String {
    DisplayWidth.truncate(text.split(whereSeparator: \.isNewline).joined(separator: " "), to: 40)
  }
}
