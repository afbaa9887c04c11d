/// Turns a download of the national data into programs: each row is a session, rows with
/// the same natural key (``NationalKey``) are one event, and every row gets its event's
/// program (so the store keeps every row's raw record beside the event it belongs to).
///
/// Pure and total: no row is dropped, what could not be read is left empty and named in the
/// quality flags. How sessions fold into one program (docs/NATIONAL.md, "Sessions"):
/// - sessions are ordered by start time, end day, end time, then their raw values, so the
///   order of rows in the file never matters;
/// - title, place, coordinates, 시·도 and provider: the first session's (the first with
///   coordinates for these);
/// - start day: the key's; end day: the latest; 데이터기준일자 (`registeredOn`): the latest;
/// - times (`eventTime`): each session's `start~end`, distinct, in order, joined by `, `;
/// - 요금정보: the one kind all sessions share, else 혼합 (`theme`; `isFree` from it);
///   fees: the lowest and highest amount any session quotes (0 when the event is free);
/// - the other texts (주관기관명, 입장연령, 관람요금, 전화번호): each distinct value, in session
///   order, joined by ` / `; 홈페이지주소: the first given;
/// - quality flags: every session's, and `duplicate_row` when two rows are identical.
public enum NationalNormalizer {
  /// One row read on its own.
  struct Session {
    var id: String
    var province: String
    var providerID: String
    var title: String
    var place: String
    var start: CalendarDay?
    var end: CalendarDay?
    var startTime: String
    var endTime: String
    var kind: NationalFee.Kind
    var feeText: String
    var fees: FeeRange?
    var organizer: String
    var audience: String
    var inquiry: String
    var orgLink: String
    var latitude: Double?
    var longitude: Double?
    var reference: CalendarDay?
    var flags: QualityFlags
    /// The row's values, for ordering ties and telling identical rows.
    var raw: [String?]

    /// Minutes since midnight of a `HH:MM` start time (`Int.max` when unreadable).
    var startMinutes: Int { Self.minutes(startTime) }

    static func minutes(_ text: String) -> Int {
      let parts = text.split(separator: ":")
      guard parts.count >= 2, let h = Int(parts[0].suffix(2)), let m = Int(parts[1].prefix(2)) else {
        return Int.max
      }
      return h * 60 + m
    }

    var time: String {
      switch (startTime.isEmpty, endTime.isEmpty) {
      case (true, true): return ""
      case (false, true): return startTime
      default: return startTime + "~" + endTime
      }
    }
  }

  /// Each record's program: the event it is a session of.
  ///
  /// - Parameters:
  ///   - records: A download's rows, in any order.
  ///   - profile: The catalog (its lineage and coordinate bounds).
  ///   - work: How the rows are read and the events folded (each item is pure): in order
  ///     on this thread by default; the workflow spreads them over the cores.
  /// - Returns: One program per record, in the records' order.
  public static func normalize(
    _ records: [RawRecord], profile: CatalogProfile = .national, work: some IndexedWork = InOrder()
  ) -> [Program] {
    let reader = RowReader(records, profile: profile)
    let sessions = work.map(records.count) { reader.session(records[$0]) }
    var groups: [String: [Int]] = [:]
    var order: [String] = []
    for (i, s) in sessions.enumerated() {
      if groups[s.id] == nil { order.append(s.id) }
      groups[s.id, default: []].append(i)
    }
    let events = work.map(order.count) { n in fold((groups[order[n]] ?? []).map { sessions[$0] }) }
    var programs = [Program?](repeating: nil, count: records.count)
    for (n, id) in order.enumerated() {
      for i in groups[id] ?? [] { programs[i] = events[n] }
    }
    return programs.map { $0 ?? Program(id: "") }
  }

