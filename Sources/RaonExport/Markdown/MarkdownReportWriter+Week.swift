import Foundation
import RaonAnalytics
import RaonCore

/// The document an official signs: page 1 (the week's summary) and the attachments that
/// list this week's programs and what changed.
extension MarkdownReportWriter {
  // MARK: - Page 1

  /// The title with the period and the time of the data, three to five sentences written
  /// from the figures, the headline table, one chart of what runs this week, the list of
  /// attachments and the source.
  func pageOne(_ r: ReportData, attachments: [String], _ options: ExportOptions)
    -> (markdown: String, chart: (path: String, svg: String)?)
  {
    let L = options.labels
    let language = options.language
    var md = "# \(MarkdownText.inline(L.documentTitle(district: r.district?.name)))\n\n"
    md += "**\(OfficialDates.period(r.week.start, r.week.end, language))** · "
    md += L.dataAsOf(OfficialDates.instant(r.snapshot.takenAt, language)) + "\n\n"

    md += "**\(L.weeklySummary)**\n\n"
    for sentence in SummarySentences.make(r, L) { md += "- \(MarkdownText.inline(sentence))\n" }
    md += "\n**\(L.keyFigures)**\n\n" + headlineTable(r, L) + "\n"

    let v = r.weekView
    let (dimension, rows, unit) =
      r.district == nil
      ? (L.byDistrict, v.runningByDistrict, L.districtUnit) : (L.byCategory, v.runningByCategory, L.categoryUnit)
    md += "**\(L.runningChartHeading(dimension))**\n\n"
    var chart: (path: String, svg: String)?
    if v.running == 0 {
      md += L.noRunningThisWeek + "\n\n"
    } else if let only = rows.first, rows.count == 1 {
      // One bar says nothing a sentence does not.
      md += L.allRunningIn(only.key, only.count) + "\n\n"
    } else {
      let path = r.district == nil ? "charts/running_by_district.svg" : "charts/running_by_category.svg"
      let bars = Self.chartBars(rows, total: v.running, unit: unit, options)
      let title = "\(L.onNow) — \(dimension) (\(L.chartCountSuffix))"
      md += "![\(MarkdownText.inline(title))](\(path))\n\n" + bars.note
      chart = (path, SVGBarChart(title: title, bars: bars.bars, emptyText: L.noData).render())
    }

    md += "**\(L.attachmentsHeading)** "
    md += attachments.enumerated().map { "\($0.offset + 1). \(MarkdownText.inline($0.element))" }
      .joined(separator: "  ")
    md += "\n\n" + L.sourceLine + "\n\n"
    return (md, chart)
  }

  /// This week beside last week with ▲/▼.
  func headlineTable(_ r: ReportData, _ L: ReportLabels) -> String {
    let now = r.weekView
    let previous = r.compareTo == nil ? nil : r.previousWeek
    var columns: [(String, MarkdownTable.Alignment)] = [(L.item, .left), (L.thisWeek, .right)]
    if previous != nil { columns += [(L.lastWeek, .right), (L.change, .right)] }
    var table = MarkdownTable(columns)
    let counts: [(String, (WeekView) -> Int)] = [
      (L.currentPrograms, \.current), (L.runningThisWeek, \.running), (L.startingThisWeek, \.starting),
      (L.endingThisWeek, \.ending), (L.newlyRegistered, \.registered),
    ]
    for (label, figure) in counts {
      var cells = [label, figure(now).formatted()]
      if let previous {
        cells += [figure(previous).formatted(), Self.arrow(figure(now) - figure(previous))]
      }
      table.add(cells)
    }
    var free = [L.freeShareOfRunning, Self.share(now.runningFree, now.running)]
    if let previous {
      free.append(Self.share(previous.runningFree, previous.running))
      free.append(
        now.running > 0 && previous.running > 0
          ? Self.arrowPoints(
            Self.fraction(now.runningFree, now.running) - Self.fraction(previous.runningFree, previous.running),
            L)
          : "–")
    }
    table.add(free)
    return table.render()
  }

