import Foundation
import RaonAnalytics
import RaonCore

extension MarkdownReportWriter {
  /// A dimension's part of the report: its Markdown and its chart.
  struct Section {
    var markdown: String
    var chartPath: String
    var svg: String
  }

  // MARK: - Dimensions

  func groupSection(
    _ title: String, _ keyHeader: String, _ groups: [GroupStats], _ file: String, _ total: Int,
    _ options: ExportOptions
  ) -> Section {
    let L = options.labels
    let chartPath = "charts/\(file).svg"
    var md = "### \(title)\n\n"
    md += "![\(MarkdownText.inline(title))](\(chartPath))\n\n"

    // The chart shows the largest groups; the table shows all.
    let chart = Self.chartBars(
      groups.map(\.keyCount), total: total,
      unit: file == "by_district" ? L.districtUnit : L.categoryUnit, options)
    md += chart.note
    let svg = SVGBarChart(title: "\(title) (\(L.chartCountSuffix))", bars: chart.bars, emptyText: L.noData)

    // 유무료 미상 only when some program's free flag is unknown (catalogs before 2024).
    let showUnknown = groups.contains { $0.unknown > 0 }
    var table = MarkdownTable(
      [
        (keyHeader, .left), (L.count, .right), (L.share, .right), (L.free, .right),
        (L.paid, .right), (L.medianDurationDays, .right), (L.medianFeeMinKrw, .right),
      ] + (showUnknown ? [(L.freeUnknown, .right)] : []))
    for g in groups {
      table.add(
        [
          g.key, g.count.formatted(), MarkdownText.percent(g.share), g.free.formatted(),
          g.paid.formatted(), Self.median(g.medianDurationDays), Self.median(g.medianFeeMinKrw),
        ] + (showUnknown ? [g.unknown.formatted()] : []))
    }
    md += groups.isEmpty ? L.noData + "\n\n" : table.render() + "\n"
    return Section(markdown: md, chartPath: chartPath, svg: svg.render())
  }

  func bandSection(
    _ title: String, _ keyHeader: String, _ bands: [BandCount], _ label: (String) -> String,
    _ file: String, _ total: Int, _ L: ReportLabels
  ) -> Section {
    let chartPath = "charts/\(file).svg"
    var md = "### \(title)\n\n"
    md += "![\(MarkdownText.inline(title))](\(chartPath))\n\n"
    let bars = bands.map {
      SVGBarChart.Bar(label: label($0.key), value: $0.count, valueText: Self.countShare($0.count, total))
    }
    let svg = SVGBarChart(title: "\(title) (\(L.chartCountSuffix))", bars: bars, emptyText: L.noData)
    var table = MarkdownTable([(keyHeader, .left), (L.count, .right), (L.share, .right)])
    for b in bands {
      table.add([label(b.key), b.count.formatted(), Self.share(b.count, total)])
    }
    md += bands.isEmpty ? L.noData + "\n\n" : table.render() + "\n"
    return Section(markdown: md, chartPath: chartPath, svg: svg.render())
  }

  /// Districts down, the largest categories across: 26 rows × a handful of columns reads
  /// on a screen and on paper, where 26 district columns would not.
  func crossSection(_ c: CrossTable, _ L: ReportLabels) -> String {
    var md = "### \(L.categoryByDistrict)\n\n"
    guard !c.rowKeys.isEmpty, !c.columnKeys.isEmpty else { return md + L.noData + "\n\n" }
    let shown = min(max(1, crossTableCategories), c.rowKeys.count)
    let folded = c.rowKeys.count > shown
    var columns: [(String, MarkdownTable.Alignment)] = [(L.district, .left)]
    columns += c.rowKeys.prefix(shown).map { ($0, .right) }
    if folded { columns.append((L.other, .right)) }
    columns.append((L.total, .right))
    var table = MarkdownTable(columns)

    func cell(_ r: Int, _ col: Int) -> Int {
      r < c.counts.count && col < c.counts[r].count ? c.counts[r][col] : 0
    }
    var totals = Array(repeating: 0, count: columns.count - 1)
    for (col, district) in c.columnKeys.enumerated() {
      var values = (0..<shown).map { cell($0, col) }
      if folded { values.append((shown..<c.rowKeys.count).reduce(0) { $0 + cell($1, col) }) }
      values.append(values.reduce(0, +))
      for (i, v) in values.enumerated() { totals[i] += v }
      table.addMarkdown([MarkdownText.inline(district)] + values.map { $0.formatted() })
    }
    table.addMarkdown(["**\(MarkdownText.inline(L.total))**"] + totals.map { "**\($0.formatted())**" })
    md += table.render() + "\n"
    if folded {
      md += L.crossTableNote(shown, of: c.rowKeys.count, file: "csv/category_by_district.csv") + "\n\n"
    }
    return md
  }

