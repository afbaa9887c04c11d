import RaonAnalytics
import RaonCore

/// The weekly report of the national data (전국공연행사정보표준데이터): Seoul's report
/// composed from the events' figures (시·도 where Seoul has 자치구, 제공기관 where it has 분류,
/// each event once whatever its sessions), then said in the national data's words
/// (``NationalWords``) and given the national data's own tables — 요금정보 (유료/무료/혼합)
/// and 입장연령 bands — in the attachment of the whole catalog's statistics.
///
/// Page 1 keeps Seoul's document rules (official dates, 붙임, sentences from the figures):
/// only words change. Titles, places and other values of the data are never rewritten:
/// lists of events (and of changes) are left as composed.
enum NationalReportComposer {
  static func adapt(_ report: WeeklyReport) -> WeeklyReport {
    var report = report
    let language = report.options.language
    let L = report.options.labels
    func say(_ text: String) -> String { NationalWords.adapt(text, language) }

    var page = report.pageOne
    page.title = say(page.title)
    page.sentences = page.sentences.map(say)
    page.chartHeading = say(page.chartHeading)
    page.chartSentence = page.chartSentence.map(say)
    page.attachments = page.attachments.map(say)
    page.source = say(page.source)
    page.headline.columns = page.headline.columns.map { Table.Column(say($0.header), $0.alignment) }
    page.chart = page.chart.map { adapt($0, language) }
    report.pageOne = page

    var document = report.document
    document.title = say(document.title)
    document.printTitle = say(document.printTitle)
    document.closing = L.attribution
    document.front = page.blocks
    document.charts = document.charts.map { adapt($0, language) }
    document.sections = document.sections.map { section in
      var section = section
      section.title = say(section.title)
      section.printNote = section.printNote.map(say)
      section.blocks = section.blocks.map { adapt($0, language) }
      return section
    }
    if let tables = report.figures.national,
      let i = document.sections.firstIndex(where: { $0.title.hasSuffix(L.wholeCatalogTitle) })
    {
      document.sections[i].blocks += blocks(tables, L)
    }
    report.document = document
    return report
  }

  /// 요금정보 and 입장연령, in events.
  static func blocks(_ tables: NationalAnalysis.Tables, _ L: ReportLabels) -> [Block] {
    func table(_ title: String, _ rows: [BandCount], _ name: (String, ReportLabels) -> String) -> [Block] {
      let total = rows.reduce(0) { $0 + $1.count }
      var t = Table([Table.Column(title, .left), Table.Column(L.count, .right), Table.Column(L.share, .right)])
      for row in rows {
        t.add([.text(name(row.key, L)), .number(row.count), .share(row.count, of: total)])
      }
      t.add([.strong(.text(L.total)), .strong(.number(total)), .strong(.share(total, of: total))])
      return [.heading([.text(L.say("요금정보별", "By fee kind"))]), .table(t)]
    }
    let fee = table(L.say("요금정보", "Fee kind"), tables.byFeeKind, NationalWords.feeKindName)
    var age = table(L.say("입장연령", "Admission age"), tables.byAge, NationalWords.ageName)
    age[0] = .heading([.text(L.say("입장연령별", "By admission age"))])
    return fee + age
  }

  static func adapt(_ block: Block, _ language: ReportLanguage) -> Block {
    func say(_ text: String) -> String { NationalWords.adapt(text, language) }
    func inline(_ i: Inline) -> Inline {
      switch i {
      case .text(let s): return .text(say(s))
      case .strong(let s): return .strong(say(s))
      case .code, .link: return i
      }
    }
    switch block {
    case .heading(let inlines): return .heading(inlines.map(inline))
    case .paragraph(let inlines): return .paragraph(inlines.map(inline))
    case .table(var table):
      table.columns = table.columns.map { Table.Column(say($0.header), $0.alignment) }
      return .table(table)
    case .programs(var list):
      list.catalog = .national
      return .programs(list)
    case .chart(let chart): return .chart(adapt(chart, language))
    case .list: return block
    }
  }

  static func adapt(_ chart: Chart, _ language: ReportLanguage) -> Chart {
    var chart = chart
    // Named for what it charts (시·도, 제공기관), in every format that writes it as a file.
    chart.file = NationalWords.fileName(chart.file)
    chart.title = NationalWords.adapt(chart.title, language)
    chart.alt = NationalWords.adapt(chart.alt, language)
    chart.emptyText = NationalWords.adapt(chart.emptyText, language)
    return chart
  }
}
