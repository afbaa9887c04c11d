import RaonCore

/// A document people read, in no format yet: its title, what stands before its sections
/// (page 1 of a weekly report), its sections, and the closing line under a rule. Markdown
/// and HTML render it block by block; neither adds a word of its own.
///
/// ```swift
/// let document = ReportDocument.compose(.report(figures), options: options).document
/// let markdown = MarkdownRenderer.render(document)        // RaonExport
/// ```
public struct Document: Sendable {
  public var language: ReportLanguage
  /// The document's title (a report's `서울시 문화행사 주간 현황`, with a pack's district).
  public var title: String
  /// What a printed page carries at its top: a title (the document's, or a comparison's
  /// without the snapshots' numbers) and the week in official form, or the two collection
  /// times of a comparison.
  public var printTitle: String
  public var period: String
  /// The blocks before the first section: page 1 of a report, all of a comparison.
  public var front: [Block]
  /// The numbered parts (a report's attachments, `붙임 1. …`).
  public var sections: [Section]
  /// The line after the closing rule: the source the licence asks to name.
  public var closing: String
  /// Every chart the document comes with, in the order their files are written (a chart
  /// a block shows, and the trend's chart even when it has no point to show).
  public var charts: [Chart]

  public init(
    language: ReportLanguage, title: String, printTitle: String? = nil, period: String, front: [Block], sections: [Section],
    closing: String, charts: [Chart]
  ) {
    self.language = language
    self.title = title
    self.printTitle = printTitle ?? title
    self.period = period
    self.front = front
    self.sections = sections
    self.closing = closing
    self.charts = charts
  }
}

/// A numbered part of a document.
public struct Section: Sendable {
  /// `붙임 1. 이번 주 운영 행사(자치구별)`.
  public var title: String
  public var blocks: [Block]
  /// When set, the section is too long for paper: a printed page says this instead of
  /// showing the section's body (the city's list of every running program).
  public var printNote: String?
  /// Where the section goes: a district pack's catalog statistics and data quality are
  /// for the screen and the workbook, not for its printed pages.
  public var destination: Destination

  public init(title: String, blocks: [Block], printNote: String? = nil, destination: Destination = .everywhere) {
    self.title = title
    self.blocks = blocks
    self.printNote = printNote
    self.destination = destination
  }

  /// Where a section is shown.
  public enum Destination: Sendable {
    /// On screen and on paper.
    case everywhere
    /// On screen (HTML, Markdown) only: a printed page leaves it out, heading and all.
    case screen
  }

  /// Whether a printed page carries the section.
  public var isPrinted: Bool { destination == .everywhere }
}

/// One block of a document.
public enum Block: Sendable {
  /// A part's heading inside a section (`### 분류별`): print keeps a part on one page when
  /// it fits.
  case heading([Inline])
  case paragraph([Inline])
  /// Items, each with sub-items (a material change's fields).
  case list([ListItem])
  case table(Table)
  /// Programs, one per row: the lists an official works from.
  case programs(ProgramTable)
  /// A chart and, under it, the note on what it leaves out.
  case chart(Chart)
  /// Who reports and when (page 1's 보고일 and office): set apart, to the right on a page.
  case byline([Inline])
  /// Page 1's 붙임, one numbered item per line, aligned, and the closing mark.
  case attachments(AttachmentList)
  /// The glossary: reference text a reader looks up, printed smaller than the body.
  case definitions([Inline])
}

/// An item of a ``Block/list(_:)``.
public struct ListItem: Sendable {
  public var content: [Inline]
  public var children: [[Inline]]

  public init(_ content: [Inline], children: [[Inline]] = []) {
    self.content = content
    self.children = children
  }
}

/// Text inside a block. Renderers escape ``text(_:)`` for their format; nothing in a
/// document is markup already.
public enum Inline: Sendable, Hashable {
  case text(String)
  /// Emphasised text (`**…**`, `<strong>`).
  case strong(String)
  /// A code, a file name or an id (`` `cult:1` ``).
  case code(String)
  /// Text linked to a page of the portal. Made only by ``Inline/portalLink(_:url:)``, so a
  /// document links nowhere else.
  case link(String, url: String)

  /// `text` linked to `url` when `url` is a program page of the portal (``PortalLink``),
  /// else `text` alone; the address stands for an empty text.
  public static func portalLink(_ text: String, url: String) -> Inline {
    let label = text.isEmpty ? url : text
    return PortalLink.isProgramPage(url) ? .link(label, url: url) : .text(label)
  }
}
