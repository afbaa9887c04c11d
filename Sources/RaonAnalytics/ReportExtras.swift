import RaonCore

/// One of a catalog's extra tables (``ReportExtra``) counted: every band in the extra's
/// order, zeros included.
public struct ExtraTable: Sendable {
  public var extra: ReportExtra
  public var rows: [BandCount]

  public init(extra: ReportExtra, rows: [BandCount]) {
    self.extra = extra
    self.rows = rows
  }
}

/// Counts a catalog's extra tables over some programs (pure): each program in the band its
/// extra's measure gives it.
public enum ReportExtras {
  /// The tables of `extras` over `programs` (a snapshot's events, or a pack's).
  public static func tables(_ extras: [ReportExtra], _ programs: [Program]) -> [ExtraTable] {
    extras.map { extra in
      var counts = [String: Int]()
      // Each text read once: a few hundred distinct texts among thousands of events.
      var keys: [String: String] = [:]
      for program in programs {
        let text = extra.measure.text(of: program)
        let key = keys[text] ?? {
          let key = extra.measure.key(of: text)
          keys[text] = key
          return key
        }()
        counts[key, default: 0] += 1
      }
      return ExtraTable(extra: extra, rows: extra.bands.map { BandCount(key: $0.key, count: counts[$0.key] ?? 0) })
    }
  }
}

extension ReportExtra.Measure {
  /// The program's text the measure reads.
  func text(of program: Program) -> String {
    switch self {
    case .feeKind: return program.theme
    case .admissionAge: return program.audience
    }
  }

  /// The band of a text: `free`, `paid`, `mixed`, `unknown` for 요금정보 (``NationalFee/Kind``);
  /// an ``AgeBand``'s key for 입장연령.
  func key(of text: String) -> String {
    switch self {
    case .feeKind:
      switch NationalFee.Kind(text) {
      case .free: return "free"
      case .paid: return "paid"
      case .mixed: return "mixed"
      case .unknown: return "unknown"
      }
    case .admissionAge: return AgeBand(text).rawValue
    }
  }
}
