import RaonErrors
import Foundation

/// The 시·도 and 시·군·구 of Korea through their renames, moves and mergers: what the
/// national data's providers are, stably, whatever their name of the day.
///
/// A provider (제공기관명) is read as one of three kinds, each with a stable id:
/// - a 시·도 office (`부산광역시`): the 시·도's id, its short name (`부산`);
/// - a 시·군·구 office (`경상북도 안동시`): the 시·도's id and the 시·군·구's name
///   (`경북 안동시`), or, for a 시·군·구 listed in the table, the id of its lineage
///   (`경상북도 군위군` and `대구광역시 군위군` are both `대구 군위군`);
/// - any other body (`대구광역시교육청 대구학생문화센터`): `@` and its name with a leading
///   시·도 name written as `{id}` (`@{대구}교육청 대구학생문화센터`), so a renamed 시·도 leaves it
///   the same body. Its 시·도 is read from the event's address, not from its name.
///
/// Names are given for a day (``provinceName(_:on:)``, ``providerName(_:on:)``): a
/// report names regions as they were named at its date.
public struct RegionLineage: Sendable {
  /// The 시·도 id of events whose 시·도 cannot be told (기타 기관).
  public static let otherBodies = "기타"
  /// What ``otherBodies`` is called in a report.
  public static let otherBodiesName = "기타 기관"

  /// A name held over a span of days (`from`/`until` `nil`: open).
  struct Named: Sendable {
    var name: String
    var from: CalendarDay?
    var until: CalendarDay?

    func holds(on day: CalendarDay) -> Bool {
      (from.map { $0 <= day } ?? true) && (until.map { day <= $0 } ?? true)
    }
  }

  /// A 시·도: its names over time and the other spellings addresses use.
  struct Province: Sendable {
    var id: String
    var names: [Named]
  }

  /// A 시·군·구 whose name or 시·도 changed: `(province id, name)` over time.
  struct Body: Sendable {
    var id: String
    var names: [(province: String, named: Named)]
  }

  private(set) var provinces: [Province] = []
  var bodies: [String: Body] = [:]
  /// Body id → the body it became part of, and when.
  var merges: [String: (into: String, on: CalendarDay)] = [:]
  /// Any spelling of a 시·도 (full names, short forms) → its id; longest first when matching.
  private(set) var provinceBySpelling: [String: String] = [:]
  private(set) var spellingsLongestFirst: [String] = []
  /// Full 시·도 names (not the short forms), for names glued to what follows (`대구광역시교육청`).
  private(set) var fullNamesLongestFirst: [String] = []
  /// `province id|local name` of a listed body → its id.
  private(set) var bodyByLocalName: [String: String] = [:]
  /// A provider code → the provider id it stands for (used when 제공기관명 is empty).
  private(set) var providerByCode: [String: String] = [:]
  /// A provider name (folded) → the provider id it continues (from `raon.toml`).
  var aliases: [String: String] = [:]
  /// What this lineage may learn from the data it compares (``Detection``).
  public var detection = Detection()

  /// The lineage Raon ships (``shippedTable``).
  public static let shipped: RegionLineage = {
    do {
      return try RegionLineage(table: shippedTable)
    } catch {
      preconditionFailure("the shipped region table reads: \(error)")
    }
  }()

  /// Why a line of a lineage table does not read.
  public struct TableError: RaonError, CustomStringConvertible, Equatable {
    public var exitStatus: ExitStatus { .failure }
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }

