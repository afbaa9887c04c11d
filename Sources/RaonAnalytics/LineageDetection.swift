import RaonCore

/// Finds, in two snapshots of the national data, the renames and mergers of regions that
/// the lineage (the shipped table and `raon.toml`) does not know yet (pure;
/// docs/NATIONAL.md, "Lineage found in the data").
///
/// A provider of the older snapshot has **vanished** when no row of the newer one resolves
/// to it (by its key lineage, so a merger the lineage knows is no vanishing). Its events are
/// looked for by what identifies an event apart from its provider (title and place folded,
/// start day: ``NationalKey/event(title:start:place:)``) among the newer snapshot's events
/// that are new to their provider (one that appeared, or one that was there and did not
/// list the event before). It **continues** the provider holding most of them when
/// - at least ``minimumMatched`` of its events are found there, and
/// - they are at least ``minimumShare`` of its events the newer snapshot should hold
///   (those not ended before its day, and any found).
///
/// Chance is far below that: in the real download (7,352 events of 222 providers) no event
/// is listed by two providers, and title and start day alone coincide for one pair of
/// providers (a touring show has other places and days; a show two bodies list together
/// stays with the body that listed it before). Providers of one or two events are never
/// matched one by one (a 시·도 renamed still takes them along).
///
/// What is found, each applied to the lineage as its `raon.toml` line would be
/// (``RegionLineage/renaming(_:to:since:)``, ``RegionLineage/merging(_:into:on:)``),
/// from the newer snapshot's day:
/// - a **시·도 renamed**: two or more vanished providers of one 시·도 (or its own office)
///   continue as providers named under one word the lineage does not know and that reads
///   as a 시·도 (ending in 도, 특별시, 광역시 or 특별자치시); then the search runs again, the
///   시·도 renamed, for what is left;
/// - a **provider renamed** (or a 시·군·구 moved): one vanished provider continues as one
///   that appeared;
/// - a **merger**: several continue as one, or one continues as a provider that was there.
///
/// A pair the lineage's ``RegionLineage/Detection`` refuses is never taken.
public enum LineageDetection {
  /// Events a vanished provider must have found under another.
  public static let minimumMatched = 3
  /// The share of its expected events they must be.
  public static let minimumShare = 0.5
  /// Searches after a 시·도 renamed (each one renames at least one 시·도 or stops).
  static let rounds = 4

  /// 제공기관명 and 제공기관코드 as rows give them.
  struct Spelling: Hashable {
    var name: String
    var code: String
    init(_ record: RawRecord) {
      name = record[.provider] ?? ""
      code = record[.providerCode] ?? ""
    }
  }

  /// A row as the search reads it: its event apart from the provider, and whether it is
  /// still on (not ended before the newer snapshot's day).
  struct Event {
    var key: String
    var current: Bool

    init(_ record: RawRecord, on day: CalendarDay) {
      let startText = record[.startDate] ?? ""
      key = NationalKey.event(
        title: record[.title] ?? "", start: NationalKey.start(CatalogDateParser.day(from: startText), text: startText),
        place: record[.place] ?? "")
      current = CatalogDateParser.day(from: record[.endDate] ?? "").map { $0 >= day } ?? true
    }
  }

  /// A vanished provider and the one it continues as.
  struct Pair {
    var vanished: String
    var continues: String
    var matched: Int
    var expected: Int
  }

  /// The findings, and the lineage with them applied (`lineage` itself when none).
  ///
  /// - Parameters:
  ///   - old: The older snapshot's rows.
  ///   - new: The newer snapshot's rows.
  ///   - lineage: The lineage in force (the shipped table and `raon.toml`'s).
  ///   - day: The newer snapshot's day.
  public static func detect(old: [RawRecord], new: [RawRecord], lineage base: RegionLineage, on day: CalendarDay)
    -> (findings: [LineageFinding], lineage: RegionLineage)
  {
    guard base.detection.enabled, !old.isEmpty, !new.isEmpty else { return ([], base) }
    let oldSpellings = old.map(Spelling.init)
    let newSpellings = new.map(Spelling.init)
    let oldDistinct = Set(oldSpellings)
    let newDistinct = Set(newSpellings)
    var lineage = base
    var findings: [LineageFinding] = []
    // Read only once a provider has vanished (most weeks none has).
    var events: (old: [Event], new: [Event])?
    for _ in 0..<rounds {
      let oldIDs = resolved(oldDistinct, lineage)
      let newIDs = resolved(newDistinct, lineage)
      guard !Set(oldIDs.values).subtracting(newIDs.values).isEmpty else { break }
      let read = events ?? (old.map { Event($0, on: day) }, new.map { Event($0, on: day) })
      events = read
      let oldSide = Side(spellings: oldSpellings, events: read.old, ids: oldIDs)
      let newSide = Side(spellings: newSpellings, events: read.new, ids: newIDs)
      let pairs = continuing(oldSide, newSide, lineage: lineage, on: day)
      guard !pairs.isEmpty else { break }
      let provinces = renamedProvinces(pairs, old: oldSide, new: newSide, lineage: lineage, on: day)
      if !provinces.isEmpty {
        for finding in provinces {
          guard let renamed = try? lineage.renaming(finding.old[0], to: finding.new, since: day) else { continue }
          lineage = renamed
          findings.append(finding)
        }
        continue
      }
      let (found, applied) = providers(pairs, old: oldSide, new: newSide, lineage: lineage, on: day)
      findings += found
      lineage = applied
      break
    }
    return (findings, lineage)
  }

