import RaonAnalytics
import RaonCore

/// The rules page 1's sentences are written from, so they read well at any count — none,
/// one, two, many — rather than one template filled with numbers ("0건이 시작하고 0건이
/// 끝납니다", "전시/미술(1건), 클래식(1건) 순으로 많습니다"). Pure; each rule is tested at
/// 0, 1, 2 and many.
public enum CountPhrases {
  /// How a clause ends: the end of the sentence (`많습니다`) or joined to the next (`많고`).
  public enum Ending: Sendable { case final, connective }

  /// What runs this week against the compared collection: `이번 주 운영 중인 문화행사는 306건으로
  /// 전주(314건)보다 8건(2.5%) 줄었습니다.` `place` is a pack's region (`강동구`); `against`
  /// names what `previous` counts (전주 only for the week before).
  public static func running(
    now: Int, previous: Int?, place: String?, against: ComparedWith = .previousWeek, _ L: ReportLabels
  ) -> String {
    let item = L.words.item
    let subject = L.say(
      "\(place.map { "\($0)에서 " } ?? "")이번 주 운영 중인 문화행사",
      place.map { " in \($0)" } ?? "")
    let ko = L.language == .ko
    let cultural = "cultural \(item.en)"
    func runs(_ n: Int) -> String { "\(en(n, item, "cultural ")) \(n == 1 ? "runs" : "run")" }
    guard let p = previous else {
      if ko { return now == 0 ? "\(L.with(subject, .topic)) 없습니다." : "\(L.with(subject, .topic)) \(n(now))입니다." }
      return now == 0 ? "No \(cultural) runs this week\(subject)." : "\(runs(now)) this week\(subject)."
    }
    let then = L.compared(against)
    if ko {
      let topic = L.with(subject, .topic)
      switch (now, p) {
      case (0, 0): return "\(topic) \(L.with(then, .and)) 마찬가지로 없습니다."
      case (0, _): return "\(topic) 없습니다(\(then) \(n(p)))."
      case (_, 0): return "\(topic) \(n(now))으로, \(then)에는 없었습니다."
      case _ where now == p: return "\(topic) \(n(now))으로 \(L.with(then, .and)) 같습니다."
      default:
        let d = now - p
        return "\(topic) \(n(now))으로 \(L.comparedCount(against, n(p)))보다 \(n(abs(d)))(\(pct(d, p))) \(d > 0 ? "늘었습니다" : "줄었습니다")."
      }
    }
    switch (now, p) {
    case (0, 0): return "No \(cultural) runs this week\(subject), as \(then)."
    case (0, _): return "No \(cultural) runs this week\(subject) (\(then): \(p.formatted()))."
    case (_, 0): return "\(runs(now)) this week\(subject); none ran \(then)."
    case _ where now == p: return "\(runs(now)) this week\(subject), as many as \(then)."
    default:
      let d = now - p
      return
        "\(runs(now)) this week\(subject), \(abs(d).formatted()) (\(pct(d, p))) \(d > 0 ? "more" : "fewer") than \(then) (\(p.formatted()))."
    }
  }

  /// Newly registered, starting and ending: `새로 등록된 행사는 3건이며, 이번 주에 5건이
  /// 시작하고 끝나는 행사는 없습니다.`
  public static func registeredStartingEnding(registered: Int, starting: Int, ending: Int, _ L: ReportLabels)
    -> String
  {
    if L.language == .en {
      let item = L.words.item
      let reg =
        registered == 0
        ? "No \(item.en) was newly registered"
        : "\(en(registered, item)) \(registered == 1 ? "was" : "were") newly registered"
      let flows: String
      switch (starting, ending) {
      case (0, 0): flows = "none starts or ends this week"
      case (_, 0): flows = "\(starting.formatted()) \(starting == 1 ? "starts" : "start") this week and none ends"
      case (0, _): flows = "none starts this week and \(ending.formatted()) \(ending == 1 ? "ends" : "end")"
      default:
        flows = "\(starting.formatted()) \(starting == 1 ? "starts" : "start") and \(ending.formatted()) \(ending == 1 ? "ends" : "end") this week"
      }
      return "\(reg); \(flows)."
    }
    let reg = registered == 0 ? "새로 등록된 행사는 없으며" : "새로 등록된 행사는 \(n(registered))이며"
    switch (starting, ending) {
    case (0, 0): return "\(reg), 이번 주에 시작하거나 끝나는 행사\(registered == 0 ? "도" : "는") 없습니다."
    case (_, 0): return "\(reg), 이번 주에 \(n(starting))이 시작하고 끝나는 행사는 없습니다."
    case (0, _): return "\(reg), 이번 주에 시작하는 행사는 없고 \(n(ending))이 끝납니다."
    default: return "\(reg), 이번 주에 \(n(starting))이 시작하고 \(n(ending))이 끝납니다."
    }
  }

