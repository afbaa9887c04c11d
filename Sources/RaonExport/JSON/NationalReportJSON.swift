import RaonAnalytics
import RaonCore
import RaonDocument

/// `report.json` of the national data: Seoul's shape (DESIGN.md Part 1) where it applies,
/// with the region keys the national data groups by — `…ByRegion` (시·도, named as on the
/// report's day) for `…ByDistrict` and `…ByProvider` (the providing body) for
/// `…ByCategory`, `providerByRegion` for `categoryByDistrict`, `region` for a pack's
/// `district` — and `catalog: "national"`, `unit: "events"`, `byFeeKind` (요금정보) and
/// `byAge` (입장연령) added. Counts are events (rows sharing the natural key count once).
/// docs/OUTPUT.md lists the keys.
enum NationalReportJSON {
  static func adapt(_ value: JSONValue, _ figures: ReportData) -> JSONValue {
    guard case .object(let members) = labelled(renamed(value)) else { return value }
    var out: [(String, JSONValue)] = [("catalog", .string("national")), ("unit", .string("events"))]
    out += members
    let band = { (b: BandCount) in JSONValue.object([("key", .string(b.key)), ("count", .int(b.count))]) }
    if let tables = figures.national {
      out.append(("byFeeKind", .array(tables.byFeeKind.map(band))))
      out.append(("byAge", .array(tables.byAge.map(band))))
    }
    return .object(out)
  }

  /// Each changed field (`changedFields: {id: [{field, old, new}]}`, at any depth) with its
  /// `label` added after `field`: the code stays for scripts, the label is the download's
  /// column name (`feeText` → 관람요금, `sessions` → 회차 수), in English its English label
  /// (`Admission fee`, `Sessions`).
  static func labelled(_ value: JSONValue, _ language: ReportLanguage = .ko) -> JSONValue {
    switch value {
    case .object(let members):
      return .object(members.map { key, member in
        guard key == "changedFields", case .object(let byID) = member else { return (key, labelled(member, language)) }
        return (key, .object(byID.map { id, changes in
          guard case .array(let list) = changes else { return (id, changes) }
          return (id, .array(list.map { withLabel($0, language) }))
        }))
      })
    case .array(let items): return .array(items.map { labelled($0, language) })
    default: return value
    }
  }

  private static func withLabel(_ change: JSONValue, _ language: ReportLanguage) -> JSONValue {
    guard case .object(let members) = change else { return change }
    var out: [(String, JSONValue)] = []
    for (key, value) in members {
      out.append((key, value))
      if key == "field", case .string(let code) = value {
        out.append(("label", .string(NationalWords.fieldLabel(code, language) ?? code)))
      }
    }
    return .object(out)
  }

  /// Every object key in the national data's words, at any depth.
  static func renamed(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members): return .object(members.map { (key($0.0), renamed($0.1)) })
    case .array(let items): return .array(items.map(renamed))
    default: return value
    }
  }

  static func key(_ key: String) -> String {
    switch key {
    case "district": return "region"
    case "categoryByDistrict": return "providerByRegion"
    default:
      return key.replacingOccurrences(of: "ByDistrict", with: "ByRegion")
        .replacingOccurrences(of: "ByCategory", with: "ByProvider")
        .replacingOccurrences(of: "byDistrict", with: "byRegion")
        .replacingOccurrences(of: "byCategory", with: "byProvider")
    }
  }
}
