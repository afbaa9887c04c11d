import RaonCore

/// A table of a document: a header and rows of typed cells. Each cell reads one way
/// (``Cell/text``) whatever renders it, so the Markdown, the HTML page and a mail say the
/// same figure alike.
public struct Table: Sendable {
  public enum Alignment: Sendable { case left, right }

  public struct Column: Sendable {
    public var header: String
    public var alignment: Alignment
    /// A column whose cells are never broken inside (a category `교육/체험`, a district):
    /// print and screen keep each cell on one line.
    public var keepsCellsWhole: Bool

    /// The column's share of a printed page's width, relative to the other columns'
    /// (a list of programs gives its title the most); `nil` lets the renderer decide.
    public var printWeight: Int?

    public init(_ header: String, _ alignment: Alignment, keepsCellsWhole: Bool = false, printWeight: Int? = nil) {
      self.header = header
      self.alignment = alignment
      self.keepsCellsWhole = keepsCellsWhole
      self.printWeight = printWeight
    }
  }

  public var columns: [Column]
  /// Each row has at most as many cells as there are columns; a short row ends in empty
  /// cells.
  public private(set) var rows: [[Cell]] = []

  public init(_ columns: [Column]) {
    self.columns = columns
  }

  /// Adds a row, cut to the table's width.
  public mutating func add(_ cells: [Cell]) {
    rows.append(Array(cells.prefix(columns.count)))
  }
}

/// A table cell: what it holds, typed, so a renderer can align a number or link a title
/// while the text stays the one rule's.
public indirect enum Cell: Sendable, Hashable {
  case text(String)
  /// A title linked to the portal (``Inline/portalLink(_:url:)``'s rule).
  case link(Inline)
  /// `1,234`.
  case number(Int)
  /// `24.7%`, or `–` when there is nothing to share (0 of 0).
  case share(Int, of: Int)
  /// A share already computed (0…1): `24.7%`.
  case percent(Double)
  /// A median with one decimal at most (`12.5`, `1,000`), `—` when there is none.
  case decimal(Double?)
  /// A rise or fall: `▲ 5`, `▼ 12`, `0`.
  case change(Int)
  /// A rise or fall of a share in points (`▲ 1.6%p`); `–` when either share is of nothing.
  case pointChange(Double?, suffix: String)
  /// A total: the cell in bold.
  case strong(Cell)
  case empty

  /// `title` linked to `url` when that is a page of the portal.
  public static func portalLink(_ title: String, url: String) -> Cell { .link(.portalLink(title, url: url)) }

  /// The cell's text as people read it (a link's text without its address).
  public var text: String {
    switch self {
    case .text(let s): return s
    case .link(let inline):
      switch inline {
      case .text(let s), .strong(let s), .code(let s), .link(let s, _): return s
      }
    case .number(let n): return NumberText.grouped(n)
    case .share(let part, let whole): return whole > 0 ? Percentage.text(Double(part) / Double(whole)) : "–"
    case .percent(let fraction): return Percentage.text(fraction)
    case .decimal(let value): return value.flatMap { DecimalText.grouped($0, fractionDigits: 1) } ?? "—"
    case .change(let delta):
      return delta > 0 ? "▲ " + NumberText.grouped(delta) : delta < 0 ? "▼ " + NumberText.grouped(-delta) : "0"
    case .pointChange(let delta, let suffix):
      guard let delta else { return "–" }
      let text = Percentage.pointsMagnitudeText(delta, suffix: suffix)
      let tenths = Percentage.tenths(delta) ?? 0
      return tenths > 0 ? "▲ " + text : tenths < 0 ? "▼ " + text : text
    case .strong(let cell): return cell.text
    case .empty: return ""
    }
  }
}
