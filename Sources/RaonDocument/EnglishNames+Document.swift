import RaonAnalytics

/// An English document with the names of ``EnglishNames``: what the composers wrote
/// (sentences, headings, tables' name cells, charts) is renamed; programs' titles, places
/// and fees are not (a program list translates its own district and category columns).
extension WeeklyReport {
  /// The report itself when it is Korean; else with English names.
  func withEnglishNames() -> WeeklyReport {
    guard options.language == .en else { return self }
    var out = self
    out.pageOne = pageOne.withEnglishNames()
    out.document = document.withEnglishNames()
    // Page 1's blocks are the document's front, renamed the same way.
    out.document.front = out.pageOne.blocks
    var c = charts
    for path in [\WeeklyCharts.byCategory, \.byDistrict, \.byFee, \.byDuration, \.runningByDistrict,
                 \.runningByCategory, \.currentByDistrict, \.currentByCategory, \.trend] {
      c[keyPath: path] = c[keyPath: path].withEnglishNames()
    }
    out.charts = c
    return out
  }
}

extension ComparisonReport {
  func withEnglishNames() -> ComparisonReport {
    guard document.language == .en else { return self }
    var out = self
    out.document = document.withEnglishNames()
    return out
  }
}

extension PageOne {
  func withEnglishNames() -> PageOne {
    var out = self
    out.title = EnglishNames.sentence(title)
    out.sentences = sentences.map(EnglishNames.sentence)
    out.chartSentence = chartSentence.map(EnglishNames.sentence)
    out.chart = chart?.withEnglishNames()
    return out
  }
}

extension Document {
  func withEnglishNames() -> Document {
    var out = self
    out.title = EnglishNames.sentence(title)
    out.printTitle = EnglishNames.sentence(printTitle)
    out.front = front.map { $0.withEnglishNames() }
    out.sections = sections.map { section in
      var s = section
      s.title = EnglishNames.sentence(section.title)
      s.blocks = section.blocks.map { $0.withEnglishNames() }
      return s
    }
    out.charts = charts.map { $0.withEnglishNames() }
    return out
  }
}

extension Block {
  func withEnglishNames() -> Block {
    switch self {
    case .heading(let text): return .heading(text.map { $0.renamed(inSentence: true) })
    case .paragraph(let text): return .paragraph(text.map { $0.renamed(inSentence: true) })
    // A list's items hold programs' titles among the document's words: only a whole name
    // (a district changed from one to another) is renamed.
    case .list(let items):
      return .list(
        items.map { item in
          ListItem(
            item.content.map { $0.renamed(inSentence: false) },
            children: item.children.map { $0.map { $0.renamed(inSentence: false) } })
        })
    case .table(var table):
      table.columns = table.columns.map { column in
        var c = column
        c.header = EnglishNames.name(column.header)
        return c
      }
      let rows = table.rows
      var renamed = Table(table.columns)
      for row in rows { renamed.add(row.map { $0.withEnglishNames() }) }
      return .table(renamed)
    case .programs: return self
    case .chart(let chart): return .chart(chart.withEnglishNames())
    }
  }
}

extension Inline {
  /// Sentences the document wrote are renamed throughout; elsewhere only a whole name.
  func renamed(inSentence: Bool) -> Inline {
    func rename(_ s: String) -> String { inSentence ? EnglishNames.sentence(s) : EnglishNames.name(s) }
    switch self {
    case .text(let s): return .text(rename(s))
    case .strong(let s): return .strong(rename(s))
    case .code, .link: return self
    }
  }
}

extension Cell {
  func withEnglishNames() -> Cell {
    switch self {
    case .text(let s): return .text(EnglishNames.name(s))
    case .strong(let inner): return .strong(inner.withEnglishNames())
    default: return self
    }
  }
}

extension Chart {
  func withEnglishNames() -> Chart {
    guard case .bars(var bars) = content else { return self }
    bars.rows = bars.rows.map { row in
      var r = row
      r.key = EnglishNames.name(row.key)
      return r
    }
    bars.bars = bars.bars.map { Chart.Bar(label: EnglishNames.name($0.label), value: $0.value, valueText: $0.valueText) }
    bars.note = bars.note.map(EnglishNames.sentence)
    var out = self
    out.content = .bars(bars)
    return out
  }
}
