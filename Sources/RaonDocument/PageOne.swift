/// Page 1 of a weekly report, the summary a 주무관 puts on top of a 결재: the period and the
/// time of the data, the sentences written from the figures, the headline table, one
/// chart of what runs this week (or the sentence said instead), the attachments and the
/// source. A part of its own, so a mail body can carry it without the attachments.
public struct PageOne: Sendable {
  /// `서울시 문화행사 주간 현황` (with a pack's district).
  public var title: String
  /// `2024. 9. 9.(월) ~ 9. 15.(일)`.
  public var period: String
  /// `2024. 9. 9.(월) 09:00 수집 기준`.
  public var dataAsOf: String
  /// `보고일 2024. 9. 9.(월)`: the day of the data reported (the Monday run's).
  public var reportedOn: String
  /// The office's lines (``DocumentHead/officeLines(_:)``), empty when `[document]` is unset.
  public var office: [String]
  /// `□ 주간 요약`, then the three to five sentences.
  public var summaryHeading: String
  public var sentences: [String]
  /// `□ 주요 지표`, then this week beside last week with ▲/▼.
  public var figuresHeading: String
  /// `(단위: 건, %)`: the headline table's units, as an office's figure table states them.
  public var figuresUnit: String
  public var headline: Table
  /// `□ 자치구별 이번 주 운영`, then the chart, or the sentence said instead of one.
  public var chartHeading: String
  public var chart: Chart?
  public var chartSentence: String?
  /// `붙임`, then the attachments, numbered from 1, one a line, `끝.` after the last.
  public var attachments: AttachmentList
  /// `붙임` / `Attachments`.
  public var attachmentsHeading: String { attachments.heading }
  /// `출처: 서울 열린데이터광장 「서울시 문화행사 정보」(공공누리 제1유형)`.
  public var source: String

  /// Page 1 as the document's blocks (its title is the document's).
  public var blocks: [Block] {
    var blocks: [Block] = [
      .paragraph([.strong(period), .text(" · "), .text(dataAsOf)]),
      .byline([.text(([reportedOn] + office).joined(separator: " · "))]),
      .paragraph([.strong(summaryHeading)]),
      .list(sentences.map { ListItem([.text($0)]) }),
      .paragraph([.strong(figuresHeading), .text(" \(figuresUnit)")]),
      .table(headline),
      .paragraph([.strong(chartHeading)]),
    ]
    if let chart { blocks.append(.chart(chart)) }
    if let chartSentence { blocks.append(.paragraph([.text(chartSentence)])) }
    blocks.append(.attachments(attachments))
    blocks.append(.paragraph([.text(source)]))
    return blocks
  }
}