  /// `▲ 5`, `▼ 12`, `0`.
  static func arrow(_ delta: Int) -> String {
    delta > 0 ? "▲ " + delta.formatted() : delta < 0 ? "▼ " + (-delta).formatted() : "0"
  }

  /// `▲ 1.6%p`, `▼ 0.4%p`, `0.0%p`.
  static func arrowPoints(_ delta: Double, _ L: ReportLabels) -> String {
    let text = Percentage.pointsMagnitudeText(delta, suffix: L.percentPoints)
    let tenths = Percentage.tenths(delta) ?? 0
    return tenths > 0 ? "▲ " + text : tenths < 0 ? "▼ " + text : text
  }

  // MARK: - Running and current (attachment)

  /// What is on, by district and by category: one table each with the programs running
  /// this week and the current ones. Page 1 already shows the chart of the first table's
  /// dimension, so only the category chart of the city's report is drawn here.
  func weekSections(_ r: ReportData, _ options: ExportOptions) -> [Section] {
    let L = options.labels
    let v = r.weekView
    var sections: [Section] = []
    if r.district == nil {
      sections.append(
        onNowSection(
          L.byDistrict, L.district, v.runningByDistrict, v.currentByDistrict, v, file: nil, options))
    }
    sections.append(
      onNowSection(
        L.byCategory, L.category, v.runningByCategory, v.currentByCategory, v,
        file: r.district == nil ? "running_by_category" : nil, options))
    return sections
  }

  /// A dimension's running and current counts side by side, ranked by running; its chart
  /// (when `file` is given) follows the one top-N rule.
  func onNowSection(
    _ dimension: String, _ keyHeader: String, _ running: [BandCount], _ current: [BandCount],
    _ v: WeekView, file: String?, _ options: ExportOptions
  ) -> Section {
    let L = options.labels
    let title = "\(L.whatIsOn) — \(dimension)"
    var md = "### \(title)\n\n"
    var chartPath = ""
    var svg = ""
    if let file, v.running > 0 {
      chartPath = "charts/\(file).svg"
      let chart = Self.chartBars(running, total: v.running, unit: L.categoryUnit, options)
      md += "![\(MarkdownText.inline(title))](\(chartPath))\n\n" + chart.note
      svg = SVGBarChart(
        title: "\(L.onNow) — \(dimension) (\(L.chartCountSuffix))", bars: chart.bars, emptyText: L.noData
      ).render()
    }
    // Every key that is current, ranked by running, then current, then key.
    let runningCount = Dictionary(running.map { ($0.key, $0.count) }, uniquingKeysWith: +)
    let rows = current.sorted {
      let (a, b) = (runningCount[$0.key] ?? 0, runningCount[$1.key] ?? 0)
      return a != b ? a > b : $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key
    }
    var table = MarkdownTable([
      (keyHeader, .left), (L.runningThisWeek, .right), (L.share, .right), (L.currentPrograms, .right),
      (L.share, .right),
    ])
    for row in rows {
      let n = runningCount[row.key] ?? 0
      table.add([
        row.key, n.formatted(), Self.share(n, v.running), row.count.formatted(), Self.share(row.count, v.current),
      ])
    }
    table.addMarkdown([
      "**\(MarkdownText.inline(L.total))**", "**\(v.running.formatted())**", "", "**\(v.current.formatted())**", "",
    ])
    md += rows.isEmpty ? L.noData + "\n\n" : table.render() + "\n"
    return Section(markdown: md, chartPath: chartPath, svg: svg)
  }

  // MARK: - Lists (attachments)

