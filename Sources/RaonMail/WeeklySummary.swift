/// What a weekly message says in its body: page 1 of the report it carries — the title,
/// the period and the time of the data, the sentences, the headline table and the source —
/// as plain values. Whoever makes the report fills it in; the mail bodies are rendered from
/// it (``WeeklyMailBody``). Codable: the ledger keeps it, so a delivery left pending can be
/// sent later exactly as it was written.
public struct WeeklySummary: Sendable, Equatable, Codable {
  /// `ko` or `en`: the body's language.
  public var language: String
  /// The document's title: `서울시 문화행사 주간 현황`, a pack's `종로구 문화행사 주간 현황`.
  public var title: String
  /// The period in official form: `2025. 8. 18.(월) ~ 8. 24.(일)`.
  public var period: String
  /// The time of the data: `2025. 8. 18.(월) 07:00 수집 기준`.
  public var dataAsOf: String
  /// `□ 주간 요약`.
  public var sentencesHeading: String
  /// Three to five sentences written from the figures.
  public var sentences: [String]
  /// `□ 주요 지표`.
  public var headlineHeading: String
  /// The headline table: its header and rows (the first column is the label, the others
  /// figures, right-aligned).
  public var headline: HeadlineTable
  /// `붙임`.
  public var attachmentsHeading: String
  /// `출처: 서울특별시 서울 열린데이터광장 …`.
  public var sourceLine: String
  /// The office page 1 names (`[document]`), a line each: the message's signature. `nil`
  /// in what the ledger kept before the head existed, and when `[document]` is unset.
  public var office: [String]?

  public init(
    language: String, title: String, period: String, dataAsOf: String, sentencesHeading: String,
    sentences: [String], headlineHeading: String, headline: HeadlineTable, attachmentsHeading: String,
    sourceLine: String, office: [String]? = nil
  ) {
    self.language = language
    self.title = title
    self.period = period
    self.dataAsOf = dataAsOf
    self.sentencesHeading = sentencesHeading
    self.sentences = sentences
    self.headlineHeading = headlineHeading
    self.headline = headline
    self.attachmentsHeading = attachmentsHeading
    self.sourceLine = sourceLine
    self.office = office
  }

  /// A table of text: a header row and rows of the same width.
  public struct HeadlineTable: Sendable, Equatable, Codable {
    public var header: [String]
    public var rows: [[String]]

    public init(header: [String], rows: [[String]]) {
      self.header = header
      self.rows = rows
    }
  }
}
