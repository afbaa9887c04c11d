import RaonAnalytics
import RaonCore

/// The attachments an official works from: this week's programs in full, what is on by
/// district and category, and what a reader needs to trace the figures.
extension WeeklyReportComposer {
  // MARK: - Lists

  /// This week's running programs in full: for the city one table per district (가나다
  /// order, 미상 last, as the workbook lists them), for a pack one table.
  func runningList() -> [Block] {
    let programs = r.lists.running
    guard !programs.isEmpty else { return [.paragraph([.text(L.noRunningThisWeek)])] }
    if r.district != nil {
      // A pack marks what starts and ends this week in its one list of what runs, so its
      // printed attachment 2 need not list them again.
      let marks = ProgramTable.WeekMarks(
        starting: Set(r.lists.starting.map(\.id)), ending: Set(r.lists.ending.map(\.id)))
      return [
        .paragraph([.text(L.countText(programs.count))]),
        .programs(ProgramTable(programs, showsDistrict: false, labels: L, weekMarks: marks)),
      ]
    }
    var blocks: [Block] = []
    for (district, list) in WeekLists.byDistrict(programs, unplaced: L.profile.regions.unknown) {
      blocks.append(.heading([.text(L.named(district)), .text(" (\(L.countText(list.count)))")]))
      blocks.append(programTable(list, showsDistrict: false))
    }
    return blocks
  }

  /// Starting (by start day) and ending (by end day) this week, in full.
  func startingAndEnding() -> [Block] {
    var blocks: [Block] = []
    for (title, programs) in [(L.startingThisWeek, r.lists.starting), (L.endingThisWeek, r.lists.ending)] {
      blocks.append(.heading([.text("\(title) (\(L.countText(programs.count)))")]))
      blocks.append(
        programs.isEmpty ? .paragraph([.text(L.noneThisWeek)]) : programTable(programs, showsDistrict: r.district == nil))
    }
    return blocks
  }

  /// Newly registered this week and added since the compared snapshot: one list when
  /// they hold the same programs (the usual case for a weekly history), else both.
  ///
  /// - Returns: The blocks, and whether they list the added programs (the changes then
  ///   name this attachment rather than list them again).
  func registeredAndAdded() -> (blocks: [Block], listsAdded: Bool) {
    let registered = r.lists.registered
    let showsDistrict = r.district == nil
    guard r.changes != nil else {
      let blocks: [Block] =
        registered.isEmpty
        ? [.paragraph([.text(L.noneThisWeek)])]
        : [.paragraph([.text(L.countText(registered.count))]), programTable(registered, showsDistrict: showsDistrict)]
      return (blocks, false)
    }
    let added = r.addedInReportOrder
    if added.isEmpty && registered.isEmpty { return ([.paragraph([.text(L.noneThisWeek)])], true) }
    if Set(added.map(\.id)) == Set(registered.map(\.id)) {
      var blocks: [Block] = [.paragraph([.text(L.countText(registered.count) + " — "), .text(L.registeredSameAsAdded)])]
      if !registered.isEmpty { blocks.append(programTable(registered, showsDistrict: showsDistrict)) }
      return (blocks, true)
    }
    var blocks: [Block] = []
    for (title, programs) in [(L.newlyRegistered, registered), (L.addedSinceLast, added)] {
      blocks.append(.heading([.text("\(title) (\(L.countText(programs.count)))")]))
      blocks.append(
        programs.isEmpty ? .paragraph([.text(L.noneThisWeek)]) : programTable(programs, showsDistrict: showsDistrict))
    }
    return (blocks, true)
  }

  func programTable(_ programs: [Program], showsDistrict: Bool) -> Block {
    .programs(ProgramTable(programs, showsDistrict: showsDistrict, labels: L))
  }

  // MARK: - Running and current

  /// What is on, by district and by category: one table each with the programs running
  /// this week and the current ones. Page 1 already shows the chart of the first table's
  /// dimension, so only the category chart of the city's report is drawn here.
  func weekSections(_ charts: WeeklyCharts) -> [Block] {
    let v = r.weekView
    var blocks: [Block] = []
    if r.district == nil {
      blocks += onNowSection(L.byDistrict, L.district, v.runningByDistrict, v.currentByDistrict, chart: nil)
    }
    blocks += onNowSection(
      L.byCategory, L.category, v.runningByCategory, v.currentByCategory,
      chart: r.district == nil && v.running > 0 ? charts.runningByCategory : nil)
    return blocks
  }

  /// A dimension's running and current counts side by side, ranked by running.
  func onNowSection(
    _ dimension: String, _ keyHeader: String, _ running: [BandCount], _ current: [BandCount], chart: Chart?
  ) -> [Block] {
    let v = r.weekView
    var blocks: [Block] = [.heading([.text("\(L.whatIsOn) — \(dimension)")])]
    if let chart { blocks.append(.chart(chart)) }
    // Every key that is current, ranked by running, then current, then key.
    let runningCount = Dictionary(running.map { ($0.key, $0.count) }, uniquingKeysWith: +)
    let rows = current.sorted {
      let (a, b) = (runningCount[$0.key] ?? 0, runningCount[$1.key] ?? 0)
      return a != b ? a > b : $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key
    }
    guard !rows.isEmpty else { return blocks + [.paragraph([.text(L.noData)])] }
    var table = Table([
      Table.Column(keyHeader, .left, keepsCellsWhole: true), Table.Column(L.runningThisWeek, .right),
      Table.Column(L.share, .right),
      Table.Column(L.currentPrograms, .right), Table.Column(L.share, .right),
    ])
    for row in rows {
      let n = runningCount[row.key] ?? 0
      table.add([
        .text(L.named(row.key)), .number(n), .share(n, of: v.running), .number(row.count), .share(row.count, of: v.current),
      ])
    }
    table.add([.strong(.text(L.total)), .strong(.number(v.running)), .empty, .strong(.number(v.current)), .empty])
    return blocks + [.table(table)]
  }

  // MARK: - About the data

  /// The snapshot, its source and time, the compared one, the ISO week and the definitions:
  /// what a reader needs to trace the figures, kept off page 1.
  func dataInformation() -> [Block] {
    let changes = ChangesComposer(labels: L)
    let compared: [Inline] = r.compareTo.map { changes.snapshotLine($0) } ?? [.text(L.noComparison)]
    return [
      .list([
        ListItem([.strong(L.thisCollection), .text(": ")] + changes.snapshotLine(r.snapshot)),
        ListItem([.strong(L.comparedCollection), .text(": ")] + compared),
        ListItem([
          .strong(L.reportWeek), .text(": "),
          .text(L.weekRange(r.week.description, start: r.week.start.description, end: r.week.end.description)),
        ]),
      ] + L.lineageItems(options.lineage)),
      .definitions(glossary()),
    ]
  }

  /// The definitions as one paragraph, each term in bold: ten short lines as a list take a
  /// third of a page, and in a small pack that third is a page of its own on paper.
  private func glossary() -> [Inline] {
    var inlines: [Inline] = [.strong(L.definitions), .text(" — ")]
    for (n, line) in L.definitionLines.enumerated() {
      if n > 0 { inlines.append(.text(" · ")) }
      if let colon = line.range(of: ": ") {
        inlines += [.strong(String(line[..<colon.lowerBound])), .text(String(line[colon.lowerBound...]))]
      } else {
        inlines.append(.text(line))
      }
    }
    return inlines
  }
}
