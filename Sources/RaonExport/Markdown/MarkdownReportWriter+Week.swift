import Foundation
import RaonAnalytics
import RaonCore

/// The sections the report leads with: the week's headline beside the previous week's,
/// what runs this week and what is current by district and category, this week's lists,
/// the trend, and the changes an official can act on.
extension MarkdownReportWriter {
  // MARK: - Headline

  /// This week's figures beside what the previous report said (the compared snapshot's
  /// own week and day), with signed changes.
  func weekHeadline(_ r: ReportData, _ L: ReportLabels) -> String {
    var md = "## \(L.summary)\n\n"
    let now = r.weekView
    let rows: [(String, (WeekView) -> Int?, (WeekView) -> Double?)] = [
      (L.currentPrograms, { $0.current }, { _ in nil }),
      (L.runningThisWeek, { $0.running }, { _ in nil }),
      (L.startingThisWeek, { $0.starting }, { _ in nil }),
      (L.endingThisWeek, { $0.ending }, { _ in nil }),
      (L.registeredThisWeek, { $0.registered }, { _ in nil }),
      (L.freeShareRunning, { _ in nil }, { Self.fraction($0.runningFree, $0.running) }),
    ]
    var columns: [(String, MarkdownTable.Alignment)] = [
      (L.key, .left), ("\(L.thisWeek) (\(L.weekAndSnapshot(r.week, r.snapshot.id)))", .right),
    ]
    let previous = r.previousWeek.flatMap { v in r.compareTo.map { (v, $0) } }
    if let (view, info) = previous {
      columns += [("\(L.previousWeek) (\(L.weekAndSnapshot(view.isoWeek, info.id)))", .right), (L.change, .right)]
    }
    var table = MarkdownTable(columns)
    for (label, count, share) in rows {
      var cells = [label]
      if let n = count(now) {
        cells.append(n.formatted())
        if let (view, _) = previous, let old = count(view) {
          cells += [old.formatted(), MarkdownText.signed(n - old)]
        }
      } else if let s = share(now) {
        cells.append(MarkdownText.percent(s))
        if let (view, _) = previous, let old = share(view) {
          cells += [MarkdownText.percent(old), MarkdownText.signedPoints(s - old, suffix: L.percentPoints)]
        }
      }
      table.add(cells)
    }
    md += table.render() + "\n"
    md += "<sub>" + MarkdownText.inline(L.weekDefinitions) + "</sub>\n\n"
    if let diff = r.changes, let kinds = r.changeKinds {
      md += "**\(L.changes)**: " + [
        "\(L.added) \(L.countText(diff.added.count))",
        "\(L.removedEnded) \(L.countText(kinds.removedEnded))",
        "\(L.removedWithdrawn) \(L.countText(kinds.removedWithdrawn))",
        "\(L.changedMaterial) \(L.countText(kinds.changedMaterial))",
        "\(L.changedMinor) \(L.countText(kinds.changedMinor))",
      ].joined(separator: " · ") + "\n\n"
    }
    return md
  }

  // MARK: - Running and current

  /// What is on, by district and by category: one table each with the programs running
  /// this week and the current ones (running or upcoming), and a chart of the running.
  /// A district's pack has one district, so only its categories.
  func weekSections(_ r: ReportData, _ options: ExportOptions) -> [Section] {
    let L = options.labels
    let v = r.weekView
    var sections: [Section] = []
    if r.district == nil {
      sections.append(
        onNowSection(L.byDistrict, L.district, v.runningByDistrict, v.currentByDistrict, v, file: "running_by_district", options))
    }
    sections.append(
      onNowSection(L.byCategory, L.category, v.runningByCategory, v.currentByCategory, v, file: "running_by_category", options))
    return sections
  }

