import RaonAnalytics
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail

/// Page 1 of a report as a weekly message's body says it (``WeeklySummary``): the
/// document's own page 1 (``ReportDocument/pageOne(_:options:)``), its headline table's
/// cells as they read (``Cell/text``), so a message and the report never word a figure
/// differently.
enum PageOneSummary {
  static func make(_ r: ReportData, _ options: ExportOptions) -> WeeklySummary {
    // A message's 붙임 are the files it carries: its sentences point into no attachment.
    var document = options.document
    document.refersToAttachments = false
    let page = ReportDocument.pageOne(r, options: document)
    return WeeklySummary(
      language: options.language.rawValue,
      title: page.title,
      period: page.period,
      dataAsOf: page.dataAsOf,
      sentencesHeading: page.summaryHeading,
      sentences: page.sentences,
      headlineHeading: "\(page.figuresHeading) \(page.figuresUnit)",
      headline: WeeklySummary.HeadlineTable(
        header: page.headline.columns.map(\.header), rows: page.headline.rows.map { $0.map(\.text) }),
      attachmentsHeading: page.attachmentsHeading,
      sourceLine: page.source, office: page.office.isEmpty ? nil : page.office)
  }
}
