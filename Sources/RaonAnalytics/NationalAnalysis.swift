import RaonCore

/// The national data as a report on one day sees it (pure): one program per event, regions
/// named as they were named that day, and the quality flag that depends on the day.
///
/// The store keeps every row of an event with the event's program (so a snapshot's
/// programs repeat an event once per session); the analysis counts events.
public enum NationalAnalysis {
  /// Each event once (the first of each id), its 시·도 (`district`) and provider
  /// (`category`) named as on `day` (``RegionLineage/provinceName(_:on:)``,
  /// ``RegionLineage/providerName(_:on:)``), and `reference_date_stale` set when its
  /// 데이터기준일자 is more than a year (365 days) before `day`.
  ///
  /// - Parameters:
  ///   - programs: A snapshot's programs, as the store gives them (an event's rows together).
  ///   - profile: The national profile (its lineage).
  ///   - day: The report's day (D: the snapshot's day in Korea).
  /// - Returns: The events, in the order of their first row.
  public static func events(_ programs: [Program], profile: CatalogProfile, on day: CalendarDay) -> [Program] {
    var names = Naming(profile: profile, on: day)
    var seen: Set<String> = []
    var events: [Program] = []
    events.reserveCapacity(programs.count)
    for program in programs where seen.insert(program.id).inserted {
      var event = names.named(program)
      if let reference = program.registeredOn, day - reference > 365 {
        event.qualityFlags.insert(.referenceDateStale)
      }
      events.append(event)
    }
    return events
  }

  /// Names events as on one day, each provider's names worked out once: a snapshot names
  /// some 220 providers in thousands of events (a comparison a year apart, 8,500 changes).
  struct Naming {
    let lineage: RegionLineage
    let day: CalendarDay
    private var names: [Regions: Regions] = [:]

    init(profile: CatalogProfile, on day: CalendarDay) {
      lineage = profile.regions.lineage ?? .shipped
      self.day = day
    }

    mutating func named(_ program: Program) -> Program {
      let stored = Regions(province: program.district, provider: program.category)
      let named = names[stored] ?? {
        let named = NationalAnalysis.named(stored, lineage, on: day)
        names[stored] = named
        return named
      }()
      var event = program
      event.district = named.province
      event.category = named.provider
      return event
    }
  }

  /// An event's 시·도 (`district`) and provider (`category`): lineage ids in the store,
  /// names in a report.
  struct Regions: Hashable {
    var province: String
    var provider: String
  }

  /// An event's 시·도 and provider named as on `day`: the store keeps their lineage ids
  /// (`전북 익산시`), a person reads 전북특별자치도 익산시.
  static func named(_ stored: Regions, _ lineage: RegionLineage, on day: CalendarDay) -> Regions {
    let province = lineage.province(ofProvider: stored.provider, on: day) ?? stored.province
    return Regions(
      province: lineage.provinceName(province, on: day), provider: lineage.providerName(stored.provider, on: day))
  }

  /// A comparison's events named as on `day` (the newer snapshot's: ``named(_:_:on:)``), so
  /// `raon diff` and the report's changes name each by its provider and 시·도 as a person
  /// knows them.
  public static func named(_ diff: SnapshotDiff, profile: CatalogProfile, on day: CalendarDay) -> SnapshotDiff {
    var names = Naming(profile: profile, on: day)
    return SnapshotDiff(
      added: diff.added.map { names.named($0) }, removed: diff.removed.map { names.named($0) },
      changed: diff.changed.map { ChangedProgram(old: names.named($0.old), new: names.named($0.new), fields: $0.fields) })
  }
}