  /// This week's running programs in full: for the city one table per district (가나다
  /// order, 미상 last, as the workbook lists them), for a pack one table.
  func runningList(_ r: ReportData, _ L: ReportLabels) -> String {
    let programs = r.lists.running
    guard !programs.isEmpty else { return L.noRunningThisWeek + "\n\n" }
    if r.district != nil {
      return L.countText(programs.count) + "\n\n" + programTable(programs[...], showDistrict: false, L) + "\n"
    }
    var md = ""
    for (district, list) in WeekLists.byDistrict(programs) {
      md += "### \(MarkdownText.inline(district)) (\(L.countText(list.count)))\n\n"
      md += programTable(list[...], showDistrict: false, L) + "\n"
    }
    return md
  }

  /// Starting (by start day) and ending (by end day) this week, in full.
  func startingAndEnding(_ r: ReportData, _ L: ReportLabels) -> String {
    var md = ""
    for (title, programs) in [(L.startingThisWeek, r.lists.starting), (L.endingThisWeek, r.lists.ending)] {
      md += "### \(title) (\(L.countText(programs.count)))\n\n"
      md += programs.isEmpty
        ? L.noneThisWeek + "\n\n" : programTable(programs[...], showDistrict: r.district == nil, L) + "\n"
    }
    return md
  }

  /// Newly registered this week and added since the compared snapshot: one list when
  /// they hold the same programs (the usual case for a weekly history), else both.
  func registeredAndAdded(_ r: ReportData, _ L: ReportLabels) -> (markdown: String, listsAdded: Bool) {
    let registered = r.lists.registered
    let showDistrict = r.district == nil
    guard r.changes != nil else {
      let md = registered.isEmpty
        ? L.noneThisWeek + "\n\n"
        : L.countText(registered.count) + "\n\n" + programTable(registered[...], showDistrict: showDistrict, L) + "\n"
      return (md, false)
    }
    let added = r.addedInReportOrder
    if added.isEmpty && registered.isEmpty { return (L.noneThisWeek + "\n\n", true) }
    if Set(added.map(\.id)) == Set(registered.map(\.id)) {
      var md = L.countText(registered.count) + " — " + L.registeredSameAsAdded + "\n\n"
      if !registered.isEmpty { md += programTable(registered[...], showDistrict: showDistrict, L) + "\n" }
      return (md, true)
    }
    var md = ""
    for (title, programs) in [(L.newlyRegistered, registered), (L.addedSinceLast, added)] {
      md += "### \(title) (\(L.countText(programs.count)))\n\n"
      md += programs.isEmpty
        ? L.noneThisWeek + "\n\n" : programTable(programs[...], showDistrict: showDistrict, L) + "\n"
    }
    return (md, true)
  }

  /// Title (linked to the portal's page), category, district, place, dates and fee.
  func programTable(_ programs: ArraySlice<Program>, showDistrict: Bool = true, _ L: ReportLabels) -> String {
    var columns: [(String, MarkdownTable.Alignment)] = [(L.title, .left), (L.category, .left)]
    if showDistrict { columns.append((L.district, .left)) }
    columns += [(L.place, .left), (L.period, .left), (L.fee, .left)]
    var table = MarkdownTable(columns)
    for p in programs {
      var cells = [MarkdownText.link(p.title, url: p.portalURL), MarkdownText.inline(p.category)]
      if showDistrict { cells.append(MarkdownText.inline(p.district)) }
      cells += [
        MarkdownText.inline(Self.shortened(p.place)), Self.period(p, L.language),
        MarkdownText.inline(Self.shortened(Self.feeText(p, L))),
      ]
      table.addMarkdown(cells)
    }
    return table.render()
  }

  /// The fee as the catalog states it; 무료 when the program is free and says nothing more.
  static func feeText(_ p: Program, _ L: ReportLabels) -> String {
    let text = p.feeText.trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty && p.isFree == true ? L.free : text
  }

  static func period(_ p: Program, _ language: ReportLanguage) -> String {
    OfficialDates.programDates(p.startDate, p.endDate, language)
  }