  // MARK: - Changes

  /// `raon diff`'s body: the report's own changes section (``weekChanges``), so a
  /// comparison and a report say the same about the same two snapshots — with every
  /// program's id, which a reader of a comparison works with. D is the newer snapshot's day.
  func changesBody(_ diff: SnapshotDiff, day: CalendarDay, limit: Int, _ L: ReportLabels) -> String {
    let kinds = ChangeKinds.classify(diff, day: day)
    return weekChanges(diff, kinds, limit: limit, addedShownIn: nil, withIds: true, L)
  }

  /// `[title](portal) — 분류 · 자치구 · 2024. 9. 10. ~ 9. 20.`, with ``(`cult:1`)`` after it
  /// where the reader works with ids (`raon diff`).
  func programItem(_ p: Program, _ L: ReportLabels, withId: Bool = false) -> String {
    var details = [p.category, p.district].filter { !$0.isEmpty }.map(MarkdownText.inline)
    if p.startDate != nil || p.endDate != nil { details.append(Self.period(p, L.language)) }
    var text = MarkdownText.link(p.title, url: p.portalURL)
    if !details.isEmpty { text += " — " + details.joined(separator: " · ") }
    return withId ? text + " (`\(p.id)`)" : text
  }

  // MARK: - Quality

  func qualitySection(_ r: ReportData, _ L: ReportLabels) throws -> String {
    var md = ""
    let flags = r.tables.quality
    guard !flags.isEmpty else { return md + L.noQualityFlags + "\n\n" }
    var table = MarkdownTable([
      (L.flag, .left), (L.explanation, .left), (L.count, .right), (L.share, .right),
    ])
    for q in flags {
      table.add([
        L.flagName(q.key), L.flagExplanation(q.key), q.count.formatted(),
        Self.share(q.count, r.tables.total),
      ])
    }
    md += table.render() + "\n"

    // One pass over the programs collects the first few examples of every flag; a large
    // catalog is read from the store, so it stops as soon as every flag has its examples.
    var examples = QualityExamples(perFlag: qualityExamples, flags: Set(flags.map(\.key)))
    guard !examples.isComplete else { return md }
    try r.programs.scan { chunk in
      for p in chunk { examples.add(p) }
      return !examples.isComplete
    }
    guard !examples.byFlag.isEmpty else { return md }
    md += "### \(L.examples)\n\n"
    for q in flags {
      let list = examples[q.key]
      guard !list.isEmpty else { continue }
      let items = list.map { MarkdownText.link($0.title, url: $0.portalURL) + " (`\($0.id)`)" }
      md += "- \(MarkdownText.inline(L.flagName(q.key))): " + items.joined(separator: ", ") + "\n"
    }
    return md + "\n"
  }

  // MARK: - Numbers

  static func fraction(_ part: Int, _ whole: Int) -> Double {
    whole > 0 ? Double(part) / Double(whole) : 0
  }

  /// A share people read, `–` when there is nothing to share (0 of 0).
  static func share(_ part: Int, _ whole: Int) -> String {
    whole > 0 ? MarkdownText.percent(Double(part) / Double(whole)) : "–"
  }

  /// A chart's bars by the one top-N rule, without the summed rest: a bar of everything
  /// else would be the longest and read as one more group (it is named in a note instead).
  static func chartBars(_ rows: [BandCount], total: Int, unit: String, _ options: ExportOptions)
    -> (bars: [SVGBarChart.Bar], note: String)
  {
    let L = options.labels
    let chart = TopN.forChart(rows, keep: options.chartTopN, otherKey: L.other)
    var shown = chart.rows
    var note = ""
    if chart.folded, let rest = shown.popLast() {
      note = L.chartRestNote(groups: rows.count - shown.count, programs: rest.count, unit: unit) + "\n\n"
    }
    let bars = shown.map {
      SVGBarChart.Bar(label: $0.key, value: $0.count, valueText: countShare($0.count, total))
    }
    return (bars, note)
  }

  /// `1,234 (24.7%)` — the text after a chart's bar.
  static func countShare(_ count: Int, _ total: Int) -> String {
    "\(count.formatted()) (\(share(count, total)))"
  }

  static func median(_ value: Double?) -> String {
    value.flatMap { DecimalText.grouped($0, fractionDigits: 1) } ?? "—"
  }

  /// An old or new value in a change list: escaped, on one line, cut when very long.
  /// Amounts and day counts get thousands separators, like every number people read here.
  static func value(_ text: String, field: String, _ L: ReportLabels) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return L.emptyValue }
    if ["fee_min_krw", "fee_max_krw", "duration_days"].contains(field), let n = Int(trimmed) {
      return n.formatted()
    }
    return MarkdownText.inline(DisplayWidth.truncate(trimmed, to: 80))
  }
}
