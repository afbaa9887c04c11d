import RaonAnalytics
import RaonCore

/// Composes the weekly report from its figures: page 1 and the attachments that list this
/// week's programs, what changed and the statistics. Pure: the same figures and options
/// give the same document.
///
/// The report, in order: page 1 (``PageOne``); 붙임 1 the programs running this week (by
/// district for the city); 2 starting and ending; 3 newly registered (and added since the
/// compared snapshot when those differ); 4 the changes; 5 what is on, by district and by
/// category; 6 the trend; 7 the whole catalog's statistics (which count ended programs
/// too); 8 data quality with examples; 9 about the data. A district pack prints 1–6 and
/// about the data (7), its 2 as a note (its list of what runs marks what starts and ends);
/// its catalog statistics and data quality follow as screen-only references (`참고 1`,
/// `참고 2`), in the HTML, the Markdown and the workbook.
struct WeeklyReportComposer {
  let r: ReportData
  let options: DocumentOptions
  let L: ReportLabels

  init(figures: ReportData, options: DocumentOptions) {
    r = figures
    self.options = options
    L = options.labels
  }

  func compose() -> WeeklyReport {
    let charts = self.charts()
    let titles = attachmentTitles()
    var attachments: [[Block]] = [runningList(), startingAndEnding()]
    let registered = registeredAndAdded()
    attachments.append(registered.blocks)
    if let diff = r.changes, let kinds = r.changeKinds {
      let addedShownIn = registered.listsAdded ? attachments.count : nil
      attachments.append(
        ChangesComposer(labels: L).weekChanges(diff, kinds, limit: options.listLimit, addedShownIn: addedShownIn))
    } else {
      attachments.append([.paragraph([.text(L.noComparison)])])
    }
    attachments.append(weekSections(charts))
    attachments.append(
      r.trend.isEmpty
        ? [.paragraph([.text(L.trendEmpty)])] : TrendComposer.blocks(r.trend, chart: charts.trend, labels: L))
    // A pack is the district's week on paper; its catalog statistics (which count ended
    // programs too) and data quality go to the screen and the workbook, after the printed
    // attachments, and an empty data-quality part is left out.
    var reference: [[Block]] = []
    if r.district == nil {
      attachments += [wholeCatalog(charts), quality()]
    } else {
      reference.append(wholeCatalog(charts))
      if !r.tables.quality.isEmpty { reference.append(quality()) }
    }
    attachments.append(dataInformation())

    // The city's running list is, on paper, the workbook's sheet when the workbook goes
    // with it (``pageOne(charts:)``).
    let page = pageOne(charts: charts)
    let printNote = runningListIsWorkbooks ? L.runningListPrintNote(r.lists.running.count) : nil
    // A pack's lists of what starts and ends (attachment 2) repeat programs its list of
    // what runs marks: paper says so instead.
    let (starting, ending) = (r.lists.starting.count, r.lists.ending.count)
    let packNote =
      r.district != nil && starting + ending > 0
      ? L.packStartingEndingPrintNote(starting: starting, ending: ending, workbook: options.workbookAccompanies) : nil
    let sections =
      zip(titles.attachments, attachments).enumerated().map { n, a in
        Section(
          title: L.attachment(n + 1, a.0), blocks: a.1, printNote: n == 0 ? printNote : n == 1 ? packNote : nil)
      }
      + zip(titles.references, reference).enumerated().map { n, a in
        Section(title: L.reference(n + 1, a.0), blocks: a.1, destination: .screen)
      }
    let front = page.blocks
    let shown = (front + sections.flatMap(\.blocks)).compactMap { block -> Chart? in
      if case .chart(let chart) = block { return chart }
      return nil
    }
    let document = Document(
      language: options.language, title: page.title, period: page.period, front: front, sections: sections, closing: L.attribution,
      charts: shown)
    return WeeklyReport(figures: r, pageOne: page, document: document, charts: charts, options: options)
  }

  // MARK: - Page 1

  /// The attachments' titles (`붙임 N.` before each) and a pack's references' (`참고 N.`).
  func attachmentTitles() -> (attachments: [String], references: [String]) {
    var attachments = [
      r.district == nil ? L.runningListByDistrict : L.runningListTitle, L.startingAndEnding, L.registeredAndAdded,
      L.changesSinceLast, r.district == nil ? L.statusTables : L.statusTablesByCategory, L.trendTitle,
    ]
    var references: [String] = []
    if r.district == nil {
      attachments += [L.wholeCatalogTitle, L.quality]
    } else {
      references.append(L.wholeCatalogTitle)
      if !r.tables.quality.isEmpty { references.append(L.quality) }
    }
    attachments.append(L.dataInformation)
    return (attachments, references)
  }