  static func shortened(_ text: String) -> String {
    DisplayWidth.truncate(text.split(whereSeparator: \.isNewline).joined(separator: " "), to: 40)
  }

  // MARK: - Changes (attachment)

  /// The changes an official acts on: withdrawn programs and material changes first, then
  /// what ended; what was added is listed in its own attachment (named here), minor
  /// changes only counted.
  func weekChanges(
    _ diff: SnapshotDiff, _ kinds: ChangeKinds, limit: Int, addedShownIn: Int?, withIds: Bool = false,
    _ L: ReportLabels
  ) -> String {
    var md = ""
    if diff.isEmpty { return md + L.noChanges + "\n\n" }
    md += L.changeCountsLine(
      added: diff.added.count, ended: kinds.removedEnded, withdrawn: kinds.removedWithdrawn,
      material: kinds.changedMaterial, minor: kinds.changedMinor) + "\n\n"
    let cap = max(1, limit)
    let withdrawn = Set(kinds.removedWithdrawnIds)
    let material = Set(kinds.changedMaterialIds)
    func list(_ title: String, _ programs: [Program]) {
      guard !programs.isEmpty else { return }
      md += "### \(title) (\(L.countText(programs.count)))\n\n"
      for p in programs.prefix(cap) { md += "- " + programItem(p, L, withId: withIds) + "\n" }
      if programs.count > cap { md += "- " + L.more(programs.count - cap) + "\n" }
      md += "\n"
    }
    list(L.withdrawnTitle, WeekLists.ordered(diff.removed.filter { withdrawn.contains($0.id) }))
    let changed = diff.changed.filter { material.contains($0.id) }
    if !changed.isEmpty {
      md += "### \(L.materialTitle) (\(L.countText(changed.count)))\n\n"
      for c in changed.prefix(cap) {
        md += "- " + programItem(c.new, L, withId: withIds) + "\n"
        for f in c.fields where !ChangeKinds.isMinor(f, of: c) {
          md += "  - \(MarkdownText.inline(L.fieldName(f.field))): "
          md += Self.quoted(f.old, field: f.field, L) + " → " + Self.quoted(f.new, field: f.field, L) + "\n"
        }
      }
      if changed.count > cap { md += "- " + L.more(changed.count - cap) + "\n" }
      md += "\n"
    }
    list(L.endedTitle, WeekLists.ordered(diff.removed.filter { !withdrawn.contains($0.id) }))
    if let addedShownIn, !diff.added.isEmpty {
      md += L.addedShownAbove(diff.added.count, attachment: addedShownIn) + "\n\n"
    } else {
      list(L.added, WeekLists.ordered(diff.added))
    }
    if kinds.changedMinor > 0 { md += L.minorChangesNote + "\n\n" }
    return md
  }

  /// A value as it reads in a change: 「세종체임버홀」, or (없음).
  static func quoted(_ text: String, field: String, _ L: ReportLabels) -> String {
    let shown = value(text, field: field, L)
    return shown == L.emptyValue ? shown : "「\(shown)」"
  }

  // MARK: - About the data (attachment)

  /// The snapshot, its source and time, the compared one, the ISO week and the definitions:
  /// what a reader needs to trace the figures, kept off page 1.
  func dataInformation(_ r: ReportData, _ L: ReportLabels) -> String {
    var md = "- **\(L.thisCollection)**: " + snapshotLine(r.snapshot, L, withSource: true) + "\n"
    md += "- **\(L.comparedCollection)**: "
    md += r.compareTo.map { snapshotLine($0, L, withSource: true) } ?? L.noComparison
    md += "\n- **\(L.reportWeek)**: " + L.weekRange(
      r.week.description, start: r.week.start.description, end: r.week.end.description)
    md += "\n\n**\(L.definitions)**\n\n"
    for line in L.definitionLines { md += "- \(MarkdownText.inline(line))\n" }
    return md + "\n"
  }
}