  /// What reading a row needs: the lineage, the bounds, and each provider the rows name
  /// resolved once (a download names some 220 providers in thousands of rows, and resolving
  /// one folds its name and walks the lineage).
  struct RowReader {
    let lineage: RegionLineage
    let bounds: CoordinateBounds
    /// By 제공기관명 and 제공기관코드 as the rows give them: the provider and its key lineage.
    let providers: [ProviderSpelling: (provider: RegionLineage.Provider, keyLineage: String)]

    struct ProviderSpelling: Hashable {
      var name: String
      var code: String
      init(_ record: RawRecord) {
        name = record[.provider] ?? ""
        code = record[.providerCode] ?? ""
      }
    }

    init(_ records: [RawRecord], profile: CatalogProfile) {
      let lineage = profile.regions.lineage ?? .shipped
      var providers: [ProviderSpelling: (provider: RegionLineage.Provider, keyLineage: String)] = [:]
      for record in records {
        let spelling = ProviderSpelling(record)
        guard providers[spelling] == nil else { continue }
        let provider = lineage.provider(name: spelling.name, code: spelling.code)
        providers[spelling] = (provider, lineage.keyLineage(of: provider.id))
      }
      self.lineage = lineage
      self.bounds = profile.coordinates
      self.providers = providers
    }

    func session(_ record: RawRecord) -> Session {
      let spelling = ProviderSpelling(record)
      let resolved = providers[spelling] ?? {
        let provider = lineage.provider(name: spelling.name, code: spelling.code)
        return (provider, lineage.keyLineage(of: provider.id))
      }()
      return NationalNormalizer.session(record, provider: resolved, lineage: lineage, bounds: bounds)
    }
  }

  /// Reads one row, its provider already resolved.
  static func session(
    _ record: RawRecord, provider resolved: (provider: RegionLineage.Provider, keyLineage: String),
    lineage: RegionLineage, bounds: CoordinateBounds
  ) -> Session {
    let names = record.names
    let values = record.values
    var flags: QualityFlags = record.invalidBytesReplaced ? .invalidBytesReplaced : []
    func raw(_ field: CanonicalField) -> String {
      guard let i = names.index(of: field), let value = values[i] else { return "" }
      return value
    }
    func text(_ field: CanonicalField) -> String {
      let trimmed = CatalogText.trimmed(raw(field))
      guard let clean = SafeText.cleaned(trimmed) else { return trimmed }
      flags.insert(.invalidCharactersReplaced)
      return clean
    }

    let provider = resolved.provider
    var province = provider.province
    if province == nil {
      province = lineage.province(ofAddress: raw(.roadAddress)) ?? lineage.province(ofAddress: raw(.lotAddress))
    }
    if province == nil { flags.insert(.regionUnknown) }

    let title = text(.title)
    let place = text(.place)
    let startText = raw(.startDate)
    let start = CatalogDateParser.day(from: startText)
    var end = CatalogDateParser.day(from: raw(.endDate))
    if let start, let end {
      if end < start { flags.insert(.endBeforeStart) }
    } else {
      flags.insert(.datesMissing)
    }
    if ImplausibleEnd.isImplausible(start: start, end: end) {
      end = nil
      flags.insert(.endDateImplausible)
    }

    let kind = NationalFee.Kind(raw(.feeKind))
    let feeText = text(.feeText)
    let fees = NationalFee.range(in: feeText)
    switch kind {
    case .free where (fees?.max ?? 0) > 0:
      flags.insert(.freeButPriced)
    case .paid where (fees?.max ?? 0) == 0 && (fees != nil || FeeParser.saysFree(feeText)):
      // Paid, yet 관람요금 quotes no amount above zero and says 무료 or 0 (`3000원(어린이 무료)`
      // is paid with a free group, no contradiction).
      flags.insert(.paidButFree)
    default:
      break
    }
    if kind != .free, FeeParser.statesNoAmount(feeText, amounts: fees) { flags.insert(.feeWithoutAmount) }

    let coordinates = CoordinateResolver.resolve(raw(.coordinateA), raw(.coordinateB), within: bounds)
    flags.formUnion(coordinates.flags)

    let id = NationalKey.id(
      lineage: resolved.keyLineage, title: raw(.title),
      start: NationalKey.start(start, text: startText), place: raw(.place))
    return Session(
      id: id, province: province ?? RegionLineage.otherBodies, providerID: provider.id,
      title: title, place: place, start: start, end: end, startTime: text(.startTime),
      endTime: text(.endTime), kind: kind, feeText: feeText, fees: fees,
      organizer: text(.organizer), audience: text(.audience), inquiry: text(.inquiry),
      orgLink: text(.orgLink), latitude: coordinates.latitude, longitude: coordinates.longitude,
      reference: CatalogDateParser.day(from: raw(.referenceDate)), flags: flags, raw: values)
  }

