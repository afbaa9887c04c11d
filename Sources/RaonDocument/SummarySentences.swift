import RaonAnalytics
import RaonCore

/// The three to five sentences of page 1, written from the figures as a Korean public
/// document words them ("이번 주 운영 중인 문화행사는 306건으로 전주(314건)보다 8건(2.5%)
/// 줄었습니다."), and their English equivalents. Pure: the same report gives the same text in
/// every format.
public enum SummarySentences {
  /// - Parameters:
  ///   - r: The report (the city's, or a district's pack).
  ///   - L: The report's words.
  /// - Returns: The sentences, in reading order.
  public static func make(_ r: ReportData, _ L: ReportLabels) -> [String] {
    let ko = L.language == .ko
    let v = r.weekView
    let previous = r.compareTo == nil ? nil : r.previousWeek
    var out: [String] = []

    // 1. What runs this week, against last week.
    let place = r.district.map { ko ? "\($0.name)에서 " : " in \($0.name)" } ?? ""
    var first = L.say(
      "\(place)이번 주 운영 중인 문화행사는 \(count(v.running, L))",
      "\(v.running.formatted()) cultural programs run this week\(place)")
    if let p = previous {
      let d = v.running - p.running
      let pct = p.running > 0 ? Percentage.text(Double(abs(d)) / Double(p.running)) : nil
      first +=
        d == 0
        ? L.say("으로 전주(\(count(p.running, L)))와 같습니다.", ", as many as last week (\(p.running.formatted())).")
        : L.say(
          "으로 전주(\(count(p.running, L)))보다 \(count(abs(d), L))\(pct.map { "(\($0))" } ?? "") \(d > 0 ? "늘었습니다" : "줄었습니다").",
          ", \(abs(d).formatted())\(pct.map { " (\($0))" } ?? "") \(d > 0 ? "more" : "fewer") than last week (\(p.running.formatted())).")
    } else {
      first += L.say("입니다.", ".")
    }
    out.append(first)

    // 2. New, starting and ending.
    out.append(
      ko
        ? "새로 등록된 행사는 \(count(v.registered, L))이며, 이번 주에 \(count(v.starting, L))이 시작하고 \(count(v.ending, L))이 끝납니다."
        : "\(v.registered.formatted()) programs were newly registered; \(v.starting.formatted()) start and \(v.ending.formatted()) end this week.")

    // 3. The free share of what runs.
    if v.running > 0 {
      let share = Double(v.runningFree) / Double(v.running)
      var s =
        ko
        ? "이번 주 운영 행사 중 무료 행사 비율은 \(Percentage.text(share))"
        : "\(Percentage.text(share)) of the programs running are free"
      if let p = previous, p.running > 0 {
        let delta = share - Double(p.runningFree) / Double(p.running)
        let tenths = Percentage.tenths(delta) ?? 0
        let points = Percentage.pointsMagnitudeText(delta, suffix: L.percentPoints)
        if ko {
          s += tenths == 0 ? "로 전주와 같습니다." : "로 전주보다 \(points) \(tenths > 0 ? "높습니다" : "낮습니다")."
        } else {
          s += tenths == 0 ? ", as last week." : ", \(points) \(tenths > 0 ? "more" : "less") than last week."
        }
      } else {
        s += ko ? "입니다." : "."
      }
      out.append(s)
    }

    // 4. Where and what: the leading districts and categories (a pack: its place in the city).
    let categories = leading(v.runningByCategory, 2)
    if let d = r.district {
      if v.running > 0 {
        let cats = categories.map { "\($0.key)(\(count($0.count, L)))" }.joined(separator: ", ")
        out.append(
          ko
            ? "\(d.name)는 서울시 이번 주 운영 행사의 \(Percentage.text(d.runningShare))로 \(d.districtCount)개 구 중 \(d.runningRank)위이며, 분류별로는 \(cats) 순으로 많습니다."
            : "\(d.name) holds \(Percentage.text(d.runningShare)) of the city's programs running this week, #\(d.runningRank) of \(d.districtCount) districts; by category: \(categories.map { "\($0.key) (\($0.count.formatted()))" }.joined(separator: ", ")).")
      }
    } else if v.running > 0 {
      let districts = leading(v.runningByDistrict.filter { $0.key != District.unknown }, 3)
      let top = categories.reduce(0) { $0 + $1.count }
      if ko {
        let ds = districts.map { "\($0.key)(\(count($0.count, L)))" }.joined(separator: ", ")
        let cs = categories.map { "\($0.key)(\(count($0.count, L)))" }.joined(separator: ", ")
        out.append(
          "자치구별로는 \(ds) 순으로 많고, 분류별로는 \(cs)이 전체의 \(Percentage.text(Double(top) / Double(v.running)))입니다.")
      } else {
        let ds = districts.map { "\($0.key) (\($0.count.formatted()))" }.joined(separator: ", ")
        let cs = categories.map { "\($0.key) (\($0.count.formatted()))" }.joined(separator: ", ")
        out.append(
          "Most run in \(ds); \(cs) make up \(Percentage.text(Double(top) / Double(v.running))) of them.")
      }
    }

    // 5. What an official acts on: withdrawn programs and material changes.
    if let kinds = r.changeKinds {
      let (w, m) = (kinds.removedWithdrawn, kinds.changedMaterial)
      if ko {
        if w > 0 && m > 0 {
          out.append("지난 수집 이후 행사 \(count(w, L))이 종료일 전에 철회되었고, \(count(m, L))은 내용이 바뀌었습니다(붙임 4).")
        } else if w > 0 {
          out.append("지난 수집 이후 행사 \(count(w, L))이 종료일 전에 철회되었습니다(붙임 4).")
        } else if m > 0 {
          out.append("지난 수집 이후 내용이 바뀐 행사는 \(count(m, L))입니다(붙임 4).")
        } else {
          out.append("지난 수집 이후 철회되거나 내용이 바뀐 행사는 없습니다.")
        }
      } else {
        out.append(
          w == 0 && m == 0
            ? "No program was withdrawn or changed since the last collection."
            : "Since the last collection, \(w.formatted()) programs were withdrawn before their end and \(m.formatted()) changed (attachment 4).")
      }
    }
    return out
  }

  /// `306건` / `306`.
  private static func count(_ n: Int, _ L: ReportLabels) -> String {
    L.language == .ko ? "\(n.formatted())건" : n.formatted()
  }

  /// The first `n` rows by count, then key (the rankings are already in that order).
  private static func leading(_ rows: [BandCount], _ n: Int) -> [BandCount] {
    Array(rows.filter { $0.count > 0 }.prefix(n))
  }
}
