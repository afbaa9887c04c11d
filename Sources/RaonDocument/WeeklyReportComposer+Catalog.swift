import RaonAnalytics
import RaonCore

/// The first round's statistics, which count ended programs too, and the data quality.
extension WeeklyReportComposer {
  // MARK: - The whole catalog

  /// A section per dimension (category, district, fee band, duration band) with its chart
  /// and complete table, then category × district.
  func wholeCatalog(_ charts: WeeklyCharts) -> [Block] {
    let t = r.tables
    var blocks: [Block] = [.paragraph([.text(L.wholeCatalogNote)])]
    blocks += groupSection(L.byCategory, L.category, t.byCategory, charts.byCategory)
    if r.district == nil { blocks += groupSection(L.byDistrict, L.district, t.byDistrict, charts.byDistrict) }
    blocks += bandSection(L.byFee, L.feeBand, t.byFee, L.feeBand(_:), charts.byFee)
    blocks += bandSection(L.byDuration, L.durationBand, t.byDuration, L.durationBand(_:), charts.byDuration)
    if r.district == nil { blocks += crossSection(t.categoryByDistrict) }
    for extra in r.extras { blocks += extraSection(extra) }
    return blocks
  }

  /// A table the catalog's report adds (``ReportExtra``: the national data's 요금정보 and
  /// 입장연령), in its bands' order, with its total.
  func extraSection(_ table: ExtraTable) -> [Block] {
    let extra = table.extra
    let total = table.rows.reduce(0) { $0 + $1.count }
    var t = Table([Table.Column(L.say(extra.header), .left), Table.Column(L.count, .right), Table.Column(L.share, .right)])
    for row in table.rows {
      t.add([.text(L.say(extra.name(of: row.key))), .number(row.count), .share(row.count, of: total)])
    }
    t.add([.strong(.text(L.total)), .strong(.number(total)), .strong(.share(total, of: total))])
    return [.heading([.text(L.say(extra.title))]), .table(t)]
  }

  /// The chart shows the largest groups; the table shows all.
  func groupSection(_ title: String, _ keyHeader: String, _ groups: [GroupStats], _ chart: Chart) -> [Block] {
    var blocks: [Block] = [.heading([.text(title)]), .chart(chart)]
    guard !groups.isEmpty else { return blocks + [.paragraph([.text(L.noData)])] }
    // 유무료 미상 only when some program's free flag is unknown (catalogs before 2024).
    let showUnknown = groups.contains { $0.unknown > 0 }
    var table = Table(
      [
        Table.Column(keyHeader, .left, keepsCellsWhole: true), Table.Column(L.count, .right),
        Table.Column(L.share, .right), Table.Column(L.free, .right), Table.Column(L.paid, .right), Table.Column(L.medianDurationDays, .right),
        Table.Column(L.medianFeeMinKrw, .right),
      ] + (showUnknown ? [Table.Column(L.freeUnknown, .right)] : []))
    for g in groups {
      table.add(
        [
          .text(L.named(g.key)), .number(g.count), .percent(g.share), .number(g.free), .number(g.paid),
          .decimal(g.medianDurationDays), .decimal(g.medianFeeMinKrw),
        ] + (showUnknown ? [.number(g.unknown)] : []))
    }
    blocks.append(.table(table))
    return blocks
  }

  func bandSection(
    _ title: String, _ keyHeader: String, _ bands: [BandCount], _ label: (String) -> String, _ chart: Chart
  ) -> [Block] {
    let blocks: [Block] = [.heading([.text(title)]), .chart(chart)]
    guard !bands.isEmpty else { return blocks + [.paragraph([.text(L.noData)])] }
    var table = Table([Table.Column(keyHeader, .left), Table.Column(L.count, .right), Table.Column(L.share, .right)])
    for b in bands {
      table.add([.text(label(b.key)), .number(b.count), .share(b.count, of: r.tables.total)])
    }
    return blocks + [.table(table)]
  }

  /// Districts down, the largest categories across: 26 rows × a handful of columns reads
  /// on a screen and on paper, where 26 district columns would not.
  func crossSection(_ c: CrossTable) -> [Block] {
    let heading = Block.heading([.text(L.categoryByDistrict)])
    guard !c.rowKeys.isEmpty, !c.columnKeys.isEmpty else { return [heading, .paragraph([.text(L.noData)])] }
    let shown = min(max(1, options.crossTableCategories), c.rowKeys.count)
    let folded = c.rowKeys.count > shown
    var columns = [Table.Column(L.district, .left)]
    columns += c.rowKeys.prefix(shown).map { Table.Column(L.named($0), .right) }
    if folded { columns.append(Table.Column(L.other, .right)) }
    columns.append(Table.Column(L.total, .right))
    var table = Table(columns)

    func cell(_ r: Int, _ col: Int) -> Int {
      r < c.counts.count && col < c.counts[r].count ? c.counts[r][col] : 0
    }
    var totals = Array(repeating: 0, count: columns.count - 1)
    for (col, district) in c.columnKeys.enumerated() {
      var values = (0..<shown).map { cell($0, col) }
      if folded { values.append((shown..<c.rowKeys.count).reduce(0) { $0 + cell($1, col) }) }
      values.append(values.reduce(0, +))
      for (i, v) in values.enumerated() { totals[i] += v }
      table.add([.text(L.named(district))] + values.map { .number($0) })
    }
    table.add([.strong(.text(L.total))] + totals.map { .strong(.number($0)) })
    var blocks: [Block] = [heading, .table(table)]
    if folded {
      blocks.append(
        .paragraph([.text(L.crossTableNote(shown, of: c.rowKeys.count))]))
    }
    return blocks
  }

  // MARK: - Quality

  /// The flags with their explanations, counts and shares, then the first programs of each
  /// (chosen in the figures' pass, as the workbook shows them).
  func quality() -> [Block] {
    let flags = r.tables.quality
    guard !flags.isEmpty else { return [.paragraph([.text(L.noQualityFlags)])] }
    var table = Table([
      Table.Column(L.flag, .left), Table.Column(L.explanation, .left), Table.Column(L.count, .right),
      Table.Column(L.share, .right),
    ])
    for q in flags {
      table.add([
        .text(L.flagName(q.key)), .text(L.flagExplanation(q.key)), .number(q.count),
        .share(q.count, of: r.tables.total),
      ])
    }
    var items: [ListItem] = []
    for q in flags {
      let examples = r.qualityExamples[q.key]
      guard !examples.isEmpty else { continue }
      var line: [Inline] = [.text(L.flagName(q.key)), .text(": ")]
      for (i, p) in examples.enumerated() {
        if i > 0 { line.append(.text(", ")) }
        // The id stays in the workbook and CSV: a printed page names the program, and where.
        line.append(.portalLink(p.title, url: p.portalURL))
        if !p.district.isEmpty && p.district != L.words.unknownRegion {
          line.append(.text(" (\(L.named(p.district)))"))
        }
      }
      items.append(ListItem(line))
    }
    guard !items.isEmpty else { return [.table(table)] }
    return [.table(table), .heading([.text(L.examples)]), .list(items)]
  }
}