    public init(line: Int, message: String) {
      self.line = line
      self.message = message
    }
  }

  /// Reads a table in ``shippedTable``'s format.
  public init(table: String) throws {
    var lineNumber = 0
    for raw in table.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \r"))
      if line.isEmpty || line.hasPrefix("#") { continue }
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      func day(_ text: String) throws -> CalendarDay? {
        if text.isEmpty { return nil }
        guard let day = CalendarDay(iso: text) else {
          throw TableError(line: lineNumber, message: "'\(text)' is not a YYYY-MM-DD day")
        }
        return day
      }
      func cell(_ i: Int) -> String { i < cells.count ? cells[i] : "" }
      func list(_ i: Int) -> [String] { cell(i).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
      switch cells[0] {
      case "province":
        guard !cell(1).isEmpty, !cell(2).isEmpty else {
          throw TableError(line: lineNumber, message: "a province line needs an id and a name")
        }
        addProvince(
          id: cell(1), named: Named(name: cell(2), from: try day(cell(3)), until: try day(cell(4))),
          codes: list(5), spellings: list(6))
      case "body":
        guard !cell(1).isEmpty, !cell(2).isEmpty, !cell(3).isEmpty else {
          throw TableError(line: lineNumber, message: "a body line needs an id, a province and a name")
        }
        addBody(
          id: cell(1), province: cell(2),
          named: Named(name: cell(3), from: try day(cell(4)), until: try day(cell(5))), codes: list(6))
      case "merge":
        guard !cell(1).isEmpty, !cell(2).isEmpty, let on = try day(cell(3)) else {
          throw TableError(line: lineNumber, message: "a merge line needs a body, what it became part of and the day")
        }
        merges[cell(1)] = (cell(2), on)
      default:
        throw TableError(line: lineNumber, message: "'\(cells[0])' is not province, body or merge")
      }
    }
    for body in bodies.values {
      for (province, _) in body.names where provinceBySpelling[province] == nil {
        throw TableError(line: 0, message: "body \(body.id) names the unknown province \(province)")
      }
    }
  }

  mutating func addProvince(id: String, named: Named, codes: [String], spellings: [String]) {
    if let i = provinces.firstIndex(where: { $0.id == id }) {
      provinces[i].names.append(named)
    } else {
      provinces.append(Province(id: id, names: [named]))
    }
    for spelling in [named.name, id] + spellings { provinceBySpelling[spelling] = id }
    for code in codes { providerByCode[code] = id }
    spellingsLongestFirst = provinceBySpelling.keys.sorted { ($0.count, $0) > ($1.count, $1) }
    let full = provinces.flatMap { $0.names.map(\.name) }
    fullNamesLongestFirst = full.sorted { ($0.count, $0) > ($1.count, $1) }
  }

  mutating func addBody(id: String, province: String, named: Named, codes: [String]) {
    bodies[id, default: Body(id: id, names: [])].names.append((province, named))
    bodyByLocalName[province + "|" + named.name] = id
    for code in codes { providerByCode[code] = id }
  }

  // MARK: - Providers

  /// A provider as its rows name it.
  public struct Provider: Sendable, Hashable {
    /// The stable id (see the type's comment); what `Program.category` holds.
    public var id: String
    /// The 시·도 id of a local government; `nil` for another body (its 시·도 comes from
    /// the event's address).
    public var province: String?
  }

  /// The 시·도 ids in the order reports list them.
  public var provinceIDs: [String] { provinces.map(\.id) }

  /// The provider a row names (제공기관명, else 제공기관코드).
  ///
  /// - Parameters:
  ///   - name: 제공기관명 as the row gives it.
  ///   - code: 제공기관코드, used only when the name is empty.
  public func provider(name: String, code: String) -> Provider {
    let clean = Self.collapsed(name)
    if clean.isEmpty {
      let code = Self.collapsed(code)
      if let id = providerByCode[code] { return provider(id: id) }
      return Provider(id: code.isEmpty ? "@" : "@" + code, province: nil)
    }
    if let alias = aliases[TextKey.fold(clean)] { return provider(id: alias) }
    let words = clean.split(separator: " ").map(String.init)
    if let province = provinceBySpelling[words[0]] {
      let rest = words.dropFirst()
      if rest.isEmpty { return Provider(id: province, province: province) }
      let local = Self.localName(rest[rest.startIndex])
      if Self.isLocalGovernment(local) {
        let id = bodyByLocalName[province + "|" + local] ?? (province + " " + local)
        let extra = rest.dropFirst().joined(separator: " ")
        // A body under a 시·군·구 (`서울특별시 강북구 문화재단`) keeps that 시·군·구's region.
        return provider(id: extra.isEmpty ? id : id + " " + extra)
      }
      // `서울특별시 서울시설공단`: another body, whose name begins with its 시·도.
      return Provider(id: "@{\(province)} " + rest.joined(separator: " "), province: nil)
    }
    for full in fullNamesLongestFirst where clean.hasPrefix(full) {
      if let id = provinceBySpelling[full] {
        return Provider(id: "@{\(id)}" + clean.dropFirst(full.count), province: nil)
      }
    }
    return Provider(id: "@" + clean, province: nil)
  }

  /// The provider with this id, its 시·도 as the lineage holds it now.
  func provider(id: String) -> Provider {
    if id.hasPrefix("@") { return Provider(id: id, province: nil) }
    if provinces.contains(where: { $0.id == id }) { return Provider(id: id, province: id) }
    if let body = bodies[bodyID(of: id)], let last = body.names.last { return Provider(id: id, province: last.province) }
    let province = id.split(separator: " ").first.map(String.init) ?? Self.otherBodies
    return Provider(id: id, province: provinceBySpelling[province] ?? Self.otherBodies)
  }

  /// The id the natural key uses for a provider: its id, or for a body that became part of
  /// another, the id of what it finally became (so its events go on under the merged body).
  public func keyLineage(of providerID: String) -> String {
    var id = providerID
    var seen: Set<String> = []
    while let merge = merges[bodyID(of: id)], seen.insert(id).inserted {
      let suffix = id.dropFirst(bodyID(of: id).count)
      id = merge.into + suffix
    }
    return id
  }

  /// The 시·도 id an address begins with (`경상북도 안동시 …`, `강원 춘천시 …`), or `nil`.
  public func province(ofAddress address: String) -> String? {
    let clean = Self.collapsed(address)
    guard let first = clean.split(separator: " ").first else { return nil }
    if let id = provinceBySpelling[String(first)] { return id }
    for full in fullNamesLongestFirst where clean.hasPrefix(full) { return provinceBySpelling[full] }
    return nil
  }

  // MARK: - Helpers

  /// The listed body an id belongs to (`대구 군위군 문화재단` → `대구 군위군`), else the id's
  /// first two words (a 시·군·구), else the id.
  func bodyID(of id: String) -> String {
    if bodies[id] != nil || merges[id] != nil { return id }
    let words = id.split(separator: " ")
    if words.count > 2 {
      let two = words.prefix(2).joined(separator: " ")
      if bodies[two] != nil || merges[two] != nil || provinces.contains(where: { $0.id == String(words[0]) }) {
        return two
      }
    }
    return id
  }

  func expandingProvinces(_ text: String, on day: CalendarDay) -> String {
    var out = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      out += rest[..<open]
      out += provinceName(String(rest[rest.index(after: open)..<close]), on: day)
      rest = rest[rest.index(after: close)...]
    }
    return out + rest
  }

  static func pick(_ names: [Named], on day: CalendarDay) -> String {
    if let held = names.last(where: { $0.holds(on: day) }) { return held.name }
    // Before every name: the first; after every name: the last.
    if let first = names.first, let from = first.from, day < from { return first.name }
    return names.last?.name ?? ""
  }

  /// `수원특례시` → `수원시`; `강남구청` → `강남구`.
  static func localName(_ word: String) -> String {
    if word.hasSuffix("특례시") { return String(word.dropLast(3)) + "시" }
    for suffix in ["구청", "군청", "시청"] where word.hasSuffix(suffix) && word.count > 2 {
      return String(word.dropLast(1))
    }
    return word
  }

  /// Whether a word names a 시·군·구 (ends in 시, 군 or 구, and is short).
  static func isLocalGovernment(_ word: String) -> Bool {
    guard let last = word.last, word.count >= 2, word.count <= 6 else { return false }
    return last == "시" || last == "군" || last == "구"
  }

  /// Trimmed, with every run of white space one space, NFC.
  static func collapsed(_ text: String) -> String {
    text.precomposedStringWithCanonicalMapping.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
