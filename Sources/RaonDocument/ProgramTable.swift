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
  /// The report's words: its language, its catalog's column titles and names.
  public var labels: ReportLabels
  public var language: ReportLanguage { labels.language }
  /// In a pack's list of what runs, which programs start and which end this week: a
  /// column says so (`시작`, `종료`).
  public var weekMarks: WeekMarks?

  /// The programs starting and ending this week, by id.
  public struct WeekMarks: Sendable {
    public var starting: Set<String>
    public var ending: Set<String>

    public init(starting: Set<String>, ending: Set<String>) {
      self.starting = starting
      self.ending = ending
    }
  }

  public init(_ programs: [Program], showsDistrict: Bool, labels: ReportLabels, weekMarks: WeekMarks? = nil) {
    self.programs = programs
    self.showsDistrict = showsDistrict
    self.labels = labels
    self.weekMarks = weekMarks
  }

  /// The columns: text, all left-aligned; the title widest on paper, places, dates and
  /// fees wrapping in theirs, names (category, district, the week's mark) kept whole.
  ///
  /// On paper the columns have fixed widths (``Table/Column/printWeight``, in hundredths
  /// of the page's width). A name column is as wide as the longest name it holds
  /// (``PrintedWidth``): with a fixed share, "Education/Experience" ran over the district
  /// beside it and a national provider's name over the place (issue 47). A column that
  /// would take more than ``PrintedWidth/widestNameShare`` wraps between words instead; the
  /// rest of the page goes to title, place, dates and fee as 34 : 22 : 14 : 14.
  public var columns: [Table.Column] {
    let L = labels
    var names: [(header: String, values: Set<String>)] = [
      (L.category, Set(Set(programs.lazy.map(\.category)).map(L.named)))
    ]
    if showsDistrict { names.append((L.district, Set(Set(programs.lazy.map(\.district)).map(L.named)))) }
    if weekMarks != nil {
      let marks = [(true, false), (false, true), (true, true), (false, false)].map { L.weekMark(starts: $0.0, ends: $0.1) }
      names.append((L.weekMarkHeader, Set(marks)))
    }
    let shares = names.map { PrintedWidth.share(header: $0.header, values: $0.values) }
    let rest = PrintedWidth.split(100 - shares.reduce(0) { $0 + $1.share }, [34, 22, 14, 14])
    var columns = [Table.Column(L.title, .left, printWeight: rest[0])]
    for (name, share) in zip(names, shares) {
      columns.append(Table.Column(name.header, .left, keepsCellsWhole: share.whole, printWeight: share.share))
    }
    columns += [
      Table.Column(L.place, .left, printWeight: rest[1]), Table.Column(L.period, .left, printWeight: rest[2]),
      Table.Column(L.fee, .left, printWeight: rest[3]),
    ]
    return columns
  }

  /// One program's row.
  public func cells(of p: Program) -> [Cell] {
    // Names in the document's language (``ReportLabels/named(_:)``); the title is the catalog's.
    let L = labels
    var cells: [Cell] = [.portalLink(p.title, url: p.portalURL), .text(L.named(p.category))]
    if showsDistrict { cells.append(.text(L.named(p.district))) }
    if let weekMarks {
      cells.append(.text(L.weekMark(starts: weekMarks.starting.contains(p.id), ends: weekMarks.ending.contains(p.id))))
    }
    cells += [
      .text(Self.shortened(p.place)), .text(Self.period(p, language)),
      .text(Self.shortened(Self.feeText(p, L))),
    ]
    return cells
  }

  /// The fee as a list shows it, in every format: the catalog's text; the document's word
  /// for free when the program is free and the text says nothing more; and a text that is
  /// only the word 무료 or 유료 in the document's language (an English list never mixes
  /// `Free` and `무료`).
  public static func feeText(_ p: Program, _ L: ReportLabels) -> String {
    let fee = p.feeText
    let text = startsAndEndsInLetters(fee) ? fee : fee.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return p.isFree == true ? L.free : "" }
    guard L.language == .en, text.utf8.count <= 12 else { return text }
    switch text.filter({ !$0.isWhitespace }).lowercased() {
    case "무료", "free": return L.free
    case "유료", "paid": return L.paid
    default: return text
    }
  }

  /// Whether `text` starts and ends in a visible ASCII character or a Hangul syllable, so
  /// trimming it would change nothing (Foundation's trimming is the slow part of a row).
  private static func startsAndEndsInLetters(_ text: String) -> Bool {
    func isLetter(_ s: Unicode.Scalar?) -> Bool {
      guard let v = s?.value else { return false }
      return (0x21...0x7E).contains(v) || (0xAC00...0xD7A3).contains(v)
    }
    return isLetter(text.unicodeScalars.first) && isLetter(text.unicodeScalars.last)
  }

  /// A program's dates as a list shows them (``OfficialDates/programDates(_:_:_:)``).
  public static func period(_ p: Program, _ language: ReportLanguage) -> String {
    OfficialDates.programDates(p.startDate, p.endDate, language)
  }

  /// Text on one line, whole up to 160 display columns (a place or a fee wraps in its
  /// cell rather than being cut); only a longer text, a description pasted into the
  /// field, is cut.
  static func shortened(_ text: String) -> String {
    let line = oneLine.isPlain(text) ? text : text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return DisplayWidth.truncate(line, to: 160)
  }

  /// Text with none of these has no line break to join (``PlainText``).
  private static let oneLine = PlainText(special: "")
}