  /// A dimension's running and current counts side by side, ranked by running; the chart
  /// follows the one top-N rule.
  func onNowSection(
    _ dimension: String, _ keyHeader: String, _ running: [BandCount], _ current: [BandCount],
    _ v: WeekView, file: String, _ options: ExportOptions
  ) -> Section {
    let L = options.labels
    let title = "\(L.whatIsOn) — \(dimension)"
    let chartPath = "charts/\(file).svg"
    var md = "### \(title)\n\n" + L.countsSet("\(L.runningSet) · \(L.currentSet)") + "\n\n"
    md += "![\(MarkdownText.inline(title))](\(chartPath))\n\n"
    let chart = TopN.forChart(running, keep: options.chartTopN, otherKey: L.other)
    let bars = chart.rows.enumerated().map { i, row in
      SVGBarChart.Bar(
        label: row.key, value: row.count, valueText: Self.countShare(row.count, v.running),
        isOther: chart.folded && i == chart.rows.count - 1)
    }
    if chart.folded { md += L.chartTopNote(chart.rows.count - 1, of: running.count) + "\n\n" }
    let svg = SVGBarChart(
      title: "\(L.onNow) — \(dimension) (\(L.chartCountSuffix))", bars: bars, emptyText: L.noData)
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
        row.key, n.formatted(), MarkdownText.percent(Self.fraction(n, v.running)), row.count.formatted(),
        MarkdownText.percent(Self.fraction(row.count, v.current)),
      ])
    }
    table.addMarkdown([
      "**\(MarkdownText.inline(L.total))**", "**\(v.running.formatted())**", "", "**\(v.current.formatted())**", "",
    ])
    md += rows.isEmpty ? L.noData + "\n\n" : table.render() + "\n"
    return Section(markdown: md, chartPath: chartPath, svg: svg.render())
  }

  // MARK: - Lists

  /// Starting, ending, newly registered and newly added: the first ``weekListLimit`` of
  /// each (by start day, district, title) with how many more there are.
  func weekLists(_ r: ReportData, _ L: ReportLabels) -> String {
    var md = "## \(L.thisWeeksLists)\n\n"
    var lists: [(String, [Program])] = [
      (L.startingThisWeek, r.lists.starting), (L.endingThisWeek, r.lists.ending),
      (L.newlyRegistered, r.lists.registered),
    ]
    if r.changes != nil { lists.append((L.newlyAdded, r.addedInReportOrder)) }
    for (title, programs) in lists {
      md += "### \(title) (\(programs.count.formatted()))\n\n"
      guard !programs.isEmpty else {
        md += L.noneThisWeek + "\n\n"
        continue
      }
      md += programTable(programs.prefix(weekListLimit), L) + "\n"
      if programs.count > weekListLimit { md += L.firstOf(weekListLimit, programs.count) + "\n\n" }
    }
    return md
  }

  /// Title (linked to the portal), category, district, place, dates and fee.
  func programTable(_ programs: ArraySlice<Program>, _ L: ReportLabels) -> String {
    var table = MarkdownTable([
      (L.title, .left), (L.category, .left), (L.district, .left), (L.place, .left),
      (L.period, .left), (L.fee, .left),
    ])
    for p in programs {
      table.addMarkdown([
        MarkdownText.link(p.title, url: p.portalURL), MarkdownText.inline(p.category),
        MarkdownText.inline(p.district), MarkdownText.inline(Self.shortened(p.place)),
        Self.period(p), MarkdownText.inline(Self.shortened(p.feeText)),
      ])
    }
    return table.render()
  }

  static func period(_ p: Program) -> String {
    switch (p.startDate, p.endDate) {
    case let (s?, e?): return s == e ? "\(s)" : "\(s) ~ \(e)"
    case let (s?, nil): return "\(s) ~"
    case let (nil, e?): return "~ \(e)"
    case (nil, nil): return "—"
    }
  }

  static func shortened(_ text: String) -> String {
    DisplayWidth.truncate(text.split(whereSeparator: \.isNewline).joined(separator: " "), to: 40)
  }

  // MARK: - Trend

  /// One row per ISO week that has a snapshot, oldest first.
  func trendSection(_ r: ReportData, _ L: ReportLabels) -> String {
    var md = "## \(L.trend)\n\n"
    guard !r.trend.isEmpty else { return md + L.noData + "\n\n" }
    var table = MarkdownTable([
      (L.isoWeek, .left), (L.snapshotId, .right), (L.programCount, .right),
      (L.currentPrograms, .right), (L.runningThisWeek, .right), (L.startingThisWeek, .right),
      (L.newlyRegistered, .right), (L.added, .right), (L.removed, .right),
    ])
    for p in r.trend {
      table.add([
        p.isoWeek.description, "#\(p.snapshotId)", p.programCount.formatted(), p.current.formatted(),
        p.running.formatted(), p.starting.formatted(), p.registered.formatted(),
        p.added?.formatted() ?? "—", p.removed?.formatted() ?? "—",
      ])
    }
    return md + table.render() + "\n"
  }

  // MARK: - Changes

  /// The changes an official acts on first: withdrawn programs and material changes, then
  /// what ended and what was added; minor changes only counted.
  func weekChanges(_ diff: SnapshotDiff, _ kinds: ChangeKinds, limit: Int, _ L: ReportLabels) -> String {
    var md = ""
    if diff.isEmpty { return md + L.noChanges + "\n\n" }
    let cap = max(1, limit)
    let withdrawn = Set(kinds.removedWithdrawnIds)
    let material = Set(kinds.changedMaterialIds)
    func list(_ title: String, _ programs: [Program]) {
      guard !programs.isEmpty else { return }
      md += "### \(title) (\(programs.count.formatted()))\n\n"
      for p in programs.prefix(cap) { md += "- " + programItem(p) + "\n" }
      if programs.count > cap { md += "- " + L.more(programs.count - cap) + "\n" }
      md += "\n"
    }
    list(L.removedWithdrawn, diff.removed.filter { withdrawn.contains($0.id) })
    let changed = diff.changed.filter { material.contains($0.id) }
    if !changed.isEmpty {
      md += "### \(L.changedMaterial) (\(changed.count.formatted()))\n\n"
      for c in changed.prefix(cap) {
        md += "- " + MarkdownText.link(c.new.title, url: c.new.portalURL) + " (`\(c.id)`)\n"
        for f in c.fields {
          md += "  - \(MarkdownText.inline(L.fieldName(f.field))): "
          md += Self.value(f.old, field: f.field, L) + " → " + Self.value(f.new, field: f.field, L)
          if ChangeKinds.isMinor(f, of: c) { md += " (\(L.minor))" }
          md += "\n"
        }
      }
      if changed.count > cap { md += "- " + L.more(changed.count - cap) + "\n" }
      md += "\n"
    }
    list(L.removedEnded, diff.removed.filter { !withdrawn.contains($0.id) })
    list(L.added, diff.added)
    if kinds.changedMinor > 0 {
      md += "### \(L.changedMinor) (\(kinds.changedMinor.formatted()))\n\n" + L.minorNote + "\n\n"
    }
    return md
  }
}
