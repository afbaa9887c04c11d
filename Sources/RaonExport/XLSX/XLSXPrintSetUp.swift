/// How one sheet of a report prints: the rules an official needs to print the workbook
/// as it comes, without fixing page set-ups sheet by sheet.
///
/// - A4 (paper type 9), margins of 0.4″ at the sides and 0.6″ top and bottom.
/// - Fitted to one page wide (`fitToPage`, `fitToWidth` 1, `fitToHeight` 0): nothing is
///   cut at the right edge and no page holds columns without the program they belong
///   to. ``onePage`` fits the whole sheet on one page (요약).
/// - Landscape when the sheet is wider than a portrait page (``isWide(_:)``).
/// - The header row (and, on the programs and list sheets, the id and title columns)
///   repeated on every page (`_xlnm.Print_Titles`).
/// - A print area of whole columns where a sheet is wider than any page could hold
///   readably (the programs sheet prints ID … 기간(일); links, coordinates, 신청일 and flags
///   stay on screen and in the CSV).
/// - Header: the report's title (and a pack's district) on the left, the week in official
///   form in the centre, the sheet's name on the right; footer: the page number (`- 3 -`).
///   The builder sets the header once the week is known (``XLSXWorkbook/setPageHeaders(_:)``).
struct XLSXPrintSetUp {
  var landscape: Bool
  /// The printed columns' widths (Excel character units), when known: a sheet whose
  /// columns fitted one page wide would print under ``minimumScale`` prints at that scale
  /// instead, its columns continued on further pages beside the repeated title columns.
  var widths: [Double]? = nil
  var onePage = false
  var repeatRows: ClosedRange<Int>?
  var repeatColumns: ClosedRange<Int>?
  /// The columns printed (the print area, whole columns); all when `nil`.
  var printColumns: ClosedRange<Int>?
  /// The rows printed; all when `nil`. The programs sheet prints its header row only: the
  /// whole catalog (5,000 programs, 72 landscape pages) is for the screen and the CSV,
  /// and this week's programs print in full on their own sheets.
  var printRows: ClosedRange<Int>?
  /// The report's title, for the page header.
  var title: String

  /// libxlsxwriter's (and Excel's) paper type for A4.
  static let paperA4: UInt8 = 9
  /// Inches.
  static let margins = (left: 0.4, right: 0.4, top: 0.6, bottom: 0.6)
  /// Column widths (Excel character units) a portrait A4 page holds at 100 % within the
  /// margins: 7.47″ ≈ 717 px at 7 px per character plus padding.
  static let portraitWidth = 95.0

  /// The smallest print scale (percent): the default 11-point text prints at 8.25 pt,
  /// legible; the report's rule is no text under 7.5 pt on paper.
  static let minimumScale = 75

  /// The scale (percent) LibreOffice prints columns of these widths at when fitted one
  /// page wide: the page holds 10.89″ (landscape) or 7.47″ (portrait) within the margins,
  /// 96 pixels an inch, and LibreOffice (Noto fonts, no Calibri) gives a column of w
  /// character units about 10w pixels — measured on its printed pages (docs/OUTPUT.md).
  static func fitScale(_ widths: [Double], landscape: Bool) -> Int {
    let page = (landscape ? 10.89 : 7.47) * 96
    let pixels = widths.reduce(0) { $0 + $1 * 10 }
    return pixels > page ? Int(page / pixels * 100) : 100
  }

  /// The scale to print at instead of fitting the width, or `nil` to fit one page wide.
  var fixedScale: Int? {
    guard !onePage, let widths, Self.fitScale(widths, landscape: landscape) < Self.minimumScale else { return nil }
    return Self.minimumScale
  }

  /// Whether columns of these widths need a landscape page.
  static func isWide(_ widths: [Double]) -> Bool { widths.reduce(0, +) > portraitWidth }

  /// `&L<title — district>&C<period>&R<sheet name>`; `&` in the texts doubled, as header
  /// codes require. A separated page then says which report, which week and which
  /// district it belongs to. `ownLine` puts the pack's name on a line of its own under the
  /// title: the national data's names (`경상북도 안동시`, `문화체육관광부 국립국악원`) beside
  /// its title are too wide for the left third of a page and ran into the week.
  static func header(title: String, period: String? = nil, district: String? = nil, ownLine: Bool = false) -> String {
    func escaped(_ text: String) -> String { text.replacingOccurrences(of: "&", with: "&&") }
    // Two lines in 9-point type, so that they fit above the sheet's top margin.
    let size = ownLine && district != nil ? "&9" : ""
    let left = title + (district.map { (ownLine ? "\n" : " — ") + $0 } ?? "")
    // Excel limits a header to 255 characters, codes included.
    return "&L" + size + String(escaped(left).prefix(120))
      + (period.map { "&C" + String(escaped($0).prefix(80)) } ?? "") + "&R&A"
  }

  /// `&C- &P -`: page 3 as `- 3 -`, as Korean public documents number their pages.
  static let footer = "&C- &P -"
}