  /// Whether the city's running list (attachment 1, every program in every district: the
  /// one list too long for paper, thousands of rows) is, on paper, the workbook's sheet:
  /// when the workbook goes with the pages. Without it, paper prints the list in full.
  var runningListIsWorkbooks: Bool {
    r.district == nil && !r.lists.running.isEmpty && options.workbookAccompanies
  }

  /// The number (from 1) of the attachment holding what is on by region and category, the
  /// tables page 1's chart note points to.
  static let statusTablesAttachment = 5

  /// The title with the period, the time of the data, the report's date and the office,
  /// three to five sentences written from the figures, the headline table, one chart of
  /// what runs this week, the list of attachments and the source.
  ///
  /// The attachments are listed as a Korean office lists them (``AttachmentList``); the one
  /// not printed (the city's running list, when the workbook goes with the pages) names on
  /// paper the sheet that stands in for it. Page 1 names the printed attachments only (a
  /// pack's 참고 are on screen and in the workbook).
  func pageOne(charts: WeeklyCharts) -> PageOne {
    let titles = attachmentTitles().attachments
    let items = titles.enumerated().map { n, title in
      AttachmentList.Item(
        number: n + 1, text: L.attachmentItem(title),
        printText: n == 0 && runningListIsWorkbooks ? L.attachmentItemInWorkbook(title, sheet: L.runningThisWeek) : nil)
    }
    let language = options.language
    let v = r.weekView
    let (dimension, rows) =
      r.district == nil ? (L.byDistrict, v.runningByDistrict) : (L.byCategory, v.runningByCategory)
    var chart: Chart?
    var sentence: String?
    if v.running == 0 {
      sentence = L.noRunningThisWeek
    } else if let only = rows.first, rows.count == 1 {
      // One bar says nothing a sentence does not.
      sentence = L.allRunningIn(L.named(only.key), only.count)
    } else {
      // What the chart leaves out is in attachment 5's table, not in one right below.
      chart = r.district == nil
        ? runningByDistrictChart(restIn: Self.statusTablesAttachment)
        : runningByCategoryChart(restIn: Self.statusTablesAttachment)
    }
    var sentences = SummarySentences.make(r, L)
    if !options.refersToAttachments { sentences = sentences.map(L.withoutAttachmentReference) }
    return PageOne(
      title: L.documentTitle(district: r.district.map { L.named($0.name) }),
      period: OfficialDates.period(r.week.start, r.week.end, language),
      dataAsOf: L.dataAsOf(OfficialDates.instant(r.snapshot.takenAt, language)),
      reportedOn: L.reportedOn(r.snapshot.koreaDay), office: options.head.officeLines(L),
      summaryHeading: L.weeklySummary, sentences: sentences,
      figuresHeading: L.keyFigures, figuresUnit: L.figuresUnit, headline: headlineTable(),
      chartHeading: L.runningChartHeading(dimension), chart: chart, chartSentence: sentence,
      attachments: AttachmentList(heading: L.attachmentsHeading, items: items, end: L.attachmentsEnd),
      source: L.sourceLine)
  }

  /// This week beside the compared week (전주 only for the week before) with ▲/▼.
  func headlineTable() -> Table {
    let now = r.weekView
    let against = ComparedWith.of(r)
    let previous = against == nil ? nil : r.previousWeek
    var columns = [Table.Column(L.item, .left), Table.Column(L.thisWeek, .right)]
    if let against, previous != nil {
      columns += [Table.Column(L.comparedHeader(against), .right), Table.Column(L.change, .right)]
    }
    var table = Table(columns)
    let counts: [(String, (WeekView) -> Int)] = [
      (L.currentPrograms, \.current), (L.runningThisWeek, \.running), (L.startingThisWeek, \.starting),
      (L.endingThisWeek, \.ending), (L.newlyRegistered, \.registered),
    ]
    for (label, figure) in counts {
      var cells: [Cell] = [.text(label), .number(figure(now))]
      if let previous { cells += [.number(figure(previous)), .change(figure(now) - figure(previous))] }
      table.add(cells)
    }
    var free: [Cell] = [.text(L.freeShareOfRunning), .share(now.runningFree, of: now.running)]
    if let previous {
      free.append(.share(previous.runningFree, of: previous.running))
      free.append(
        .pointChange(
          now.running > 0 && previous.running > 0
            ? Self.fraction(now.runningFree, now.running) - Self.fraction(previous.runningFree, previous.running)
            : nil,
          suffix: L.percentPoints))
    }
    table.add(free)
    return table
  }

  // MARK: - Charts

