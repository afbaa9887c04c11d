import RaonErrors
import TOMLKit

// The keys of `[weekly]` that decide whether a week is sent — `max_age`, `approve`,
// `stale_notice` — and its `[weekly.gates]`, read with the same care as the others: each
// mistake names the file, the line and the key (exit 78).

extension SectionReader {
  /// Reads `max_age`, `approve`, `stale_notice` and `[weekly.gates]` into `settings`.
  func readChecks(into settings: inout WeeklySettings) throws {
    if let seconds = try seconds("max_age", 3_600...(400 * 86_400), example: "like \"8d\" or \"36h\"") {
      settings.maxAge = seconds
    }
    if let approve = try flag("approve") { settings.approve = approve }
    if let notice = try flag("stale_notice") { settings.staleNotice = notice }
    if let value = table["gates"] {
      guard let gates = value.table else {
        throw fail("gates", "'gates' must be a [weekly.gates] section: size_change = \"20%\", …")
      }
      settings.gates = try SectionReader(gates, name: "weekly.gates", lines: lines, path: path).gates()
    }
  }

  /// `true` or `false`.
  func flag(_ key: String) throws -> Bool? {
    guard let value = table[key] else { return nil }
    guard let flag = value.bool else { throw fail(key, "'\(key)' must be true or false") }
    return flag
  }

  /// `[weekly.gates]`.
  func gates() throws -> WeeklyGateSettings {
    try checkKeys(WeeklyGateSettings.knownKeys)
    var gates = WeeklyGateSettings()
    if table["size_change"] != nil { gates.sizeChange = try share("size_change") }
    if table["changed_share"] != nil { gates.changedShare = try share("changed_share") }
    if let value = table["emptied"] {
      if value.string.map(Self.isOff) == true || value.bool == false {
        gates.emptiedFrom = nil
      } else if let n = value.int, (1...1_000_000).contains(n) {
        gates.emptiedFrom = n
      } else {
        throw fail(
          "emptied",
          "'emptied' must be the least number of programs a district had last week for its having none to stop the week, like 5 (or \"off\")")
      }
    }
    if let value = table["columns"] {
      if let on = value.bool {
        gates.columns = on
      } else if let text = value.string, Self.isOff(text) {
        gates.columns = false
      } else {
        throw fail("columns", "'columns' must be true or false")
      }
    }
    return gates
  }

  /// A share written as a percentage, `"20%"` (or `"off"`): `nil` when off.
  func share(_ key: String) throws -> Double? {
    let value = table[key]
    if value?.bool == false { return nil }
    if let text = value?.string?.trimmingCharacters(in: .whitespaces) {
      if Self.isOff(text) { return nil }
      if text.hasSuffix("%"), let number = Double(text.dropLast().trimmingCharacters(in: .whitespaces)),
        number > 0, number <= 1_000
      {
        return number / 100
      }
    }
    throw fail(key, "'\(key)' must be a percentage like \"20%\" (more than 0 %, at most 1000 %), or \"off\"")
  }

  static func isOff(_ text: String) -> Bool {
    ["off", "false", "none"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
  }
}
