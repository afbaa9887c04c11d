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

    // 1. What runs this week, against last week; 2. new, starting and ending (``CountPhrases``).
    out.append(CountPhrases.running(now: v.running, previous: previous?.running, place: r.district?.name, L))
    out.append(
      CountPhrases.registeredStartingEnding(registered: v.registered, starting: v.starting, ending: v.ending, L))

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
    let categories = v.runningByCategory.filter { $0.count > 0 }
    if let d = r.district {
      if v.running > 0, d.amongProviders {
        // One provider among the providers: its share and rank, without a breakdown by
        // provider (it is the only one) or a count of places it is not.
        out.append(
          ko
            ? "\(CountPhrases.topic(d.name)) 전국 이번 주 운영 행사의 \(Percentage.text(d.runningShare))로 제공기관 \(d.districtCount)곳 중 \(d.runningRank)위입니다."
            : "\(d.name) holds \(Percentage.text(d.runningShare)) of the country's events running this week, #\(d.runningRank) of \(d.districtCount) providers.")
      } else if v.running > 0, let cats = CountPhrases.leading(categories, keep: 2, unit: L.categoryUnit, L) {
        out.append(
          ko
            ? "\(CountPhrases.topic(d.name)) 서울시 이번 주 운영 행사의 \(Percentage.text(d.runningShare))로 \(d.districtCount)개 구 중 \(d.runningRank)위이며, 분류별로는 \(cats)."
            : "\(d.name) holds \(Percentage.text(d.runningShare)) of the city's programs running this week, #\(d.runningRank) of \(d.districtCount) districts; by category, \(cats).")
      }
    } else if v.running > 0 {
      let districts = v.runningByDistrict.filter { $0.key != District.unknown }
      let ds = CountPhrases.leading(districts, keep: 3, unit: L.districtUnit, ending: .connective, L)
      // Two categories' share of all is worth saying only when there are more than two.
      let cs: String?
      if categories.count > 2 {
        let top = Array(categories.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }.prefix(2))
        let share = Percentage.text(Double(top.reduce(0) { $0 + $1.count }) / Double(v.running))
        cs =
          ko
          ? top.map { "\($0.key)(\(count($0.count, L)))" }.joined(separator: ", ") + "이 전체의 \(share)입니다"
          : top.map { "\($0.key) (\($0.count.formatted()))" }.joined(separator: " and ") + " make up \(share) of them"
      } else {
        cs = CountPhrases.leading(categories, keep: 2, unit: L.categoryUnit, L)
      }
      let dsFinal = CountPhrases.leading(districts, keep: 3, unit: L.districtUnit, L)
      switch (ds, cs) {
      case (let ds?, let cs?):
        out.append(ko ? "자치구별로는 \(ds), 분류별로는 \(cs)." : "By district, \(ds); by category, \(cs).")
      case (_, let cs?):
        out.append(ko ? "분류별로는 \(cs)." : "By category, \(cs).")
      case (_?, nil):
        out.append(ko ? "자치구별로는 \(dsFinal ?? "")." : "By district, \(dsFinal ?? "").")
      default: break
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
        // The same cases as the Korean: both, one of them, or neither (no "0 programs were…").
        func were(_ n: Int) -> String { n == 1 ? "1 program was" : "\(n.formatted()) programs were" }
        let end = w == 1 ? "its end" : "their end"
        if w > 0 && m > 0 {
          out.append("Since the last collection, \(were(w)) withdrawn before \(end) and \(m.formatted()) changed (attachment 4).")
        } else if w > 0 {
          out.append("Since the last collection, \(were(w)) withdrawn before \(end) (attachment 4).")
        } else if m > 0 {
          out.append("Since the last collection, \(were(m)) changed (attachment 4).")
        } else {
          out.append("No program was withdrawn or changed since the last collection.")
        }
      }
    }
    return out
  }

  /// `306건` / `306`.
  private static func count(_ n: Int, _ L: ReportLabels) -> String {
    L.language == .ko ? "\(n.formatted())건" : n.formatted()
  }

}