  /// The leading groups of a ranking, said by their counts:
  /// - one group: `모두 전시/미술(2건)입니다`;
  /// - every group equal: `전시/미술·클래식 각 1건입니다` (more than three: `5개 분류가 각 1건입니다`);
  /// - several first: `전시/미술·클래식 각 2건으로 가장 많습니다`;
  /// - else: `전시/미술(5건), 클래식(2건) 순으로 많습니다` (at most `keep` groups).
  ///
  /// - Returns: nil when no group counts anything.
  public static func leading(
    _ rows: [BandCount], keep: Int, unit: String, ending: Ending = .final, _ L: ReportLabels
  ) -> String? {
    let groups = rows.filter { $0.count > 0 }.sorted {
      $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key
    }
    guard let top = groups.first else { return nil }
    let ko = L.language == .ko
    func end(_ final: String, _ connective: String) -> String { ending == .final ? final : connective }
    if groups.count == 1 {
      return ko ? "모두 \(top.key)(\(n(top.count)))" + end("입니다", "이고") : "all in \(L.named(top.key)) (\(top.count.formatted()))"
    }
    let first = groups.filter { $0.count == top.count }
    if first.count > 1 {
      let named =
        first.count <= 3
        ? first.map { L.named($0.key) }.joined(separator: ko ? "·" : ", ")
        : L.say(L.with("\(first.count)개 \(unit)", .subject), "\(first.count) \(unit)")
      let each = ko ? "각 \(n(top.count))" : "\(top.count.formatted()) each"
      if first.count == groups.count {
        return ko ? "\(named) \(each)" + end("입니다", "이고") : "\(named), \(each)"
      }
      return ko ? "\(named) \(each)으로 가장 " + end("많습니다", "많고") : "\(named) lead with \(each)"
    }
    let shown = groups.prefix(max(2, keep))
    let list = shown.map { ko ? "\($0.key)(\(n($0.count)))" : "\(L.named($0.key)) (\($0.count.formatted()))" }
      .joined(separator: ", ")
    return ko ? "\(list) 순으로 " + end("많습니다", "많고") : "\(list) lead"
  }

  /// What a chart leaves out, named without counting the unknown region as one more
  /// region: `그 외 15개 구 79건, 자치구 미상 7건은 붙임의 표에 있습니다.`
  ///
  /// - Parameters:
  ///   - rest: The groups not drawn (the unknown region among them, if it is).
  ///   - unknownKey: The key of the group that is no group of the unit
  ///     (``CatalogWords/unknownRegion``).
  public static func chartRest(_ rest: [BandCount], unit: String, unknownKey: String?, _ L: ReportLabels) -> String? {
    guard let named = restParts(rest, unit: unit, unknownKey: unknownKey, L) else { return nil }
    return L.say(
      "\(L.with(named, .topic)) 붙임의 표에 있습니다.",
      "\(named.prefix(1).uppercased() + named.dropFirst()): in the attachment's table.")
  }

  /// `그 외 15개 구 79건, 자치구 미상 7건` / `the other 15 districts (79), district unknown (7)`:
  /// what a chart leaves out, for a chart's note and the workbook's.
  public static func restParts(_ rest: [BandCount], unit: String, unknownKey: String?, _ L: ReportLabels) -> String? {
    let unknown = rest.filter { $0.key == unknownKey }.reduce(0) { $0 + $1.count }
    let groups = rest.filter { $0.key != unknownKey }
    let programs = groups.reduce(0) { $0 + $1.count }
    var parts: [String] = []
    if !groups.isEmpty {
      parts.append(L.say("그 외 \(groups.count)개 \(unit) \(n(programs))", "the other \(groups.count) \(unit) (\(programs.formatted()))"))
    }
    if unknown > 0 {
      let region = L.words.region
      parts.append(L.say("\(region.ko) 미상 \(n(unknown))", "\(region.en) unknown (\(unknown.formatted()))"))
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  // MARK: - Numbers

  /// A name with its topic particle (``KoreanParticle/topic``): `국립국악원은`, `서대문구는`.
  public static func topic(_ name: String) -> String { KoreanParticle.topic.attached(to: name) }

  /// `306건`.
  static func n(_ count: Int) -> String { "\(count.formatted())건" }

  /// `1 program`, `306 programs` (`prefix`: `1 cultural program`).
  static func en(_ count: Int, _ noun: CatalogWords.Noun, _ prefix: String = "") -> String {
    count == 1 ? "1 \(prefix)\(noun.en)" : "\(count.formatted()) \(prefix)\(noun.enPlural)"
  }

  /// The change's share of last week: `2.5%`.
  static func pct(_ d: Int, _ p: Int) -> String { Percentage.text(Double(abs(d)) / Double(p)) }
}
