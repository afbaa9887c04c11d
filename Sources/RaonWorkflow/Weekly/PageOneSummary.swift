import RaonAnalytics
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail

/// Page 1 of a report as a weekly message's body says it (``WeeklySummary``): the one place
/// that knows where page 1 comes from. Today that is the report's figures and the words
/// the report's own page 1 uses (`SummarySentences`, the labels, the headline rows of the
/// Markdown page); when the report becomes one document value with its renderers, this
/// reads the document's page 1 instead.
enum PageOneSummary {
  static func make(_ r: ReportData, _ options: ExportOptions) -> WeeklySummary {
    let L = options.labels
    let language = options.language
    return WeeklySummary(
      language: language.rawValue,
      title: L.documentTitle(district: r.district?.name),
      period: OfficialDates.period(r.week.start, r.week.end, language),
      dataAsOf: L.dataAsOf(OfficialDates.instant(r.snapshot.takenAt, language)),
      sentencesHeading: L.weeklySummary,
      sentences: SummarySentences.make(r, L),
      headlineHeading: L.keyFigures,
      headline: headline(r, L),
      attachmentsHeading: L.attachmentsHeading,
      sourceLine: L.sourceLine)
  }

  /// This week beside last week with ▲/▼, the rows of page 1's headline table.
  static func headline(_ r: ReportData, _ L: ReportLabels) -> WeeklySummary.HeadlineTable {
    let now = r.weekView
    let previous = r.compareTo == nil ? nil : r.previousWeek
    var header = [L.item, L.thisWeek]
    if previous != nil { header += [L.lastWeek, L.change] }
    var rows: [[String]] = []
    let counts: [(String, (WeekView) -> Int)] = [
      (L.currentPrograms, \.current), (L.runningThisWeek, \.running), (L.startingThisWeek, \.starting),
      (L.endingThisWeek, \.ending), (L.newlyRegistered, \.registered),
    ]
    for (label, figure) in counts {
      var cells = [label, figure(now).formatted()]
      if let previous { cells += [figure(previous).formatted(), arrow(figure(now) - figure(previous))] }
      rows.append(cells)
    }
    var free = [L.freeShareOfRunning, share(now.runningFree, now.running)]
    if let previous {
      free.append(share(previous.runningFree, previous.running))
      free.append(
        now.running > 0 && previous.running > 0
          ? arrowPoints(fraction(now.runningFree, now.running) - fraction(previous.runningFree, previous.running), L)
          : "–")
    }
    rows.append(free)
    return WeeklySummary.HeadlineTable(header: header, rows: rows)
  }

  static func arrow(_ delta: Int) -> String {
    delta > 0 ? "▲ " + delta.formatted() : delta < 0 ? "▼ " + (-delta).formatted() : "0"
  }

  static func arrowPoints(_ delta: Double, _ L: ReportLabels) -> String {
    let text = Percentage.pointsMagnitudeText(delta, suffix: L.percentPoints)
    let tenths = Percentage.tenths(delta) ?? 0
    return tenths > 0 ? "▲ " + text : tenths < 0 ? "▼ " + text : text
  }

  static func fraction(_ part: Int, _ whole: Int) -> Double { whole > 0 ? Double(part) / Double(whole) : 0 }

  static func share(_ part: Int, _ whole: Int) -> String {
    whole > 0 ? Percentage.text(Double(part) / Double(whole)) : "–"
  }
}