  /// The event of some sessions (the rows of one key).
  static func fold(_ unordered: [Session]) -> Program {
    let sessions = unordered.sorted(by: precedes)
    guard let first = sessions.first else { return Program(id: "") }
    func joined(_ path: KeyPath<Session, String>, separator: String = " / ") -> String {
      var seen: [String] = []
      for s in sessions where !s[keyPath: path].isEmpty && !seen.contains(s[keyPath: path]) {
        seen.append(s[keyPath: path])
      }
      return seen.joined(separator: separator)
    }
    var flags = sessions.reduce(into: QualityFlags()) { $0.formUnion($1.flags) }
    // The missing-coordinates flag is the event's only when no session has coordinates.
    let located = sessions.first { $0.latitude != nil && $0.longitude != nil }
    if located != nil { flags.remove(.coordsMissing) }
    // One row cannot repeat itself, and most events are one: hashing a row hashes every
    // value Unicode-normalised (35 ms of the 270 ms parse of a year-apart pair, profiled).
    if sessions.count > 1 {
      var rows = Set<[String?]>()
      for s in sessions where !rows.insert(s.raw).inserted { flags.insert(.duplicateRow) }
    }

    let kinds = Set(sessions.map(\.kind))
    let kind = kinds.count == 1 ? first.kind : (kinds == [.unknown] ? .unknown : .mixed)
    let isFree = kind.isFree
    var feeMin: Int?
    var feeMax: Int?
    if isFree == true {
      feeMin = 0
      feeMax = 0
    } else {
      let ranges = sessions.compactMap(\.fees)
      feeMin = ranges.map(\.min).min()
      feeMax = ranges.map(\.max).max()
    }
    let end = sessions.compactMap(\.end).max()
    let reference = sessions.compactMap(\.reference).max()
    return Program(
      id: first.id, title: first.title, category: first.providerID, district: first.province,
      place: first.place, organizer: joined(\.organizer), audience: joined(\.audience),
      feeText: joined(\.feeText), isFree: isFree, feeMinKRW: feeMin, feeMaxKRW: feeMax,
      startDate: first.start, endDate: end, theme: kind.rawValue,
      latitude: (located ?? first).latitude, longitude: (located ?? first).longitude,
      orgLink: sessions.first { !$0.orgLink.isEmpty }?.orgLink ?? "", registeredOn: reference,
      qualityFlags: flags, inquiry: joined(\.inquiry), eventTime: joined(\.time, separator: ", "))
  }

  /// Session order: start time, end day, end time, then the raw values.
  static func precedes(_ a: Session, _ b: Session) -> Bool {
    if a.startMinutes != b.startMinutes { return a.startMinutes < b.startMinutes }
    if a.end != b.end { return (a.end?.dayNumber ?? Int.max) < (b.end?.dayNumber ?? Int.max) }
    let ae = Session.minutes(a.endTime), be = Session.minutes(b.endTime)
    if ae != be { return ae < be }
    let ar = a.raw.map { $0 ?? "\u{0}" }, br = b.raw.map { $0 ?? "\u{0}" }
    return ar.lexicographicallyPrecedes(br) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }
}