  /// Every chart of the report, described once.
  func charts() -> WeeklyCharts {
    let v = r.weekView, t = r.tables
    // Named for what they chart, in every format that writes them as files: `by_district`,
    // `running_by_region` (the catalog's ``FileWords``).
    let (region, group) = (L.words.files.region, L.words.files.group)
    return WeeklyCharts(
      byCategory: ranking("by_\(group)", L.byCategory, nil, t.byCategory.map(\.keyCount), t.total, L.categoryUnit),
      byDistrict: ranking("by_\(region)", L.byDistrict, nil, t.byDistrict.map(\.keyCount), t.total, L.districtUnit),
      byFee: scale("by_fee", L.byFee, t.byFee, L.feeBand(_:), t.total),
      byDuration: scale("by_duration", L.byDuration, t.byDuration, L.durationBand(_:), t.total),
      runningByDistrict: runningByDistrictChart(restIn: nil),
      runningByCategory: runningByCategoryChart(restIn: nil),
      currentByDistrict: ranking(
        "current_by_\(region)", L.byDistrict, L.currentPrograms, v.currentByDistrict, v.current, L.districtUnit),
      currentByCategory: ranking(
        "current_by_\(group)", L.byCategory, L.currentPrograms, v.currentByCategory, v.current, L.categoryUnit),
      trend: TrendComposer.chart(r.trend, labels: L))
  }

  /// This week's running programs by region; `restIn`: the attachment whose table holds
  /// what the chart leaves out (`nil`: the table right below it).
  func runningByDistrictChart(restIn attachment: Int?) -> Chart {
    let v = r.weekView
    return ranking(
      "running_by_\(L.words.files.region)", L.byDistrict, L.onNow, v.runningByDistrict, v.running, L.districtUnit,
      restIn: attachment)
  }

  /// This week's running programs by category: page 1's in a pack and attachment 5's in
  /// the city's report, each place naming it in its own words.
  func runningByCategoryChart(restIn attachment: Int?) -> Chart {
    let v = r.weekView
    return ranking(
      "running_by_\(L.words.files.group)", L.byCategory, L.onNow, v.runningByCategory, v.running, L.categoryUnit,
      alt: r.district == nil ? "\(L.whatIsOn) — \(L.byCategory)" : nil, restIn: attachment)
  }

  /// A ranking's chart: its largest groups by the one top-N rule, without the summed rest
  /// (a bar of everything else would be the longest and read as one more group: it is
  /// named in the note instead). The title names the set counted, when there is one;
  /// `alt` is what the document calls it (the title, unless given); the note points to
  /// the table below the chart, or to attachment `restIn`'s.
  func ranking(
    _ file: String, _ subject: String, _ set: String?, _ rows: [BandCount], _ total: Int, _ unit: String,
    alt: String? = nil, restIn attachment: Int? = nil
  ) -> Chart {
    let cut = TopN.forChart(rows, keep: options.chartTopN, otherKey: L.other)
    var shown = cut.rows
    var note: String?
    if cut.folded, shown.popLast() != nil {
      // Named from the groups left out, so 미상 is never counted as one more 구.
      let ranked = rows.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
      note = CountPhrases.chartRest(
        Array(ranked.dropFirst(shown.count)), unit: unit, unknownKey: L.unknownKey(forUnit: unit),
        inAttachment: attachment, L)
    }
    let title = (set.map { "\($0) — \(subject)" } ?? subject) + " (\(L.chartCountSuffix))"
    // Names in the report's language once the figures are cut (the rest is found by key).
    let bars = Chart.Bars(
      subject: subject, set: set, rows: rows.map(named),
      bars: shown.map { Chart.Bar(label: L.named($0.key), value: $0.count, valueText: Self.countShare($0.count, total)) },
      keep: options.chartTopN, unit: unit, isScale: false, note: note)
    return Chart(
      file: file, title: title, alt: alt ?? (set == nil ? subject : title), emptyText: L.noData, content: .bars(bars))
  }

  /// A band scale's chart: every band, in its order.
  func scale(_ file: String, _ subject: String, _ bands: [BandCount], _ label: (String) -> String, _ total: Int)
    -> Chart
  {
    let bars = Chart.Bars(
      subject: subject, set: nil, rows: bands,
      bars: bands.map { Chart.Bar(label: label($0.key), value: $0.count, valueText: Self.countShare($0.count, total)) },
      keep: options.chartTopN, unit: "", isScale: true, note: nil)
    return Chart(
      file: file, title: "\(subject) (\(L.chartCountSuffix))", alt: subject, emptyText: L.noData, content: .bars(bars))
  }

  /// A row with its key in the report's language (``ReportLabels/named(_:)``).
  func named(_ row: BandCount) -> BandCount {
    var row = row
    row.key = L.named(row.key)
    return row
  }

  // MARK: - Numbers

  static func fraction(_ part: Int, _ whole: Int) -> Double {
    whole > 0 ? Double(part) / Double(whole) : 0
  }

  /// `1,234 (24.7%)` — the text after a chart's bar.
  static func countShare(_ count: Int, _ total: Int) -> String {
    "\(count.formatted()) (\(Cell.share(count, of: total).text))"
  }
}