  /// Each spelling's provider by key lineage.
  static func resolved(_ spellings: Set<Spelling>, _ lineage: RegionLineage) -> [Spelling: String] {
    var ids: [Spelling: String] = [:]
    for s in spellings { ids[s] = lineage.keyLineage(of: lineage.provider(name: s.name, code: s.code).id) }
    return ids
  }

  /// One snapshot's events by provider, and each provider's name as most of its rows write it.
  struct Side {
    var all: [String: Set<String>] = [:]
    var current: [String: Set<String>] = [:]
    var names: [String: String] = [:]

    init(spellings: [Spelling], events: [Event], ids: [Spelling: String]) {
      var counts: [String: [String: Int]] = [:]
      for (spelling, event) in zip(spellings, events) {
        guard let id = ids[spelling] else { continue }
        all[id, default: []].insert(event.key)
        if event.current { current[id, default: []].insert(event.key) }
        counts[id, default: [:]][spelling.name, default: 0] += 1
      }
      for (id, byName) in counts {
        names[id] = byName.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
      }
    }
  }

  /// Every vanished provider with the provider it continues as, by id.
  static func continuing(_ old: Side, _ new: Side, lineage: RegionLineage, on day: CalendarDay) -> [Pair] {
    // Each event of the newer snapshot that is new to its provider → those providers.
    var fresh: [String: [String]] = [:]
    for (id, keys) in new.all {
      let before = old.all[id] ?? []
      for key in keys where !before.contains(key) { fresh[key, default: []].append(id) }
    }
    var pairs: [Pair] = []
    for vanished in old.all.keys.filter({ new.all[$0] == nil }).sorted() {
      var found: [String: Set<String>] = [:]
      for key in old.all[vanished] ?? [] {
        for id in fresh[key] ?? [] { found[id, default: []].insert(key) }
      }
      guard
        let best = found.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }),
        best.value.count >= minimumMatched
      else { continue }
      let expected = (old.current[vanished] ?? []).union(best.value).count
      guard Double(best.value.count) >= minimumShare * Double(expected) else { continue }
      let (was, now) = (old.names[vanished] ?? "", new.names[best.key] ?? "")
      guard !was.isEmpty, !now.isEmpty, !refused(vanished, was, now, lineage, on: day) else { continue }
      pairs.append(Pair(vanished: vanished, continues: best.key, matched: best.value.count, expected: expected))
    }
    return pairs
  }

  /// Whether the lineage refuses `was` → `now`, or the 시·도 renamed it would be part of (a
  /// refused 시·도 rename is not found again provider by provider).
  static func refused(_ vanished: String, _ was: String, _ now: String, _ lineage: RegionLineage, on day: CalendarDay)
    -> Bool
  {
    if lineage.detection.refuses(was, now) { return true }
    guard
      let word = firstWord(now), lineage.province(spelledAs: word) == nil,
      let province = lineage.province(ofProvider: vanished, on: day)
    else { return false }
    return lineage.detection.refuses(lineage.provinceName(province, on: day), word)
  }

  /// The 시·도 renamed: a new first word that reads as a 시·도 and that the vanished
  /// providers of one 시·도 continue under.
  static func renamedProvinces(
    _ pairs: [Pair], old: Side, new: Side, lineage: RegionLineage, on day: CalendarDay
  ) -> [LineageFinding] {
    var byWord: [String: [(province: String, pair: Pair)]] = [:]
    for pair in pairs where pair.continues.hasPrefix("@") {
      guard
        let word = new.names[pair.continues].flatMap(firstWord),
        lineage.province(spelledAs: word) == nil, readsAsProvince(word),
        let province = lineage.province(ofProvider: pair.vanished, on: day)
      else { continue }
      byWord[word, default: []].append((province, pair))
    }
    let order = lineage.provinceIDs
    var taken: Set<String> = []
    var findings: [LineageFinding] = []
    for word in byWord.keys.sorted() {
      let entries = byWord[word] ?? []
      var counts: [String: Int] = [:]
      for e in entries { counts[e.province, default: 0] += 1 }
      let rank = { (id: String) in order.firstIndex(of: id) ?? order.count }
      guard
        let province = counts.max(by: { ($0.value, rank($1.key)) < ($1.value, rank($0.key)) })?.key,
        !taken.contains(province)
      else { continue }
      let mine = entries.filter { $0.province == province }.map(\.pair)
      guard mine.count >= 2 || mine.contains(where: { $0.vanished == province }) else { continue }
      let name = lineage.provinceName(province, on: day)
      guard !lineage.detection.refuses(name, word) else { continue }
      taken.insert(province)
      // Said over every vanished provider of the 시·도 (the rename takes them all along,
      // those of one or two events too): its events found under the new word's providers.
      var under: Set<String> = []
      for (id, name) in new.names where firstWord(name) == word { under.formUnion(new.all[id] ?? []) }
      let movers = old.all.keys.filter { new.all[$0] == nil && lineage.province(ofProvider: $0, on: day) == province }
      var (matched, expected) = (0, 0)
      for id in movers {
        let found = (old.all[id] ?? []).intersection(under)
        matched += found.count
        expected += (old.current[id] ?? []).union(found).count
      }
      findings.append(
        LineageFinding(
          kind: .provinceRenamed, old: [name], new: word, day: day, matched: matched, expected: expected,
          providers: movers.count))
    }
    return findings
  }

  /// The first words of the providers' names in `records` that read as a 시·도 and that
  /// `lineage` does not know.
  public static func unknownProvinces(_ records: [RawRecord], lineage: RegionLineage) -> Set<String> {
    var words: Set<String> = []
    for name in Set(records.map { $0[.provider] ?? "" }) {
      guard let word = firstWord(name), readsAsProvince(word), lineage.province(spelledAs: word) == nil,
        lineage.provider(name: name, code: "").id.hasPrefix("@")
      else { continue }
      words.insert(word)
    }
    return words
  }

  static func firstWord(_ name: String) -> String? {
    name.split(whereSeparator: { $0.isWhitespace }).first.map(String.init)
  }

  /// Whether a word reads as a 시·도's full name (`충북특별자치도`, `대구경북특별시`).
  static func readsAsProvince(_ word: String) -> Bool {
    word.count >= 3 && ["특별자치시", "특별시", "광역시", "도"].contains { word.hasSuffix($0) }
  }

  /// The renames (one provider continuing as one that appeared) and mergers (several as
  /// one, or one as a provider that was there), renames first as `raon.toml` applies them.
  static func providers(_ pairs: [Pair], old: Side, new: Side, lineage base: RegionLineage, on day: CalendarDay)
    -> (findings: [LineageFinding], lineage: RegionLineage)
  {
    var lineage = base
    var renames: [LineageFinding] = []
    var merges: [LineageFinding] = []
    for continues in Set(pairs.map(\.continues)).sorted() {
      let mine = pairs.filter { $0.continues == continues }
      let finding = LineageFinding(
        kind: mine.count == 1 && old.all[continues] == nil ? .renamed : .merged,
        old: mine.map { old.names[$0.vanished] ?? $0.vanished }, new: new.names[continues] ?? continues, day: day,
        matched: mine.reduce(0) { $0 + $1.matched }, expected: mine.reduce(0) { $0 + $1.expected },
        providers: mine.count)
      if finding.kind == .renamed { renames.append(finding) } else { merges.append(finding) }
    }
    var findings: [LineageFinding] = []
    for finding in renames {
      guard let renamed = try? lineage.renaming(finding.old[0], to: finding.new, since: day) else { continue }
      lineage = renamed
      findings.append(finding)
    }
    for finding in merges {
      var merged = lineage
      do {
        for old in finding.old { merged = try merged.merging(old, into: finding.new, on: day) }
      } catch {
        continue
      }
      lineage = merged
      findings.append(finding)
    }
    return (findings, lineage)
  }
}
